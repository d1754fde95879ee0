// The stochastic volatility model (src/models/volatility): the joint log density against a direct
// sum of normal log densities, the priors' normalisation by quadrature (which checks the Jacobian
// of sigma -> sigma^2), the parameters' gradient and 3 x 3 metric derivatives by finite
// differences, the likelihood part of the metric against the Monte Carlo average of the score's
// outer product (the Fisher information; the paper's printed I_sigma,phi fails it), the latent
// block's gradient by finite differences, its metric against I/2 + inverse of the dense AR(1)
// covariance, and its log density against differences of the joint one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cholesky, Matrix } from "../../../src/linalg/index.js";
import { logGamma } from "../../../src/math/logGamma.js";
import { latentStatistics, SV_MIN_OBSERVATIONS, SV_PRIOR, svLikelihoodGradient, svLogLikelihood, svLogPrior } from "../../../src/models/volatility/svModel.js";
import { svLatentTarget } from "../../../src/models/volatility/svLatent.js";
import { svFisherInformation, svParameterMetric, svParameterModel } from "../../../src/models/volatility/svParameters.js";
import { simulateVolatility } from "../../../src/models/volatility/svSimulate.js";
import { Rng } from "../../../src/random/rng.js";
import { checkDenseMetricModel } from "../../../src/targets/denseMetricCheck.js";

const logNormal = (v: number, mean: number, variance: number) => -0.5 * Math.log(2 * Math.PI * variance) - ((v - mean) * (v - mean)) / (2 * variance);

test("the joint log likelihood is the sum of the normal log densities of y_t, x_1 and x_t | x_{t-1} (less T log 2 pi)", () => {
  const { y, x } = simulateVolatility(30, 0.7, 0.2, 0.9, 3);
  for (const [beta, sigma, phi] of [[0.7, 0.2, 0.9], [1.3, 0.05, -0.4], [0.2, 1.5, 0.99]]) {
    let direct = logNormal(x[0], 0, (sigma * sigma) / (1 - phi * phi));
    for (let t = 1; t < y.length; t++) direct += logNormal(x[t], phi * x[t - 1], sigma * sigma);
    for (let t = 0; t < y.length; t++) direct += logNormal(y[t], 0, beta * beta * Math.exp(x[t]));
    const ours = svLogLikelihood(latentStatistics(y, x), beta, sigma, phi) - y.length * Math.log(2 * Math.PI);
    assert.ok(Math.abs(ours - direct) < 1e-9 * Math.abs(direct), `${ours} vs ${direct}`);
  }
  assert.equal(svLogLikelihood(latentStatistics(y, x), 0.7, 0.2, 1), -Infinity);
});

test("the priors of sigma and phi, normalised with their textbook constants, integrate to 1 (quadrature)", () => {
  const { nu, s2, a, b } = SV_PRIOR;
  // sigma^2 ~ Scaled-Inv-chi^2(nu, s2): log p(v) = nu/2 log(nu s2 / 2) - log Gamma(nu/2) - (nu/2 + 1) log v - nu s2 / (2 v),
  // and p(sigma) = p(v) 2 sigma; svLogPrior's sigma part must equal log p(sigma) less a constant that integrates away.
  const cSigma = (nu / 2) * Math.log((nu * s2) / 2) - logGamma(nu / 2) + Math.log(2);
  const logBeta = logGamma(a) + logGamma(b) - logGamma(a + b);
  // svLogPrior's sigma (phi) part is the textbook log density less a constant: fix it at sigma = 1 (phi = 0)
  const textbookSigmaAt1 = cSigma - (nu * s2) / 2;
  // (phi + 1) / 2 ~ Beta(a, b): log p(phi) = -log B(a, b) + (a - 1) log((1 + phi) / 2) + (b - 1) log((1 - phi) / 2) - log 2
  const textbookPhiAt0 = -logBeta + (a + b - 2) * Math.log(0.5) - Math.log(2);
  const n = 200000;
  let zs = 0;
  for (let i = 1; i <= n; i++) {
    const s = ((i - 0.5) / n) * 5;
    zs += Math.exp(svLogPrior(1, s, 0) - svLogPrior(1, 1, 0) + textbookSigmaAt1) * (5 / n);
  }
  let zp = 0;
  for (let i = 1; i <= n; i++) {
    const p = -1 + (2 * (i - 0.5)) / n;
    zp += Math.exp(svLogPrior(1, 0.3, p) - svLogPrior(1, 0.3, 0) + textbookPhiAt0) * (2 / n);
  }
  assert.ok(Math.abs(zs - 1) < 1e-4, `sigma prior integrates to ${zs}`);
  // the Beta(20, 1.5) density has an integrable (1 - u)^0.5 edge: the midpoint rule converges as n^-1.5
  assert.ok(Math.abs(zp - 1) < 1e-4, `phi prior integrates to ${zp}`);
});

