import { test } from "node:test";
import assert from "node:assert/strict";
import { LikelihoodDataError, LikelihoodOptionError, logNormalIntervalProbability, ordinalLikelihood } from "../../src/likelihoods/index.js";
import { logPhi, logSumExp, normalLogPdf, normalPdfCdfRatio } from "../../src/math/index.js";
import { Rng } from "../../src/random/index.js";
import type { Likelihood } from "../../src/likelihoods/types.js";
import { assertContract, assertReport, checkDerivatives, checkFisherExact, checkSampler, evalPoint, integerSupport, override, pmfBinning } from "./contract.js";

const makeRng = (seed: number, stream: number) => new Rng(seed, stream);
const SIGMA = 0.7;
const lik = ordinalLikelihood({ thresholds: [-1, 0.5, 2], noiseSd: SIGMA });
const support = () => integerSupport(1, 4);

function allPoints(r: number, fs: number[]): Array<[number, number]> {
  return fs.flatMap((f) => Array.from({ length: r }, (_, k) => [k + 1, f] as [number, number]));
}

test("ordinal: log p(y = k | f) against mpmath (80 digits, erfc on the tail side), all categories, f = -30..30", () => {
  const want: Record<number, number[]> = {
    [-30]: [0, -862.80675640672374155, -953.92856008658935612, -1049.6397865081454717],
    [-8]: [-7.6198530241604772504e-24, -53.231285150553554715, -77.146840125913438025, -105.62385627398395811],
    [0]: [-2.5696318717121299816, -0.37700737911196204084, -1.4465205083885708339, -6.1481805906284036695],
    [3]: [-19.017011870284459299, -8.6364600531705794779, -2.5719531512124472245, -0.07965348606574910247],
    [7]: [-68.668692424087853262, -46.270939717075955168, -28.413976873586948782, -4.5705308271944063422e-13],
    [30]: [-985.32235481679460105, -892.67077008832582779, -804.60844201375388974, 0],
  };
  const out = new Float64Array(4);
  for (const [fs, vals] of Object.entries(want)) {
    const f = Number(fs);
    lik.categoryLogProbabilities(f, out);
    for (let k = 0; k < 4; k++) {
      // 5e-14 relative: the rounding of z = (b - f)/sigma alone moves log p by |z| ulps.
      assert.ok(Math.abs(out[k] - vals[k]) <= 5e-14 * Math.abs(vals[k]), `log p(${k + 1} | ${f}) = ${out[k]}, want ${vals[k]}`);
      assert.ok(evalPoint(lik, k + 1, f).ll === out[k]);
    }
    assert.ok(Math.abs(logSumExp(out)) < 1e-15, `probabilities at f = ${f} sum to exp(${logSumExp(out)})`);
  }
});

