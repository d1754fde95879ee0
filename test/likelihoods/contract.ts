/**
 * Checks any Likelihood meets its contract: derivatives against central finite differences,
 * expected Fisher information against exact summation over the support and against a Monte
 * Carlo average of the squared score under the likelihood's own sampler, and the sampler
 * against the distribution by a chi-square goodness-of-fit test. Each check returns a report
 * (so that negative controls can assert a failure) and assertReport turns it into a test
 * failure listing every violation.
 */
import assert from "node:assert/strict";
import type { Likelihood } from "../../src/likelihoods/types.js";
import type { RandomSource } from "../../src/random/types.js";
import { chiSquareTest, meanAndStandardError, type ChiSquareResult } from "./stats.js";

const EPS = 2.220446049250313e-16;

export interface Report {
  ok: boolean;
  failures: string[];
  /** Number of comparisons made (so a test can tell a check that compared nothing). */
  comparisons: number;
}

function report(): Report {
  return { ok: true, failures: [], comparisons: 0 };
}

function compare(r: Report, what: string, got: number, want: number, tol: number): void {
  r.comparisons++;
  if (!(Math.abs(got - want) <= tol)) {
    r.ok = false;
    r.failures.push(`${what}: got ${got}, want ${want} (|diff| ${Math.abs(got - want)} > tol ${tol})`);
  }
}

export function assertReport(r: Report, context = ""): void {
  assert.ok(r.comparisons > 0, `${context}: nothing was compared`);
  assert.ok(r.ok, `${context}\n  ${r.failures.slice(0, 12).join("\n  ")}${r.failures.length > 12 ? `\n  ... ${r.failures.length - 12} more` : ""}`);
}

/** One-point evaluation: log p(y | f) and its three derivatives. */
export function evalPoint(lik: Likelihood, y: number, f: number): { ll: number; sum: number; d1: number; d2: number; d3: number } {
  const yy = Float64Array.of(y);
  const ff = Float64Array.of(f);
  const d1 = new Float64Array(1), d2 = new Float64Array(1), d3 = new Float64Array(1);
  const sum = lik.derivatives(yy, ff, d1, d2, d3);
  return { ll: lik.logLikelihood(yy, ff), sum, d1: d1[0], d2: d2[0], d3: d3[0] };
}

export interface DerivativeCheckOptions {
  /** Finite-difference step; default 1e-5 times `scale`. */
  step?: number;
  /** The scale on which the likelihood varies in f (ordinal: sigma); default 1. */
  scale?: number;
  /** Relative tolerance on each derivative; default 1e-6. */
  rtol?: number;
  /** Rounding allowance in ulps of the differenced values; default 64. */
  ulps?: number;
}

/**
 * Central differences, each order from the analytic order below it (step h = 1e-5 * scale):
 *   d1 ~ (ll(f+h) - ll(f-h)) / 2h,  d2 ~ (d1(f+h) - d1(f-h)) / 2h,  d3 ~ (d2(f+h) - d2(f-h)) / 2h.
 * The truncation error is h^2/6 times the next derivative, 2e-11 relative for a likelihood
 * varying on the scale given; rounding contributes ulps * eps * |g| / h for the differenced g.
 * Tolerance: rtol * |analytic| + ulps * eps * (|g(f+h)| + |g(f-h)|) / 2h.
 * Also checks that derivatives() returns the same sum as logLikelihood() and that all values are finite.
 */
export function checkDerivatives(lik: Likelihood, points: ReadonlyArray<readonly [y: number, f: number]>, options: DerivativeCheckOptions = {}): Report {
  const r = report();
  const scale = options.scale ?? 1;
  const h = options.step ?? 1e-5 * scale;
  const rtol = options.rtol ?? 1e-6;
  const ulps = options.ulps ?? 64;
  for (const [y, f] of points) {
    const at = `${lik.name} y=${y} f=${f}`;
    const c = evalPoint(lik, y, f);
    for (const [k, v] of Object.entries(c)) {
      if (!Number.isFinite(v)) {
        r.ok = false;
        r.failures.push(`${at}: ${k} = ${v} is not finite`);
      }
    }
    compare(r, `${at}: derivatives() sum vs logLikelihood()`, c.sum, c.ll, 4 * EPS * Math.abs(c.ll));
    const fp = f + h, fm = f - h;
    const hh = fp - fm; // the step as represented
    const p = evalPoint(lik, y, fp), m = evalPoint(lik, y, fm);
    const floor = (a: number, b: number): number => (ulps * EPS * (Math.abs(a) + Math.abs(b))) / hh;
    compare(r, `${at}: d1 vs FD of log p`, c.d1, (p.ll - m.ll) / hh, rtol * Math.abs(c.d1) + floor(p.ll, m.ll));
    compare(r, `${at}: d2 vs FD of d1`, c.d2, (p.d1 - m.d1) / hh, rtol * Math.abs(c.d2) + floor(p.d1, m.d1));
    compare(r, `${at}: d3 vs FD of d2`, c.d3, (p.d2 - m.d2) / hh, rtol * Math.abs(c.d3) + floor(p.d2, m.d2));
  }
  return r;
}

