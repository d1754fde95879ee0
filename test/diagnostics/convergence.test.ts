import { test } from "node:test";
import assert from "node:assert/strict";
import {
  DiagnosticsInputError,
  drawsFromChains,
  fractionBelow,
  medianOf,
  rhatAtCheckpoints,
  rhatClassic,
  rhatCode,
  rhatConvergenceTable,
} from "../../src/diagnostics/index.js";
import { Rng } from "../../src/random/index.js";

test("rhatCode puts R-hat in the paper's classes < 1.1 < . < 1.3 < . < 2 < .", () => {
  const cases: [number, number][] = [[1, 0], [1.0999, 0], [1.1, 1], [1.2999, 1], [1.3, 2], [1.999, 2], [2, 3], [50, 3], [Infinity, 3], [NaN, 3]];
  for (const [r, code] of cases) assert.equal(rhatCode(r), code, `R-hat ${r}`);
});

/** Chains that start far apart (at +-start) and relax as AR(1) with coefficient phi. */
function relaxingDraws(rng: Rng, variables: number, chains: number, draws: number, phi: number, start: number) {
  return drawsFromChains(
    Array.from({ length: variables }, () =>
      Array.from({ length: chains }, (_, c) => {
        const x = new Float64Array(draws);
        let v = (c % 2 === 0 ? 1 : -1) * start;
        for (let i = 0; i < draws; i++) {
          v = phi * v + Math.sqrt(1 - phi * phi) * rng.normal();
          x[i] = v;
        }
        return x;
      }),
    ),
  );
}

test("rhatAtCheckpoints is the classic R-hat of the first c draws of each chain", () => {
  const rng = new Rng(701);
  const d = relaxingDraws(rng, 3, 4, 300, 0.95, 20);
  const checkpoints = [10, 100, 300];
  const r = rhatAtCheckpoints(d, checkpoints);
  for (let k = 0; k < checkpoints.length; k++) {
    for (let v = 0; v < 3; v++) {
      const prefix = Array.from({ length: 4 }, (_, c) => {
        const x = new Float64Array(checkpoints[k]);
        for (let i = 0; i < x.length; i++) x[i] = d.data[(c * 300 + i) * 3 + v];
        return x;
      });
      assert.equal(r[k][v], rhatClassic(prefix));
    }
  }
  assert.throws(() => rhatAtCheckpoints(d, [301]), DiagnosticsInputError);
});

test("convergence table: median over data sets of the worst variable, coded; codes fall as chains forget their start", () => {
  const rng = new Rng(702);
  const dataSets = [0, 1, 2].map(() => relaxingDraws(rng, 4, 4, 2000, 0.99, 30));
  const checkpoints = [20, 200, 2000];
  const table = rhatConvergenceTable(dataSets, { checkpoints });
  // By hand from the per-variable R-hats.
  const perSet = dataSets.map((d) => rhatAtCheckpoints(d, checkpoints));
  for (let k = 0; k < checkpoints.length; k++) {
    const worst = perSet.map((r) => Math.max(...r[k]));
    worst.sort((a, b) => a - b);
    assert.equal(table.medianRhat[k], worst[1]);
    // The class as the number of bounds 1.1, 1.3, 2 the median reaches, not rhatCode again.
    assert.equal(table.codes[k], [1.1, 1.3, 2].filter((b) => worst[1] >= b).length);
    const all = perSet.flatMap((r) => Array.from(r[k]));
    assert.equal(table.fractionConverged[k], all.filter((x) => x < 1.1).length / all.length);
  }
  // Start 30 sd away with phi = 0.99: after 20 draws the chains are still apart (code 3); after
  // 2000 draws (0.99^2000 ~ 2e-9 of the start left) they agree (code 0).
  assert.equal(table.codes[0], 3);
  assert.equal(table.codes[2], 0);
  assert.ok(table.fractionConverged[0] < table.fractionConverged[2]);
  assert.equal(rhatConvergenceTable(dataSets, { checkpoints, reduce: "median" }).medianRhat.length, 3);
});

test("fractionBelow and medianOf", () => {
  assert.equal(fractionBelow([1.0, 1.05, 1.2, NaN]), 0.5);
  assert.equal(fractionBelow([1.0, 1.5], 2), 1);
  assert.equal(medianOf([3, 1, 2]), 2);
  assert.equal(medianOf([4, 1, 2, 3]), 2.5);
  assert.equal(medianOf([1, NaN, 2]), 2); // NaN counts as not converged (large)
});
