// HMC pieces: the three mass-matrix forms and the leapfrog (eq. 9).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Cholesky } from "../../src/linalg/cholesky.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";
import { hmc } from "../../src/samplers/kernels/hmc.js";
import { identityMass, massFromCholesky, massFromInverseCholesky, type MassMatrix } from "../../src/samplers/integrators/massMatrix.js";
import { cholDense, cholInverse, GAUSS_COV, GAUSS_MEAN, gaussianTarget, toColumnMajor } from "./fixtures.js";

const M = toColumnMajor([[2, 0.5, -0.3], [0.5, 1, 0.2], [-0.3, 0.2, 0.7]]);
const mInv = cholInverse(cholDense(M, 3), 3);
const forms: [string, MassMatrix][] = [
  ["factor of M", massFromCholesky(new Cholesky(new Matrix(3, 3, cholDense(M, 3))))],
  ["factor of M^-1", massFromInverseCholesky(new Matrix(3, 3, cholDense(mInv, 3)))],
];

test("mass matrices: M^-1 p and the kinetic energy agree with the dense M^-1, for both factor forms and the identity", () => {
  const p = Float64Array.from([0.7, -1.3, 2.1]);
  const out = new Float64Array(3);
  for (const [label, mass] of forms) {
    mass.applyInverse(p, out);
    let k = 0;
    for (let i = 0; i < 3; i++) {
      let s = 0;
      for (let j = 0; j < 3; j++) s += mInv[i + j * 3] * p[j];
      assert.ok(Math.abs(out[i] - s) < 1e-12, `${label}: (M^-1 p)_${i}`);
      k += p[i] * s;
    }
    assert.ok(Math.abs(mass.kineticEnergy(p) - 0.5 * k) < 1e-12, `${label}: kinetic energy`);
  }
  const id = identityMass(3);
  id.applyInverse(p, out);
  assert.deepEqual(Array.from(out), Array.from(p));
  assert.ok(Math.abs(id.kineticEnergy(p) - 0.5 * (0.49 + 1.69 + 4.41)) < 1e-12);
});

test("mass matrices: momentum draws have covariance M", () => {
  for (const [label, mass] of forms) {
    const rng = new Rng(17);
    const draws = 40000;
    const p = new Float64Array(3);
    const s = new Float64Array(9);
    for (let t = 0; t < draws; t++) {
      mass.sampleMomentum(rng, p);
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) s[i + 3 * j] += p[i] * p[j];
    }
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      const est = s[i + 3 * j] / draws;
      // sd of the estimate of E[p_i p_j] is sqrt((M_ii M_jj + M_ij^2) / draws)
      const se = Math.sqrt((M[i + 3 * i] * M[j + 3 * j] + M[i + 3 * j] ** 2) / draws);
      assert.ok(Math.abs(est - M[i + 3 * j]) < 4 * se, `${label}: cov(p)_${i}${j} = ${est}, M = ${M[i + 3 * j]}`);
    }
  }
});

test("mass matrices reject a factor with a non-positive diagonal", () => {
  assert.throws(() => massFromCholesky(Matrix.fromRows([[1, 0], [0.5, 0]])), /positive/);
});

test("leapfrog: reversible to rounding, and energy error second order in the step size", () => {
  const target = gaussianTarget(GAUSS_MEAN, GAUSS_COV);
  for (const mass of [identityMass(3), forms[0][1]]) {
    const k = hmc(target, { stepSize: 0.2, leapfrogSteps: 20, mass });
    const x0 = Float64Array.from([1, 0, -1]);
    const p0 = Float64Array.from([0.5, -1, 1.5]);
    const fwd = k.integrate(k.init(x0), p0, 20);
    const back = k.integrate(k.init(fwd.position), fwd.momentum.map((v) => -v), 20);
    for (let i = 0; i < 3; i++) {
      assert.ok(Math.abs(back.position[i] - x0[i]) < 1e-12 && Math.abs(back.momentum[i] + p0[i]) < 1e-12);
    }
    const errs = [[0.2, 5], [0.1, 10], [0.05, 20]].map(([eps, l]) => {
      const kk = hmc(target, { stepSize: eps, leapfrogSteps: l, mass });
      const t = kk.integrate(kk.init(x0), p0, l);
      return Math.abs(t.endEnergy - t.startEnergy);
    });
    for (let i = 1; i < errs.length; i++) assert.ok(errs[i - 1] / errs[i] > 3 && errs[i - 1] / errs[i] < 5.5, `ratio ${errs[i - 1] / errs[i]}`);
  }
});

test("a transition costs one gradient evaluation per leapfrog step", () => {
  const target = gaussianTarget(GAUSS_MEAN, GAUSS_COV);
  let calls = 0;
  const counted = { ...target, logDensityAndGradient: (x: Float64Array, g: Float64Array) => { calls++; return target.logDensityAndGradient(x, g); } };
  const k = hmc(counted, { stepSize: 0.1, leapfrogSteps: 17 });
  const s = k.init(Float64Array.from(GAUSS_MEAN));
  calls = 0;
  const r = k.transition(s, Float64Array.from([1, 1, 1]), Math.log(0.5), 17);
  assert.equal(calls, 17);
  assert.equal(r.info.gradientCalls, 17);
  assert.equal(r.info.leapfrogSteps, 17);
  assert.ok(Math.abs(r.info.energyError) < 0.05);
});
