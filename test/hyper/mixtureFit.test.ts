/**
 * The Gaussian mixture fitted by EM (src/hyper/mixtureFit.ts), the pm scheme's proposal after
 * burn-in (src/hyper/fittedProposal.ts): checked against the mixtures the points were drawn from,
 * against a direct computation, and for being functions of their inputs alone.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fitGaussianMixture, logGaussian } from "../../src/hyper/mixtureFit.js";
import { fittedProposal } from "../../src/hyper/fittedProposal.js";
import { cholesky } from "../../src/linalg/cholesky.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";

/** count points from N(centre, diag(sd^2)). */
function cloud(rng: Rng, count: number, centre: number[], sd: number[]): Float64Array[] {
  return Array.from({ length: count }, () => Float64Array.from(centre, (c, i) => c + sd[i]! * rng.normal()));
}

const ridge = (m: number) => new Float64Array(m).fill(1e-8);

test("EM recovers two separated Gaussians (weights, means, sds within a few standard errors); one Gaussian is fitted by one component", () => {
  const rng = new Rng(3);
  const points = [...cloud(rng, 700, [0, 0, 0], [1, 0.5, 2]), ...cloud(rng, 300, [6, -4, 1], [0.5, 1, 1])];
  const fit = fitGaussianMixture(points, 3, points.length, ridge(3));
  assert.equal(fit.components.length, 2);
  const [a, b] = [...fit.components].sort((x, y) => x.centre[0]! - y.centre[0]!);
  assert.ok(Math.abs(a!.weight - 0.7) < 4 * Math.sqrt(0.21 / 1000), `weight ${a!.weight}`);
  for (const [c, centre, sd, count] of [[a!, [0, 0, 0], [1, 0.5, 2], 700], [b!, [6, -4, 1], [0.5, 1, 1], 300]] as const) {
    centre.forEach((v, i) => assert.ok(Math.abs(c.centre[i]! - v) < 4 * sd[i]! / Math.sqrt(count), `centre ${i}: ${c.centre[i]} against ${v}`));
    const cov = c.shape.factor;
    sd.forEach((s, i) => {
      let v = 0;
      for (let k = 0; k <= i; k++) v += cov.data[i + k * 3]! ** 2;
      assert.ok(Math.abs(Math.sqrt(v) - s) < 4 * s / Math.sqrt(2 * count), `sd ${i}: ${Math.sqrt(v)} against ${s}`);
    });
  }
  // one Gaussian: BIC keeps one component
  assert.equal(fitGaussianMixture(cloud(new Rng(4), 1000, [1, 2], [1, 3]), 3, 1000, ridge(2)).components.length, 1);
  // negative control: counted as 1000 times as many points, BIC no longer stops the split of one Gaussian into more
  assert.ok(fitGaussianMixture(cloud(new Rng(4), 1000, [1, 2], [1, 3]), 3, 1e6, ridge(2)).components.length > 1, "BIC's penalty does not depend on the count");
});

test("the mixture's log-likelihood is the sum of log sum_k w_k N(x; mu_k, Sigma_k), computed directly", () => {
  const rng = new Rng(5);
  const points = [...cloud(rng, 200, [0, 0], [1, 1]), ...cloud(rng, 200, [5, 5], [1, 2])];
  const fit = fitGaussianMixture(points, 2, points.length, ridge(2));
  let direct = 0;
  for (const x of points) {
    let s = 0;
    for (const c of fit.components) {
      const L = c.shape.factor.data;
      // the density by hand from the covariance L L'
      const s11 = L[0]! ** 2, s21 = L[1]! * L[0]!, s22 = L[1]! ** 2 + L[3]! ** 2;
      const det = s11 * s22 - s21 * s21;
      const dx = x[0]! - c.centre[0]!, dy = x[1]! - c.centre[1]!;
      const q = (s22 * dx * dx - 2 * s21 * dx * dy + s11 * dy * dy) / det;
      s += c.weight * Math.exp(-0.5 * q) / (2 * Math.PI * Math.sqrt(det));
      assert.ok(Math.abs(logGaussian(c, x) - (-0.5 * q - Math.log(2 * Math.PI * Math.sqrt(det)))) < 1e-10);
    }
    direct += Math.log(s);
  }
  // EM's log-likelihood is that of the parameters before its last M step, which converged
  assert.ok(Math.abs(fit.logLikelihood - direct) < 1e-4 * Math.abs(direct), `${fit.logLikelihood} against ${direct}`);
});

test("the fit, and the proposal after burn-in, are functions of the draws: the same draws give the same mixture, other draws another", () => {
  const draws = cloud(new Rng(6), 500, [0, 1], [1, 0.3]);
  const modes = [{ weight: 0.5, centre: Float64Array.from([0, 1]), shape: cholesky(new Matrix(2, 2, Float64Array.from([1, 0, 0, 1]))) }];
  const one = fittedProposal(draws, modes, 8)!, two = fittedProposal(draws.map((d) => d.slice()), modes, 8)!;
  assert.deepEqual(one.map((c) => [c.weight, Array.from(c.centre), Array.from(c.shape.factor.data)]), two.map((c) => [c.weight, Array.from(c.centre), Array.from(c.shape.factor.data)]));
  // the modes' components keep a tenth of the weight
  assert.ok(Math.abs(one.at(-1)!.weight - 0.1) < 1e-12);
  assert.ok(Math.abs(one.reduce((a, c) => a + c.weight, 0) - 1) < 1e-12);
  const other = fittedProposal(cloud(new Rng(7), 500, [0, 1], [1, 0.3]), modes, 8)!;
  assert.notDeepEqual(Array.from(other[0]!.centre), Array.from(one[0]!.centre));
  // too few draws: no fit
  assert.equal(fittedProposal(draws.slice(0, 30), modes, 8), undefined);
});

test("pm after burn-in: the random walk goes on exactly where the independence move's mean acceptance probability in burn-in's second half is below 0.4 (recomputed from the chain's own record)", async () => {
  const { jointChain } = await import("../../src/hyper/schemes.js");
  const { probit } = await import("../../src/likelihoods/probit.js");
  const { gridSpace } = await import("./hyperGrid.js");
  const seen = new Set<boolean>();
  const periodic = Array.from({ length: 30 }, (_, i) => i / 10);
  // the independence move's mean acceptance in burn-in's second half: 0.53 on the first, 0.37 on the second
  for (const [x, y, options] of [
    [[0, 0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4], [1, 1, 1, 1, -1, -1, -1, -1], { importanceSamples: 1, approximation: "laplace" as const }],
    [periodic, periodic.map((_, i) => (i % 7 < 3 ? 1 : -1)), { importanceSamples: 1 }],
  ] as const) {
    const chain = jointChain({ space: gridSpace([...x]), likelihood: probit, y: Float64Array.from(y) }, { scheme: "pm", ...options }, [0, 0]);
    const rng = new Rng(8);
    const accept: number[] = [];
    for (let i = 0; i < 200; i++) accept.push(chain.step(rng).theta[0]!.acceptanceProbability);
    chain.freeze();
    const half = accept.slice(100);
    const walks = half.reduce((a, v) => a + v, 0) / half.length < 0.4;
    seen.add(walks);
    for (let i = 0; i < 20; i++) assert.equal(chain.step(rng).theta.length, walks ? 2 : 1);
  }
  // the cases exercise both branches of the rule
  assert.equal(seen.size, 2, "every case took the same branch");
});
