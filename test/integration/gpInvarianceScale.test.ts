// Invariance of RMHMC at the note's USPS prior scale (signal sd s = exp(5.1)), where the metric
// G(x) = K^-1 + Lambda(x) changes by orders of magnitude over a few units of x: Lambda_nn is about
// beta for a misclassified label and about 0 for a well classified one, while K^-1's eigenvalues
// are about 1 / s^2.
//
// The check does not depend on mixing: N starts x_0 are exact draws of the target (rejection from
// the prior N(0, K), accepting with probability prod_n Phi(y_n x_n)^beta <= 1), each is moved by
// one transition to x_1, and for g in {x_1, x_2, x_1^2, x_2^2} the paired differences
// g(x_1) - g(x_0) must have mean 0 (an invariant kernel maps the target to itself). The N pairs
// are independent, so the differences' own standard deviation over sqrt(N) is the MCSE; batch
// means over 100 batches, computed beside it, must agree with it (a check of that premise).
// Under invariance each z is N(0, 1) whatever N, so more draws do not move the passing z towards
// the bound; they make the test see smaller departures (the bound 4 stands for a bias of
// 4 MCSE). The invariance check uses 300 000 pairs, the negative controls 100 000, which they
// fail by far more than 6 MCSE.
//
// Negative controls: the same transition without the reversibility check (implicit solves to a
// tolerance, converged or rejected, but the proposal not integrated back), and the note's fixed
// count of 5 fixed-point iterations, both move the mean by many standard errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { probit } from "../../src/likelihoods/probit.js";
import { logPhi } from "../../src/math/normal.js";
import { Rng } from "../../src/random/rng.js";
import { rmhmc, type RmhmcOptions } from "../../src/samplers/kernels/rmhmc.js";
import { annealedLatentTarget } from "../../src/targets/annealedLatent.js";

const PASS_Z = 4;
const FAIL_Z = 6;
const N = 300_000;
const N_CONTROL = 100_000;
const BATCHES = 100;
const BETA = 0.001;

// Two inputs at distance 1, lengthscale 1.5 (prior correlation 0.80), labels that disagree.
const INPUTS = new Matrix(2, 1, Float64Array.of(0, 1));
const Y = Float64Array.of(1, -1);
const K = seKernel({ lengthscale: 1.5, logSignalSd: 5.1 }).matrix(INPUTS);
const L00 = Math.sqrt(K.get(0, 0));
const L10 = K.get(1, 0) / L00;
const L11 = Math.sqrt(K.get(1, 1) - L10 * L10);

/** An exact draw of exp(L_beta) with q the prior: N(0, K) Phi(y_1 x_1)^beta Phi(y_2 x_2)^beta, by rejection. */
function exactDraw(rng: Rng): Float64Array {
  for (;;) {
    const z0 = rng.normal();
    const z1 = rng.normal();
    const x = Float64Array.of(L00 * z0, L10 * z0 + L11 * z1);
    if (Math.log(rng.uniform()) < BETA * (logPhi(Y[0] * x[0]) + logPhi(Y[1] * x[1]))) return x;
  }
}

interface Outcome { z: number[]; mcseRatio: number[]; acceptance: number; irreversible: number }

function oneStepZScores(options: RmhmcOptions, seed: number, N: number): Outcome {
  const target = annealedLatentTarget({ likelihood: probit, y: Y, kernelMatrix: K, beta: BETA });
  const kernel = rmhmc(target, options);
  const rng = new Rng(seed, 0);
  const g = [(x: Float64Array) => x[0], (x: Float64Array) => x[1], (x: Float64Array) => x[0] * x[0], (x: Float64Array) => x[1] * x[1]];
  const sum = new Float64Array(g.length);
  const sumSq = new Float64Array(g.length);
  const batchSum = g.map(() => new Float64Array(BATCHES));
  const batchSize = N / BATCHES;
  let accepted = 0;
  let irreversible = 0;
  for (let r = 0; r < N; r++) {
    const x0 = exactDraw(rng);
    const { state, info } = kernel.step(kernel.init(x0), rng);
    if (info.accepted) accepted++;
    if (info.divergence === "irreversible") irreversible++;
    for (let j = 0; j < g.length; j++) {
      const d = g[j](state.position) - g[j](x0);
      sum[j] += d;
      sumSq[j] += d * d;
      batchSum[j][Math.floor(r / batchSize)] += d;
    }
  }
  const mcse = Array.from(sum, (s, j) => {
    const mean = s / N;
    return Math.sqrt((sumSq[j] - N * mean * mean) / (N - 1)) / Math.sqrt(N);
  });
  // Batch means: the sd of the BATCHES batch means over sqrt(BATCHES).
  const batchMcse = batchSum.map((b) => {
    const means = Array.from(b, (x) => x / batchSize);
    const m = means.reduce((a, x) => a + x, 0) / BATCHES;
    return Math.sqrt(means.reduce((a, x) => a + (x - m) * (x - m), 0) / (BATCHES - 1) / BATCHES);
  });
  const z = Array.from(sum, (s, j) => s / N / mcse[j]);
  return { z, mcseRatio: batchMcse.map((b, j) => b / mcse[j]), acceptance: accepted / N, irreversible: irreversible / N };
}