test("ordinal: log p and its three derivatives against mpmath (100 digits) in tails, narrow intervals and the centre", () => {
  // [thresholds, sigma, y, f, [log p, d1, d2, d3]]: the far tails (|z| up to 1000), narrow intervals
  // (Gauss-Legendre branch), tail intervals with a finite far end (continued-fraction branch, both
  // sides) and central ones (direct branch).
  const cases: Array<[number[], number, number, number, number[]]> = [
  [[-1, 0.5, 2], 0.7, 4, -30, [-1049.6397865081454717, 65.337342613056185362, -2.0398425567076786689, 0.000060686763531830394212]],
  [[-1, 0.5, 2], 0.7, 1, 30, [-985.32235481679460105, -63.2975313746747512, -2.0397789138170776144, -0.000066726199088267698187]],
  [[-1, 0.5, 2], 0.7, 2, 30, [-892.67077008832582779, -60.237941871432809834, -2.0396710953668715892, -0.000077382050479520558928]],
  [[-1, 0.5, 2], 0.7, 3, -30, [-953.92856008658935612, 62.27765039470969752, -2.0397447292645037576, 0.000070047832119740375588]],
  [[-1, 0.5, 2], 0.7, 1, 7, [-68.668692424087853262, -16.449685949976662418, -2.0258666287508024709, -0.0035784553383735653365]],
  [[-1, 0.5, 2], 0.7, 4, -8, [-105.62385627398395811, 20.507206443239595793, -2.0310988966761972135, 0.001889149301782682139]],
  [[-1, 0.5, 2], 0.7, 2, 0.3, [-0.54333830797624666622, -0.76708590235808198354, -1.436992600697676512, -0.21574605055603776288]],
  [[-1, 0.5, 2], 0.7, 3, 1.9, [-0.62726887320884087874, -0.91190556576315365343, -1.4597923823168328456, -0.23924730172295188919]],
  [[-0.2, 0, 0.3, 1], 0.1, 4, -3, [-548.91636226973805005, 330.30247631156704569, -99.908674736196748764, 0.055046643742909383014]],
  [[-0.2, 0, 0.3, 1], 0.1, 2, -3, [-396.25241451163099172, 280.356237534690803, -99.8734148945564466, 0.089735213108102091306]],
  [[-0.2, 0, 0.3, 1], 0.1, 5, -3, [-804.60844201375369929, 400.24968847207259282, -99.93773316214085002, 0.031017440396486248297]],
  [[-0.2, 0, 0.3, 1], 0.1, 3, 0.2, [-0.20016629432446266199, -2.2963717909132905675, -48.023746078846609218, -120.86456858727350604]],
  [[-0.2, 0, 0.3, 1], 5, 2, 10, [-6.1778090255988440649, -0.40394614206563158786, -0.039994668691360257518, -3.445156119312400663e-10]],
  [[-0.2, 0, 0.3, 1], 5, 4, 10, [-4.6314654795072193803, -0.37339022771028406657, -0.039934932212657078751, -4.7543795870630409575e-8]],
  [[-0.2, 0, 0.3, 1], 5, 3, -15, [-8.3215726501854579339, 0.60581832184729111642, -0.039988021237919008555, 2.61017104269288684e-9]],
  [[30, 30.001], 1, 2, 0, [-457.8416564778847762, 30.000497499995918341, -0.99999991667041943495, 2.4998628566870575922e-13]],
  [[30, 30.001], 1, 2, 60, [-457.81165648038470196, -29.999497500079246699, -0.99999991667041918497, -2.4997795412173942647e-13]],
  [[3.5, 4.5], 1, 2, 0, [-8.38077855846701829, 3.7372669357192599432, -0.95645740979834904416, 0.011021938918166171443]],
  [[5, 5.3], 1, 2, 0, [-15.290635120858842319, 5.1129329378067525476, -0.99333276797090731445, 0.00028702423796501662374]],
  [[-4.5, -3.5], 1, 2, 0, [-8.38077855846701829, -3.7372669357192599432, -0.95645740979834904416, -0.011021938918166171443]],
  [[0], 1, 2, -1000.0, [-500007.82669481218431, 1000.00099999800001, -0.99999900000599995, 1.9999760002999958561e-9]],
  [[0], 1, 1, 1000.0, [-500007.82669481218431, -1000.00099999800001, -0.99999900000599995, -1.9999760002999958561e-9]],
  ];
  // Relative tolerances: 5e-14 on log p, 1e-14 on d1 and d2, 1e-12 on d3 (observed: at most
  // 1e-14, 2e-16, 6e-16 and 1.3e-13; the direct forms would miss d3 by 1e-5 at |z| = 30).
  for (const [thresholds, noiseSd, y, f, want] of cases) {
    const c = evalPoint(ordinalLikelihood({ thresholds, noiseSd }), y, f);
    const got = [c.ll, c.d1, c.d2, c.d3];
    const rtol = [5e-14, 1e-14, 1e-14, 1e-12];
    for (let j = 0; j < 4; j++) {
      assert.ok(Math.abs(got[j] - want[j]) <= rtol[j] * Math.abs(want[j]), `thresholds ${thresholds}, sigma ${noiseSd}, y ${y}, f ${f}: order ${j} gives ${got[j]}, want ${want[j]}`);
    }
  }
});

