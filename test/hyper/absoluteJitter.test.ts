/**
 * An absolute jitter with sampled hyperparameters: K = sigma (C + j I) + a I (src/hyper/covariance.ts).
 * K and dK/dlog sigma against the formula entry by entry; the gradient of Laplace's approximate
 * log posterior of theta, on which pm's mode search runs, against central differences of its
 * value, with a relative and with an absolute jitter; and the schemes that need K linear in
 * sigma refuse it. Invariance under pm: schemeInvariance3.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { hyperLogPrior, kernelAt, rescaledKernelAt, type HyperSpace } from "../../src/hyper/covariance.js";
import { laplace } from "../../src/approx/laplace.js";
import { laplaceLogZGradient } from "../../src/approx/logZGradient.js";
import { jointChain } from "../../src/hyper/schemes.js";
import { laplaceLogPosterior } from "../../src/hyper/thetaMode.js";
import { probit } from "../../src/likelihoods/probit.js";
import { gridSpace } from "./hyperGrid.js";

const X = [0, 0.3, 0.9, 1.6, 2.2];
const Y = Float64Array.from([1, 1, -1, -1, 1]);
const withJitter = (relativeJitter: number, absoluteJitter?: number): HyperSpace => ({ ...gridSpace(X), relativeJitter, ...(absoluteJitter !== undefined ? { absoluteJitter } : {}) });

test("K = sigma (C + j I) + a I and dK/dlog sigma = K - a I, entry by entry", () => {
  const t = [-0.4, 0.7];
  const sigma = Math.exp(0.7), ell = Math.exp(-0.4);
  for (const [j, a] of [[1e-6, 0], [0, 0.25], [0.01, 0.5]] as const) {
    const at = kernelAt(withJitter(j, a), t);
    const dSigma = at.derivative(1);
    for (let r = 0; r < X.length; r++) for (let c = 0; c < X.length; c++) {
      const C = Math.exp(-((X[r]! - X[c]!) ** 2) / (2 * ell * ell));
      const want = sigma * (C + (r === c ? j : 0)) + (r === c ? a : 0);
      assert.ok(Math.abs(at.K.get(r, c) - want) < 1e-14 * Math.max(1, want), `K[${r},${c}] with j = ${j}, a = ${a}`);
      assert.ok(Math.abs(dSigma.get(r, c) - (want - (r === c ? a : 0))) < 1e-14 * Math.max(1, want));
    }
  }
});

test("the gradient of Laplace's log posterior of theta agrees with central differences of its value, relative and absolute jitter", () => {
  for (const space of [withJitter(1e-6), withJitter(0, 0.3)]) {
    const problem = { space, likelihood: probit, y: Y };
    const t = [0.2, 0.5];
    const g = laplaceLogPosterior(problem, t).gradient;
    for (let k = 0; k < 2; k++) {
      const h = 1e-5;
      const up = t.slice(), down = t.slice();
      up[k]! += h;
      down[k]! -= h;
      const fd = (laplaceLogPosterior(problem, up).value - laplaceLogPosterior(problem, down).value) / (2 * h);
      assert.ok(Math.abs(fd - g[k]!) < 1e-6 * Math.max(1, Math.abs(fd)), `absolute jitter ${space.absoluteJitter ?? 0}, d/dt${k}: ${g[k]} against ${fd}`);
    }
  }
  // the control: the relative form's dK/dlog sigma = K, with an absolute jitter, is off by far more than the tolerance
  const space = withJitter(0, 0.3);
  const t = [0.2, 0.5];
  const at = kernelAt(space, t);
  const r = laplace(at.K, Y, probit, { onWarning: () => {} });
  const wrong = laplaceLogZGradient(at.K, [at.derivative(0), at.K], Y, probit, r)[1]! + hyperLogPrior(space, t).gradient[1]!;
  const h = 1e-5;
  const fd = (laplaceLogPosterior({ space, likelihood: probit, y: Y }, [0.2, 0.5 + h]).value - laplaceLogPosterior({ space, likelihood: probit, y: Y }, [0.2, 0.5 - h]).value) / (2 * h);
  assert.ok(Math.abs(wrong - fd) > 1e-3, `the wrong derivative passed: ${wrong} against ${fd}`);
});

test("an absolute jitter: K is not rescaled from another sigma's, and the schemes that need K linear in sigma refuse it", () => {
  const space = withJitter(0, 0.1);
  const from = kernelAt(space, [0, 0]);
  assert.throws(() => rescaledKernelAt(space, from, [0, 0.5]), /not linear in sigma/);
  for (const scheme of ["sa", "aa", "asis", "khr", "surr"] as const) {
    assert.throws(() => jointChain({ space, likelihood: probit, y: Y }, { scheme }, [0, 0]), /an absolute jitter needs the pm scheme/);
  }
  assert.ok(jointChain({ space, likelihood: probit, y: Y }, { scheme: "pm" }, [0, 0]));
});