test("parameter block: gradient and dG/dtheta_k by finite differences; G positive definite down to T = 7", () => {
  const { y, x } = simulateVolatility(200, 0.65, 0.15, 0.98, 4);
  const model = svParameterModel(latentStatistics(y, x));
  for (const p of [[0.65, 0.15, 0.98], [0.9, 0.3, 0.5], [0.4, 0.08, -0.7]]) {
    const c = checkDenseMetricModel(model, Float64Array.from(p), { h: 1e-6 });
    assert.ok(c.gradient < 1e-6, `gradient at ${p}: ${c.gradient}`);
    assert.ok(c.metricDerivatives < 1e-5, `dG at ${p}: ${c.metricDerivatives}`);
    assert.ok(c.asymmetry === 0);
  }
  // with the paper's beta prior p(beta) propto exp(beta) and with a proper exponential one
  const tilted = svParameterModel(latentStatistics(y, x), { betaPriorRate: -2 });
  assert.ok(checkDenseMetricModel(tilted, Float64Array.of(0.65, 0.15, 0.98), { h: 1e-6 }).gradient < 1e-6);
  // positive definite everywhere once T >= 7: probe large sigma and phi near +-1
  assert.equal(SV_MIN_OBSERVATIONS, 7);
  for (const sigma of [0.01, 0.3, 1, 10, 1e3]) {
    for (const phi of [-0.999, -0.5, 0, 0.5, 0.999]) cholesky(svParameterMetric(SV_MIN_OBSERVATIONS, 0.5, sigma, phi, false).metric);
  }
  // T = 6 is not: at sigma = 10, G_sigma,sigma = (12 - 11) / 100 + 1.5 / 10^4 < I_sp^2 / G_pp near phi = 0.9
  assert.throws(() => cholesky(svParameterMetric(5, 0.5, 10, 0.9, false).metric));
});

test("parameter block: the likelihood's metric is the Fisher information E[score score'] (Monte Carlo), not the printed I_sigma,phi", () => {
  const T = 20, beta = 0.8, sigma = 0.3, phi = 0.7;
  const n = 20000;
  const sum = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const sq = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const g = new Float64Array(3);
  for (let r = 0; r < n; r++) {
    const { y, x } = simulateVolatility(T, beta, sigma, phi, 1000 + r);
    svLikelihoodGradient(latentStatistics(y, x), beta, sigma, phi, g);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      const v = g[i] * g[j];
      sum[i * 3 + j] += v;
      sq[i * 3 + j] += v * v;
    }
  }
  const fisher = svFisherInformation(T, beta, sigma, phi);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    const m = sum[i * 3 + j] / n;
    const se = Math.sqrt((sq[i * 3 + j] / n - m * m) / n);
    assert.ok(Math.abs(m - fisher[i][j]) < 4.5 * se + 1e-12, `I[${i}][${j}] = ${fisher[i][j]}, Monte Carlo ${m} +- ${se}`);
  }
  // the extracted text's 2 phi / (sigma^3 (1 - phi^2)) is far outside the Monte Carlo error
  const printed = (2 * phi) / (sigma ** 3 * (1 - phi * phi));
  const m = sum[5] / n;
  const se = Math.sqrt((sq[5] / n - m * m) / n);
  assert.ok(Math.abs(m - printed) > 20 * se, `printed ${printed} vs ${m} +- ${se}`);
});

test("latent block: gradient by finite differences, metric = I/2 + inverse(dense AR(1) covariance), density = joint up to a constant", () => {
  const T = 12, beta = 0.7, sigma = 0.25, phi = 0.9;
  const { y } = simulateVolatility(T, beta, sigma, phi, 8);
  const target = svLatentTarget(y, beta, sigma, phi);
  const rng = new Rng(9, 0);
  const x = Float64Array.from({ length: T }, () => rng.normal());
  const grad = new Float64Array(T);
  const l0 = target.logDensityAndGradient(x, grad);
  const h = 1e-6;
  for (let t = 0; t < T; t++) {
    const xp = x.slice(), xm = x.slice();
    xp[t] += h;
    xm[t] -= h;
    const fd = (target.logDensity(xp) - target.logDensity(xm)) / (2 * h);
    assert.ok(Math.abs(fd - grad[t]) < 1e-6 * (1 + Math.abs(fd)), `dL/dx_${t}: ${grad[t]} vs ${fd}`);
  }
  // C_ij = phi^|i-j| sigma^2 / (1 - phi^2), inverted densely
  const c = new Matrix(T, T);
  for (let i = 0; i < T; i++) for (let j = 0; j < T; j++) c.set(i, j, (phi ** Math.abs(i - j) * sigma * sigma) / (1 - phi * phi));
  const ch = cholesky(c);
  const e = new Float64Array(T);
  const col = new Float64Array(T);
  const gDense = new Matrix(T, T);
  for (let j = 0; j < T; j++) {
    e.fill(0);
    e[j] = 1;
    const inv = ch.solve(e);
    inv[j] += 0.5;
    for (let i = 0; i < T; i++) gDense.set(i, j, inv[i]);
    target.geometry(x).applyMetric!(e, col);
    for (let i = 0; i < T; i++) assert.ok(Math.abs(col[i] - inv[i]) < 1e-8 * (1 + Math.abs(inv[i])), `G[${i}][${j}] ${col[i]} vs ${inv[i]}`);
  }
  const geo = target.geometry(x);
  assert.ok(Math.abs(geo.logDetMetric - cholesky(gDense).logDet()) < 1e-9);
  // L(x) - L(x') = log p(y, x | theta) - log p(y, x' | theta)
  const x2 = Float64Array.from(x, (v) => v + 0.3 * rng.normal());
  const joint = (z: Float64Array) => svLogLikelihood(latentStatistics(y, z), beta, sigma, phi);
  assert.ok(Math.abs(target.logDensity(x) - target.logDensity(x2) - (joint(x) - joint(x2))) < 1e-10 * (1 + Math.abs(l0)));
  // dH/dx = -dL/dx (dG/dx = 0), the Christoffel drift is zero
  const out = new Float64Array(T);
  geo.hamiltonianGradient(x2, out);
  assert.deepEqual(Array.from(out), Array.from(grad, (v) => -v));
});
