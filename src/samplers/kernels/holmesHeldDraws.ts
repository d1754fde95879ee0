/**
 * The two non-standard draws of Holmes & Held's (2005) auxiliary-variable sampler for logistic
 * regression (Girolami & Calderhead 2011, Section 7.1.2):
 *
 * - a normal truncated to one side of 0, by inversion of the normal cdf as in Johnson & Albert
 *   (1999, Ordinal Data Modeling), the method Girolami & Calderhead cite;
 * - the mixing variance lambda of the logistic error eps ~ N(0, lambda), lambda = (2 psi)^2 with psi
 *   Kolmogorov-Smirnov distributed, given the residual r: Holmes & Held's Appendix A4, a
 *   rejection sampler with a GIG(1/2, 1, r^2) proposal whose acceptance test evaluates the
 *   mixing density by alternating series, stopped as soon as the partial sums settle the test
 *   ("squeezing").
 *
 * The mixing density of lambda (from the KS density of psi, two expansions):
 *   pi(lambda) = sum_{n>=1} (-1)^(n+1) n^2 exp(-n^2 lambda / 2)                          (right)
 *             = sqrt(2 pi) pi^2 lambda^(-5/2) sum_{m odd} (m^2 - lambda/pi^2) exp(-m^2 pi^2 / (2 lambda)) (left)
 * and the acceptance probability of a proposal lambda is rho(lambda) = pi(lambda) exp(lambda / 2) <= 1.
 */
import { normalCdf, normalQuantile } from "../../math/normal.js";
import type { RandomSource } from "../../random/types.js";

/**
 * A draw of N(mean, variance) truncated to (0, inf) when `positive`, else to (-inf, 0]: by
 * inversion, z = mean + sd Phi^-1(Phi(a) + u (1 - Phi(a))) with a = -mean / sd, written through the
 * smaller tail so that it keeps its precision (Phi^-1 here is accurate to a few ulp in the tails).
 * Beyond 37 sd, where Phi underflows, Robert's (1995) exponential rejection of the generator.
 */
export function truncatedNormalByInversion(rng: RandomSource, mean: number, variance: number, positive: boolean): number {
  const sd = Math.sqrt(variance);
  // standardised lower bound of the side kept, after reflecting the negative side onto the positive
  const m = positive ? mean : -mean;
  const a = -m / sd; // keep z > a (in standard units)
  const tail = normalCdf(-a); // P(Z > a)
  let z: number;
  if (tail < 1e-300) z = rng.truncatedNormal(a, Infinity);
  else {
    // Z > a: Z = -Phi^-1(u P(Z > a)), u ~ U(0, 1) (by symmetry of the normal)
    z = -normalQuantile(rng.uniform() * tail);
    if (!(z > a)) z = a; // the quantile's last ulp at u P(Z > a) ~ P(Z > a)
  }
  const x = m + sd * z;
  return positive ? x : -x;
}

/** rho(lambda) > u? by the right-hand alternating series (Holmes & Held A4, rightmost_interval; for lambda > 4/3). */
function acceptRight(u: number, lambda: number): boolean {
  let s = 1;
  const x = Math.exp(-0.5 * lambda);
  for (let n = 2; ; n += 2) {
    s -= n * n * Math.pow(x, n * n - 1);
    if (s > u) return true;
    const k = n + 1;
    s += k * k * Math.pow(x, k * k - 1);
    if (s < u) return false;
  }
}

/** rho(lambda) > u? by the left-hand expansion (Holmes & Held A4, leftmost_interval; for lambda <= 4/3), in logs. */
function acceptLeft(u: number, lambda: number): boolean {
  const h = 0.5 * Math.log(2) + 2.5 * Math.log(Math.PI) - 2.5 * Math.log(lambda) - (Math.PI * Math.PI) / (2 * lambda) + 0.5 * lambda;
  const logU = Math.log(u);
  let s = 1;
  const x = Math.exp((-Math.PI * Math.PI) / (2 * lambda));
  const k = lambda / (Math.PI * Math.PI);
  for (let m = 1; ; m += 2) {
    // the term of odd m split into its negative part (-k x^(m^2-1)) and the next one's positive part
    s -= k * Math.pow(x, m * m - 1);
    if (h + Math.log(s) > logU) return true;
    const next = m + 2;
    s += next * next * Math.pow(x, next * next - 1);
    if (h + Math.log(s) < logU) return false;
  }
}

/**
 * A draw from GIG(1/2, 1, r^2), density proportional to lambda^(-1/2) exp(-(r^2 / lambda + lambda) / 2):
 * 1 / lambda is inverse Gaussian with mean 1 / |r| and shape 1, drawn by Michael, Schucany & Haas
 * (1976) as in Holmes & Held's A4; at r = 0 it is chi-squared with one degree of freedom.
 */
export function gigHalf(rng: RandomSource, r: number): number {
  const rAbs = Math.abs(r);
  const w = rng.normal() ** 2;
  if (rAbs < 1e-12) return w;
  // y = 1 + (w - sqrt(w (4|r| + w))) / (2|r|) as Holmes & Held write it cancels to 0 (then lambda
  // = |r| / y is infinite) when |r| << w; the same number without the cancellation:
  const root = Math.sqrt(w * (4 * rAbs + w));
  const y = w === 0 ? 1 : (4 * rAbs * w) / ((w + root) * (w + root));
  return rng.uniform() <= 1 / (1 + y) ? rAbs / y : rAbs * y;
}

/**
 * lambda given the residual r = z - x'beta, from pi(lambda | r) proportional to
 * N(r; 0, lambda) pi(lambda) (Holmes & Held 2005, Appendix A4). `skipSqueeze` (a negative control
 * for tests) returns the GIG proposal without the acceptance test.
 */
export function logisticMixingVariance(rng: RandomSource, r: number, skipSqueeze = false): number {
  for (;;) {
    const lambda = gigHalf(rng, r);
    if (skipSqueeze) return lambda;
    const u = rng.uniform();
    if (lambda > 4 / 3 ? acceptRight(u, lambda) : acceptLeft(u, lambda)) return lambda;
  }
}