const maxAbs = (z: number[]) => Math.max(...z.map(Math.abs));
const describe = (o: Outcome) => `z = ${o.z.map((v) => v.toFixed(2)).join(", ")}; batch-means / iid MCSE ${o.mcseRatio.map((v) => v.toFixed(2)).join(", ")}; acceptance ${o.acceptance.toFixed(3)}, irreversible ${o.irreversible.toFixed(3)}`;
const SETTING: RmhmcOptions = { stepSize: 0.1, leapfrogSteps: 10 };

test("RMHMC at the USPS prior scale (s = exp(5.1), beta = 0.001): one transition from exact draws keeps the target", (t) => {
  const o = oneStepZScores(SETTING, 21, N);
  t.diagnostic(describe(o));
  assert.ok(maxAbs(o.z) < PASS_Z, `the transition moved a moment: ${describe(o)}`);
  // The pairs are independent, so batch means estimate the same MCSE; with 100 batches their
  // ratio has sd about 1 / sqrt(2 * 99) = 0.07.
  assert.ok(o.mcseRatio.every((r) => Math.abs(r - 1) < 0.3), `batch means disagree with the iid MCSE: ${describe(o)}`);
  // the check rejected something: the test exercises it
  assert.ok(o.irreversible > 0.01, `the reversibility check never fired: ${describe(o)}`);
});

test("negative controls: without the reversibility check, and with the note's 5 fixed-point iterations, the same test fails", (t) => {
  const unchecked = oneStepZScores({ ...SETTING, reversibilityTolerance: false }, 21, N_CONTROL);
  t.diagnostic(`no check: ${describe(unchecked)}`);
  assert.ok(maxAbs(unchecked.z) > FAIL_Z, `the unchecked transition was not caught: ${describe(unchecked)}`);
  const fixedCount = oneStepZScores({ ...SETTING, fixedPointIterations: 5 }, 21, N_CONTROL);
  t.diagnostic(`5 iterations: ${describe(fixedCount)}`);
  assert.ok(maxAbs(fixedCount.z) > FAIL_Z, `the fixed-count transition was not caught: ${describe(fixedCount)}`);
});

test("the check does not reject sound proposals: on an ill-conditioned K (20 inputs 1/3 apart, lengthscale 1) it turns down none of 300", () => {
  // K's condition number is large here, and the fixed points' own errors (1e-8) come back from
  // the reverse trajectory amplified (up to ~1e-3 in x, more in p in the Euclidean norm): a check
  // that measured them as a root change would reject nearly every proposal.
  const n = 20;
  const X = new Matrix(n, 1, Float64Array.from({ length: n }, (_, i) => i / 3));
  const y = Float64Array.from({ length: n }, (_, i) => (Math.sin(i / 3) > 0 ? 1 : -1));
  const target = annealedLatentTarget({ likelihood: probit, y, kernelMatrix: seKernel({ lengthscale: 1, signalSd: 2 }).matrix(X) });
  const kernel = rmhmc(target, { stepSize: 0.3, leapfrogSteps: 5 });
  const rng = new Rng(7, 0);
  let state = kernel.init(new Float64Array(n));
  let irreversible = 0;
  let accepted = 0;
  for (let t = 0; t < 300; t++) {
    const out = kernel.step(state, rng);
    state = out.state;
    if (out.info.divergence === "irreversible") irreversible++;
    if (out.info.accepted) accepted++;
  }
  assert.equal(irreversible, 0, `${irreversible} of 300 rejected by the check (accepted ${accepted})`);
  assert.ok(accepted > 200, `accepted ${accepted} of 300`);
});