/** Nodes y_j with base-measure weights w_j (1 for counts; quadrature weights for a density). */
export interface Support {
  y: Float64Array;
  weight: Float64Array;
}

export interface ExactFisherOptions {
  /** Tolerance on |sum_j p_j - 1|; default 1e-10. */
  normalisationTol?: number;
  /** Relative tolerance on E[d1^2] and -E[d2] against R, and on E[d1] against sqrt(R); default 1e-9. */
  rtol?: number;
}

/**
 * Exact expectations over y at latent f, with p_j = w_j exp(log p(y_j | f)):
 *   sum p_j = 1 (the density is normalised), E[d1] = 0 (score has mean zero),
 *   E[d1^2] = R and -E[d2] = R (the two forms of the expected Fisher information).
 */
export function checkFisherExact(lik: Likelihood, f: number, support: Support, options: ExactFisherOptions = {}): Report {
  const r = report();
  const normTol = options.normalisationTol ?? 1e-10;
  const rtol = options.rtol ?? 1e-9;
  const R = lik.fisherInformation(Float64Array.of(f), new Float64Array(1))[0];
  let mass = 0, e1 = 0, e11 = 0, e2 = 0, scoreScale = 0;
  for (let j = 0; j < support.y.length; j++) {
    const c = evalPoint(lik, support.y[j], f);
    const pj = support.weight[j] * Math.exp(c.ll);
    if (pj === 0) continue;
    mass += pj;
    e1 += pj * c.d1;
    e11 += pj * c.d1 * c.d1;
    e2 += pj * c.d2;
    scoreScale += pj * Math.abs(c.d1);
  }
  const at = `${lik.name} f=${f}`;
  compare(r, `${at}: sum_y p(y|f)`, mass, 1, normTol);
  compare(r, `${at}: E[d1]`, e1, 0, rtol * Math.max(Math.sqrt(R), scoreScale));
  compare(r, `${at}: E[d1^2] vs R`, e11, R, rtol * R);
  compare(r, `${at}: -E[d2] vs R`, -e2, R, rtol * R);
  return r;
}

export interface MonteCarloFisherOptions {
  draws?: number;
  /** Allowed deviation in standard errors; default 4.5. */
  z?: number;
}

/**
 * Draws y_1..y_M from the likelihood's own sampler at f and checks the averages of d1 (mean 0),
 * d1^2 (mean R) and -d2 (mean R) within z standard errors (plus 1e-12 R for a score that is
 * constant in y, where the standard error is 0).
 */
export function checkFisherMonteCarlo(lik: Likelihood, f: number, rng: RandomSource, options: MonteCarloFisherOptions = {}): Report {
  const r = report();
  const M = options.draws ?? 20000;
  const z = options.z ?? 4.5;
  const ff = new Float64Array(M).fill(f);
  const y = lik.sample(ff, rng, new Float64Array(M));
  const d1 = new Float64Array(M), d2 = new Float64Array(M);
  lik.derivatives(y, ff, d1, d2);
  const R = lik.fisherInformation(Float64Array.of(f), new Float64Array(1))[0];
  const s2 = d1.map((v) => v * v);
  const negd2 = d2.map((v) => -v);
  const at = `${lik.name} f=${f} (${M} draws)`;
  const a = meanAndStandardError(d1);
  compare(r, `${at}: mean score`, a.mean, 0, z * a.se + 1e-12 * Math.sqrt(R));
  const b = meanAndStandardError(s2);
  compare(r, `${at}: mean squared score vs R`, b.mean, R, z * b.se + 1e-12 * R);
  const c = meanAndStandardError(negd2);
  compare(r, `${at}: mean -d2 vs R`, c.mean, R, z * c.se + 1e-12 * R);
  return r;
}

export interface SamplerCheckOptions {
  draws?: number;
  /** The test fails below this p-value; default 1e-4. */
  minPValue?: number;
}

/** Bins for a goodness-of-fit test: probability of each bin and the bin of a draw. */
export interface Binning {
  probabilities: Float64Array;
  index(y: number): number;
}