test("ordinal: narrow intervals far in a tail keep their digits (no 1 - tiny)", () => {
  // mpmath: log(Phi(-30) - Phi(-30.001)) = log(Phi(30.001) - Phi(30)) = -457.8416564778847762,
  // log(Phi(0.002) - Phi(-0.001)) = -6.7280820235185500817.
  const w = 30.001 - 30;
  assert.ok(Math.abs(logNormalIntervalProbability(30, 30.001, w) + 457.8416564778847762) < 1e-11);
  assert.ok(Math.abs(logNormalIntervalProbability(-30.001, -30, w) + 457.8416564778847762) < 1e-11);
  assert.ok(Math.abs(logNormalIntervalProbability(-0.001, 0.002, 0.003) + 6.7280820235185500817) < 1e-12);
});

test("ordinal (r = 4, sigma = 0.7): derivatives to third order, Fisher information and sampler meet the contract", () => {
  assertContract({
    likelihood: lik,
    derivativePoints: allPoints(4, [-30, -8, -3, -1, -0.2, 0.5, 1.2, 3, 7, 8, 30]),
    derivativeOptions: { scale: SIGMA },
    latent: [-3, -1, 0, 0.5, 1.7, 3.5],
    support,
    seed: 404,
    makeRng,
  });
});

test("ordinal: derivatives where the observed category has probability about 1e-30 and below", () => {
  // y = 1 at f = 7: log p = -68.7 (p = 1.5e-30); y = 4 at f = -8: p = 1e-46; y = 2 at f = 30: p = 1e-388.
  const tails: Array<[number, number]> = [[1, 7], [4, -8], [2, 30], [3, -30], [1, 30]];
  for (const [y, f] of tails) assert.ok(evalPoint(lik, y, f).ll < -68, `p(${y} | ${f}) is not in the tail`);
  assertReport(checkDerivatives(lik, tails, { scale: SIGMA }), "ordinal tails");
});

test("ordinal with other scales: small noise (sigma = 0.1, narrow middle intervals) and large noise (sigma = 5)", () => {
  const thresholds = [-0.2, 0, 0.3, 1];
  for (const noiseSd of [0.1, 5]) {
    const o = ordinalLikelihood({ thresholds, noiseSd });
    assertContract({
      likelihood: o,
      derivativePoints: allPoints(5, [-3, -0.5, -0.1, 0.15, 0.6, 2, 4].map((v) => v * Math.max(1, noiseSd))),
      derivativeOptions: { scale: noiseSd },
      latent: [-0.3, 0.1, 0.7].map((v) => v * Math.max(1, noiseSd)),
      support: () => integerSupport(1, 5),
      seed: 7,
      makeRng,
    });
  }
});

test("ordinal with r = 2, b_1 = 0, sigma = 1 is the probit likelihood: log Phi(f), N/Phi, -r (f + r)", () => {
  const probit = ordinalLikelihood({ thresholds: [0] });
  for (const f of [-40, -12, -3, -0.5, 0, 0.7, 4, 12]) {
    const c = evalPoint(probit, 2, f);
    const ratio = normalPdfCdfRatio(f);
    assert.ok(Math.abs(c.ll - logPhi(f)) <= 1e-14 * Math.max(1, Math.abs(c.ll)), `log p at ${f}`);
    assert.ok(Math.abs(c.d1 - ratio) <= 1e-13 * Math.abs(ratio), `d1 at ${f}: ${c.d1} vs ${ratio}`);
    const d2 = -ratio * (f + ratio);
    // -r (f + r) cancels for very negative f (relative error ~ 1e-16 f^2): 1e-12 * max(1, f^2).
    assert.ok(Math.abs(c.d2 - d2) <= 1e-12 * Math.max(1, f * f) * Math.abs(d2), `d2 at ${f}: ${c.d2} vs ${d2}`);
    // Fisher information N(f)^2 / (Phi(f) Phi(-f)), on the log scale.
    const R = Math.exp(2 * normalLogPdf(f) - logPhi(f) - logPhi(-f));
    const got = probit.fisherInformation(Float64Array.of(f), new Float64Array(1))[0];
    assert.ok(Math.abs(got - R) <= 1e-12 * R, `R at ${f}: ${got} vs ${R}`);
  }
});

