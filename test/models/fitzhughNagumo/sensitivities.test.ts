/**
 * The augmented sensitivity system (models/ode/sensitivities.ts): exponential decay
 * x' = -k x + m against its closed-form derivatives in (k, m); the Fitzhugh-Nagumo states'
 * first-order sensitivities against central differences of the solved states, and the
 * second-order ones against central differences of the first-order ones; a broken system (the
 * second derivative d2V'/dV2 dropped) is caught by the same comparison.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { pairIndex, SensitivitySolver, type OdeSystem, type SensitivitySolution } from "../../../src/models/ode/sensitivities.js";
import { FN_INITIAL_STATE, fitzhughNagumoSystem } from "../../../src/models/fitzhughNagumo/equations.js";
import { observationTimes } from "../../../src/models/fitzhughNagumo/simulate.js";

test("pairIndex packs i <= k row by row", () => {
  const seen = new Set<number>();
  for (let i = 0; i < 4; i++) for (let k = i; k < 4; k++) {
    assert.equal(pairIndex(i, k, 4), pairIndex(k, i, 4));
    seen.add(pairIndex(i, k, 4));
  }
  assert.deepEqual([...seen].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

/** x' = -k x + m, theta = (k, m). */
const decay: OdeSystem = {
  states: 1,
  params: 2,
  rhs: (x, th, out) => void (out[0] = -th[0] * x[0] + th[1]),
  firstDerivatives(x, th, fx, ft) {
    fx[0] = -th[0];
    ft[0] = -x[0];
    ft[1] = 1;
  },
  secondDerivatives(_x, _th, fxx, fxt, ftt) {
    fxx[0] = 0;
    fxt[0] = -1; // d2f/dx dk
    fxt[1] = 0;
    ftt.fill(0);
  },
};

test("exponential decay: states, first and second sensitivities equal their closed forms", () => {
  const k = 0.7, m = 0.4, x0 = 2;
  const times = Float64Array.from({ length: 40 }, (_, j) => 0.25 * j);
  const sol = new SensitivitySolver(decay, { rtol: 1e-11, atol: 1e-13 }).solve(Float64Array.of(k, m), [x0], 0, times, 2);
  for (let j = 0; j < times.length; j++) {
    const t = times[j];
    const e = Math.exp(-k * t);
    // x = m/k + (x0 - m/k) e^{-kt}
    const x = m / k + (x0 - m / k) * e;
    const dxdk = -m / (k * k) + (m / (k * k)) * e - t * (x0 - m / k) * e;
    const dxdm = (1 - e) / k;
    const d2k2 = (2 * m) / k ** 3 - ((2 * m) / k ** 3) * e - 2 * t * (m / (k * k)) * e + t * t * (x0 - m / k) * e;
    const d2km = -1 / (k * k) + e / (k * k) + (t * e) / k;
    const d2m2 = 0;
    const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-8 * (1 + Math.abs(b)), `${what} at t = ${t}: ${a} vs ${b}`);
    close(sol.state(j, 0), x, "x");
    close(sol.first(j, 0, 0), dxdk, "dx/dk");
    close(sol.first(j, 0, 1), dxdm, "dx/dm");
    close(sol.second(j, 0, 0, 0), d2k2, "d2x/dk2");
    close(sol.second(j, 0, 0, 1), d2km, "d2x/dk dm");
    close(sol.second(j, 0, 1, 0), d2km, "d2x/dm dk");
    close(sol.second(j, 0, 1, 1), d2m2, "d2x/dm2");
  }
});

const TIMES = observationTimes(200, 20);
const TOL = { rtol: 1e-11, atol: 1e-13 };
const H = 1e-5;

/** Largest error of the analytic sensitivities against central differences, relative to 1 + |fd|. */
function sensitivityErrors(system: OdeSystem, theta: number[]): { first: number; second: number } {
  const solver = new SensitivitySolver(system, TOL);
  const at = (th: number[]): SensitivitySolution => solver.solve(Float64Array.from(th), FN_INITIAL_STATE, 0, TIMES, 2);
  const base = at(theta);
  let first = 0;
  let second = 0;
  for (let k = 0; k < 3; k++) {
    const up = theta.slice();
    const down = theta.slice();
    up[k] += H;
    down[k] -= H;
    const p = at(up);
    const m = at(down);
    for (let j = 0; j < TIMES.length; j++) {
      for (let n = 0; n < 2; n++) {
        const fd = (p.state(j, n) - m.state(j, n)) / (2 * H);
        first = Math.max(first, Math.abs(base.first(j, n, k) - fd) / (1 + Math.abs(fd)));
        for (let i = 0; i < 3; i++) {
          const fd2 = (p.first(j, n, i) - m.first(j, n, i)) / (2 * H);
          second = Math.max(second, Math.abs(base.second(j, n, i, k) - fd2) / (1 + Math.abs(fd2)));
        }
      }
    }
  }
  return { first, second };
}

for (const theta of [[0.2, 0.2, 3], [0.35, 0.1, 2.6], [-0.1, 0.4, 3.4]]) {
  test(`Fitzhugh-Nagumo at (${theta}): sensitivities agree with finite differences of the solution at all 200 times`, () => {
    const e = sensitivityErrors(fitzhughNagumoSystem, theta);
    assert.ok(e.first < 1e-5, `first order: ${e.first}`);
    assert.ok(e.second < 1e-5, `second order: ${e.second}`);
  });
}

test("negative control: without d2V'/dV2 the second-order sensitivities disagree with finite differences", () => {
  const broken: OdeSystem = {
    ...fitzhughNagumoSystem,
    secondDerivatives(x, th, fxx, fxt, ftt) {
      fitzhughNagumoSystem.secondDerivatives(x, th, fxx, fxt, ftt);
      fxx[0] = 0;
    },
  };
  const e = sensitivityErrors(broken, [0.2, 0.2, 3]);
  assert.ok(e.first < 1e-5, `first order: ${e.first}`);
  assert.ok(e.second > 1e-2, `second order not caught: ${e.second}`);
});