/** Bins for a discrete likelihood from its own pmf on the given sorted nodes, plus an overflow bin. */
export function pmfBinning(lik: Likelihood, f: number, nodes: Float64Array): Binning {
  const probs = new Float64Array(nodes.length + 1);
  let mass = 0;
  for (let j = 0; j < nodes.length; j++) {
    probs[j] = Math.exp(evalPoint(lik, nodes[j], f).ll);
    mass += probs[j];
  }
  probs[nodes.length] = Math.max(0, 1 - mass);
  const where = new Map<number, number>();
  nodes.forEach((v, j) => where.set(v, j));
  return { probabilities: probs, index: (v) => where.get(v) ?? nodes.length };
}

/** Chi-square goodness of fit of the likelihood's sampler at f against the given binning. */
export function checkSampler(lik: Likelihood, f: number, rng: RandomSource, binning: Binning, options: SamplerCheckOptions = {}): Report & { test: ChiSquareResult } {
  const M = options.draws ?? 20000;
  const minP = options.minPValue ?? 1e-4;
  const y = lik.sample(new Float64Array(M).fill(f), rng, new Float64Array(M));
  const counts = new Float64Array(binning.probabilities.length);
  for (let i = 0; i < M; i++) counts[binning.index(y[i])]++;
  const t = chiSquareTest(counts, binning.probabilities);
  const r = { ...report(), test: t };
  r.comparisons++;
  if (!(t.pValue >= minP) || t.df < 1) {
    r.ok = false;
    r.failures.push(`${lik.name} f=${f}: chi-square ${t.statistic.toFixed(2)} on ${t.df} df, p = ${t.pValue.toExponential(3)} < ${minP}`);
  }
  return r;
}

/** A likelihood that delegates to `base` except for the methods given (for negative controls). */
export function override(base: Likelihood, parts: Partial<Likelihood>): Likelihood {
  return {
    name: parts.name ?? base.name,
    logLikelihood: parts.logLikelihood ?? ((y, f) => base.logLikelihood(y, f)),
    derivatives: parts.derivatives ?? ((y, f, d1, d2, d3) => base.derivatives(y, f, d1, d2, d3)),
    fisherInformation: parts.fisherInformation ?? ((f, out) => base.fisherInformation(f, out)),
    sample: parts.sample ?? ((f, rng, out) => base.sample(f, rng, out)),
    checkResponses: parts.checkResponses ?? ((y) => base.checkResponses(y)),
  };
}

/** Integer nodes lo..hi. */
export function integerNodes(lo: number, hi: number): Float64Array {
  const out = new Float64Array(hi - lo + 1);
  for (let j = 0; j < out.length; j++) out[j] = lo + j;
  return out;
}

/** Counting-measure support on integer nodes lo..hi. */
export function integerSupport(lo: number, hi: number): Support {
  const y = integerNodes(lo, hi);
  return { y, weight: new Float64Array(y.length).fill(1) };
}

/** Everything assertContract needs to check one likelihood. */
export interface ContractCase {
  likelihood: Likelihood;
  /** (y, f) pairs for the finite-difference checks; include extreme f. */
  derivativePoints: ReadonlyArray<readonly [y: number, f: number]>;
  derivativeOptions?: DerivativeCheckOptions;
  /** Latent values at which the Fisher information and the sampler are checked. */
  latent: readonly number[];
  /** Support at f for the exact Fisher check (finite or truncated; quadrature for densities). */
  support?: (f: number) => Support;
  exactFisherOptions?: ExactFisherOptions;
  /** Bins at f for the sampler test; default: the likelihood's pmf on the support nodes (discrete only). */
  binning?: (f: number) => Binning;
  /** Seeds the generator; each latent value gets its own stream. */
  seed: number;
  makeRng: (seed: number, stream: number) => RandomSource;
  draws?: number;
}

/** Runs every check of this file on one likelihood and fails the test on any violation. */
export function assertContract(c: ContractCase): void {
  const lik = c.likelihood;
  assertReport(checkDerivatives(lik, c.derivativePoints, c.derivativeOptions), `${lik.name}: derivatives`);
  c.latent.forEach((f, k) => {
    if (c.support) assertReport(checkFisherExact(lik, f, c.support(f), c.exactFisherOptions), `${lik.name}: exact Fisher at f=${f}`);
    assertReport(checkFisherMonteCarlo(lik, f, c.makeRng(c.seed, 2 * k), { draws: c.draws }), `${lik.name}: Monte Carlo Fisher at f=${f}`);
    const binning = c.binning?.(f) ?? (c.support ? pmfBinning(lik, f, c.support(f).y) : undefined);
    assert.ok(binning, `${lik.name}: no binning for the sampler test`);
    assertReport(checkSampler(lik, f, c.makeRng(c.seed, 2 * k + 1), binning, { draws: c.draws }), `${lik.name}: sampler at f=${f}`);
  });
}