test("negative control: Appendix B.4's Hessian as printed (first term's sign flipped) fails the finite-difference check", () => {
  // Printed: d2 = (z_s N(z_s) - z_{s-1} N(z_{s-1})) / (sigma^2 p) - d1^2 = -(m2/sigma^2) - d1^2 = -d2 - 2 d1^2.
  const printed = override(lik, {
    derivatives: (y, f, d1, d2, d3) => {
      const s = lik.derivatives(y, f, d1, d2, d3);
      for (let i = 0; i < d2.length; i++) d2[i] = -d2[i] - 2 * d1[i] * d1[i];
      return s;
    },
  });
  assertReport(checkDerivatives(lik, [[2, 0.3], [1, 1], [4, 0]], { scale: SIGMA }), "the correct Hessian");
  assert.equal(checkDerivatives(printed, [[2, 0.3], [1, 1], [4, 0]], { scale: SIGMA }).ok, false);
  // And a Fisher information computed with it is caught by the exact check.
  const wrongR = override(lik, {
    fisherInformation: (f, out) => {
      // -E[printed d2] = E[d2] + 2 E[d1^2] = -R + 2R = R would pass; use the common slip sum_k p_k'^2 without / p_k.
      for (let i = 0; i < f.length; i++) {
        const lp = lik.categoryLogProbabilities(f[i], new Float64Array(4));
        let s = 0;
        for (let k = 1; k <= 4; k++) s += Math.exp(lp[k - 1]) * evalPoint(lik, k, f[i]).d1 ** 2 * Math.exp(lp[k - 1]);
        out[i] = s;
      }
      return out;
    },
  });
  assert.equal(checkFisherExact(wrongR, 0.4, support()).ok, false);
});

test("negative control: a sampler with thresholds shifted by 0.1 sigma fails the goodness-of-fit test", () => {
  const shifted = ordinalLikelihood({ thresholds: [-1 + 0.07, 0.5 + 0.07, 2 + 0.07], noiseSd: SIGMA });
  const wrong: Likelihood = override(lik, { sample: (f, rng, out) => shifted.sample(f, rng, out) });
  const bins = pmfBinning(lik, 0.3, support().y);
  assertReport(checkSampler(lik, 0.3, new Rng(12), bins), "correct sampler");
  assert.equal(checkSampler(wrong, 0.3, new Rng(12), bins).ok, false);
});

test("ordinal: Fisher information stays finite and non-negative for extreme f", () => {
  const f = Float64Array.of(-1e4, -300, -40, 40, 300, 1e4);
  const R = lik.fisherInformation(f, new Float64Array(f.length));
  for (let i = 0; i < f.length; i++) assert.ok(Number.isFinite(R[i]) && R[i] >= 0 && R[i] < 1e-300, `R(${f[i]}) = ${R[i]}`);
});

test("ordinal: checkResponses wants 1-based categories 1..r and names the response", () => {
  lik.checkResponses(Float64Array.of(1, 2, 3, 4));
  for (const bad of [0, 5, 2.5, -1, NaN, Infinity]) {
    assert.throws(
      () => lik.checkResponses(Float64Array.of(1, 4, bad)),
      (e: unknown) => e instanceof LikelihoodDataError && e.index === 2 && e.message.includes(`response 3 is ${bad}`) && e.message.includes("1..4"),
    );
  }
  assert.throws(() => lik.logLikelihood(Float64Array.of(0), Float64Array.of(0)), RangeError);
});

test("ordinal: thresholds and noise sd are validated", () => {
  assert.throws(() => ordinalLikelihood({ thresholds: [] }), LikelihoodOptionError);
  assert.throws(() => ordinalLikelihood({ thresholds: [0, 0] }), (e: unknown) => e instanceof LikelihoodOptionError && e.option === "thresholds" && e.message.includes("increase"));
  assert.throws(() => ordinalLikelihood({ thresholds: [1, NaN] }), LikelihoodOptionError);
  assert.throws(() => ordinalLikelihood({ thresholds: [0, Infinity] }), LikelihoodOptionError);
  assert.throws(() => ordinalLikelihood({ thresholds: [0], noiseSd: 0 }), (e: unknown) => e instanceof LikelihoodOptionError && e.option === "noiseSd");
  assert.equal(ordinalLikelihood({ thresholds: [0, 1] }).noiseSd, 1);
  assert.equal(ordinalLikelihood({ thresholds: [0, 1] }).categories, 3);
});
