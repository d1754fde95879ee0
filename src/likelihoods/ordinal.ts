/**
 * Ordinal regression with a GP prior (ORD), Appendix B.4 of the comparison paper: thresholds
 * b_0 = -inf < b_1 < ... < b_{r-1} < b_r = +inf, latent noise delta ~ N(0, sigma^2), and
 *
 *   p(y_i = k | f_i) = Phi(z_k) - Phi(z_{k-1}),  z_s = (b_s - f_i) / sigma,
 *
 * where y_i = k in {1, ..., r} is the 1-based index of the interval (b_{k-1}, b_k] that
 * f_i + delta falls in (B.4's convention).
 *
 * Derivatives. With a = z_{k-1}, b = z_k, N the standard normal density and dz/df = -1/sigma:
 *   p'   = (N(a) - N(b)) / sigma
 *   p''  = (a N(a) - b N(b)) / sigma^2
 *   p''' = ((a^2 - 1) N(a) - (b^2 - 1) N(b)) / sigma^3
 * so with rho_a = N(a)/p, rho_b = N(b)/p (0 at an infinite end) and
 *   m1 = rho_a - rho_b,  m2 = a rho_a - b rho_b,  m3 = (a^2 - 1) rho_a - (b^2 - 1) rho_b:
 *   d log p / df = m1 / sigma                           (B.4's gradient)
 *   d2           = (m2 - m1^2) / sigma^2
 *   d3           = (m3 - 3 m1 m2 + 2 m1^3) / sigma^3
 * B.4's printed Hessian has the first term as (z_s N(z_s) - z_{s-1} N(z_{s-1})) / (sigma^2 p),
 * the opposite sign to m2 above (the text is PDF-extracted); m2 is the derivative of B.4's own
 * gradient, it reduces to the probit's -r (u + r) for r = 2, and the finite-difference tests
 * confirm it.
 *
 * Expected Fisher information (B.4's R_ii = -sum_s p_s Hessian^(s)): since sum_s p_s'' = 0,
 *   R_ii = sum_s (p_s')^2 / p_s = sum_s p_s m1_s^2 / sigma^2,
 * a sum of non-negative terms, each formed as exp(log p_s) m1_s^2 so nothing is subtracted.
 *
 * Stability of log p. It is never formed as log(Phi(b) - Phi(a)) with both near 1, nor as
 * 1 - tiny: for an interval above the mode (a >= 0) it is log Phi(-a) + log(1 - Phi(-b)/Phi(-a)),
 * below it (b <= 0) log Phi(b) + log(1 - Phi(a)/Phi(b)), and the log-ratio of the two tail
 * probabilities is written through Mills' ratio R as -(b - a)(b + a)/2 + log(R(b)/R(a)), so a
 * narrow interval far in a tail keeps its digits. Only an interval that straddles the mode
 * subtracts (p = 1 - Phi(a) - Phi(-b)), with relative error about 1e-16 / p, negligible unless
 * the interval is far narrower than sigma.
 *
 * Stability of the derivatives. m1, m2, m3 are moments of X ~ N(0, 1) truncated to (a, b):
 * m1 = E[X], m2 - m1^2 = Var X - 1, m3 - 3 m1 m2 + 2 m1^3 = kappa_3(X). Formed from rho_a and
 * rho_b they cancel badly in a tail (the terms grow like |z|^3 while kappa_3 ~ 2/|z|^3, and
 * rho carries the relative error 1e-16 |log p|): at |z| = 30 the third derivative would keep
 * only about 5 digits; and for a narrow interval rho_a and rho_b are both about 1/w and
 * nearly cancel. So the moments are taken about the interval's end a instead, where they are
 * small and well conditioned: with u = X - a, density proportional to exp(-a u - u^2/2) on
 * (0, w), w = b - a,
 *   - for a narrow interval, (|a| + w) w <= 2, by 16-point Gauss-Legendre quadrature on (0, w),
 *     central moments formed in a second pass;
 *   - for an interval beyond z = 3 (a >= 3; below z = -3 by reflection) from
 *     J_n(x) = int_0^inf u^n exp(-x u - u^2/2) du = n! K_0(x) ... K_n(x), where
 *     K_j(x) = 1 / (x + (j + 1) K_{j+1}(x)) are the tails of Laplace's continued fraction for
 *     Mills' ratio (K_0 = R), and E[u^n] = I_n / I_0 with
 *     I_n = J_n(a) - E sum_k C(n,k) w^(n-k) J_k(b), E = exp(-w (a + b)/2), for a finite far end b.
 * Elsewhere (|z| < 3 at the dominant end) the direct forms lose at most about 3^6 ulps.
 */
import { millsRatio, normalLogPdf, normalPdf } from "../math/index.js";
import type { PointwiseLikelihood } from "./pointwise.js";
import { LikelihoodOptionError } from "./options.js";
import { assertLengths } from "./shape.js";
import { LikelihoodDataError } from "./types.js";

const NAME = "ordinal";

/** log(1 - exp(x)) for x < 0 (Maechler's split at -log 2). */
function log1mExp(x: number): number {
  return x > -Math.LN2 ? Math.log(-Math.expm1(x)) : Math.log1p(-Math.exp(x));
}

/** Beyond this |z| at its near end, an interval's moments are taken about that end. */
const TAIL = 3;

// 16-point Gauss-Legendre rule on [-1, 1] (symmetric: nodes +-x_i, weights w_i).
const GL_NODES = [0.09501250983763744, 0.2816035507792589, 0.45801677765722737, 0.6178762444026438, 0.755404408355003, 0.8656312023878318, 0.9445750230732326, 0.9894009349916499];
const GL_WEIGHTS = [0.18945061045506864, 0.18260341504492364, 0.16915651939500265, 0.1495959888165767, 0.12462897125553407, 0.0951585116824926, 0.062253523938647456, 0.027152459411754176];

/**
 * K_0(x) .. K_3(x) for x > 0, the tails of Laplace's continued fraction for Mills' ratio:
 * K_j = 1 / (x + (j + 1) K_{j+1}); K_3 by the modified Lentz method, the rest backwards.
 */
function millsTails(x: number, out: Float64Array): void {
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 4; k < 10000; k++) {
    d = x + k * d;
    if (d === 0) d = tiny;
    c = x + k / c;
    if (c === 0) c = tiny;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  out[3] = 1 / f;
  out[2] = 1 / (x + 3 * out[3]);
  out[1] = 1 / (x + 2 * out[2]);
  out[0] = 1 / (x + out[1]);
}

const kNear = new Float64Array(4);
const kFar = new Float64Array(4);

/**
 * For X ~ N(0, 1) truncated to a narrow interval (a, a + w), (|a| + w) w <= 2: writes E[X] - a,
 * Var X and kappa_3(X) into out[0..2], by 16-point Gauss-Legendre quadrature of the density
 * proportional to exp(-a u - u^2/2) on u in (0, w) (its derivatives grow like (|a| + w)^n, so
 * the rule's error is below (2^32 / 32!) relative), central moments in a second pass.
 */
function narrowIntervalMoments(a: number, w: number, out: Float64Array): Float64Array {
  const h = w / 2;
  let s0 = 0, s1 = 0;
  for (let i = 0; i < 16; i++) {
    const u = h * (1 + (i < 8 ? -GL_NODES[i] : GL_NODES[i - 8]));
    const g = GL_WEIGHTS[i & 7] * Math.exp(-u * (a + u / 2));
    s0 += g;
    s1 += g * u;
  }
  const mean = s1 / s0;
  let c2 = 0, c3 = 0;
  for (let i = 0; i < 16; i++) {
    const u = h * (1 + (i < 8 ? -GL_NODES[i] : GL_NODES[i - 8]));
    const g = GL_WEIGHTS[i & 7] * Math.exp(-u * (a + u / 2));
    const v = u - mean;
    c2 += g * v * v;
    c3 += g * v * v * v;
  }
  out[0] = mean;
  out[1] = c2 / s0;
  out[2] = c3 / s0;
  return out;
}

/**
 * For X ~ N(0, 1) truncated to (a, a + w) with a >= 3 (w may be infinite), given the
 * continued-fraction tails kA = K_0..K_3 at a and kB at b = a + w (unused when w is infinite):
 * writes E[X] - a, Var X and kappa_3(X) into out[0..2] without the cancellation of the direct
 * forms (see the head of this file).
 */
function upperTailMoments(a: number, w: number, kA: Float64Array, kB: Float64Array, out: Float64Array): Float64Array {
  // Raw moments about a of the one-sided truncation (a, inf): E[u^n] = n! K_1 ... K_n.
  let e1 = kA[1];
  let e2 = 2 * kA[1] * kA[2];
  let e3 = 6 * kA[1] * kA[2] * kA[3];
  if (w !== Infinity) {
    const b = a + w;
    // q = Phi(-b) / Phi(-a); the part of (a, inf) beyond b, shifted by w, is (b, inf).
    const logq = -0.5 * w * (a + b) + Math.log(kB[0] / kA[0]);
    const q = Math.exp(logq);
    if (q > 0) {
      const keep = -Math.expm1(logq);
      const b1 = kB[1], b2 = 2 * kB[1] * kB[2], b3 = 6 * kB[1] * kB[2] * kB[3];
      e1 = (e1 - q * (w + b1)) / keep;
      e2 = (e2 - q * (w * w + 2 * w * b1 + b2)) / keep;
      e3 = (e3 - q * (w * w * w + 3 * w * w * b1 + 3 * w * b2 + b3)) / keep;
    }
  }
  out[0] = e1;
  out[1] = e2 - e1 * e1;
  out[2] = e3 - 3 * e1 * e2 + 2 * e1 * e1 * e1;
  return out;
}

/**
 * log(Phi(b) - Phi(a)) for a < b (either may be infinite), given w = b - a computed from the
 * thresholds directly, and Mills' ratios Ra = R(|a|), Rb = R(|b|) (ignored at an infinite end),
 * so that Phi(-|z|) = N(z) R(|z|).
 */
function logIntervalFromMills(a: number, b: number, w: number, Ra: number, Rb: number): number {
  if (a === -Infinity) return b <= 0 ? normalLogPdf(b) + Math.log(Rb) : Math.log1p(-normalPdf(b) * Rb);
  if (b === Infinity) return a >= 0 ? normalLogPdf(a) + Math.log(Ra) : Math.log1p(-normalPdf(a) * Ra);
  // log Phi(-b) - log Phi(-a) = -(b^2 - a^2)/2 + log(R(b) / R(a))
  if (a >= 0) return normalLogPdf(a) + Math.log(Ra) + log1mExp(-0.5 * w * (a + b) + Math.log(Rb / Ra));
  // log Phi(a) - log Phi(b) = (b^2 - a^2)/2 + log(R(-a) / R(-b))
  if (b <= 0) return normalLogPdf(b) + Math.log(Rb) + log1mExp(0.5 * w * (a + b) + Math.log(Ra / Rb));
  return Math.log1p(-(normalPdf(a) * Ra + normalPdf(b) * Rb));
}

const mills = (z: number): number => (Number.isFinite(z) ? millsRatio(Math.abs(z)) : NaN);

/**
 * log(Phi(b) - Phi(a)) for a < b (either may be infinite), given w = b - a computed from the
 * thresholds directly (not by subtracting a from b).
 */
export function logNormalIntervalProbability(a: number, b: number, w: number): number {
  return logIntervalFromMills(a, b, w, mills(a), mills(b));
}

export interface OrdinalOptions {
  /** The finite thresholds b_1 < ... < b_{r-1}; r = thresholds.length + 1 categories (at least 2). */
  thresholds: ArrayLike<number>;
  /** sigma_delta > 0, the sd of the latent noise (default 1). */
  noiseSd?: number;
}

/** The ordinal probit likelihood, with what predictions read of it. */
export type OrdinalLikelihood = ReturnType<typeof ordinalLikelihood>;

/** The ordinal probit likelihood with responses y in {1, ..., r} (1-based interval index). */
export function ordinalLikelihood(options: OrdinalOptions): PointwiseLikelihood & {
  readonly categories: number;
  readonly thresholds: Float64Array;
  readonly noiseSd: number;
  /** log p(y = k | f) for k = 1..r, written to out[k - 1]. */
  categoryLogProbabilities(f: number, out: Float64Array): Float64Array;
} {
  const given = options.thresholds;
  if (given === undefined || given.length < 1) throw new LikelihoodOptionError("thresholds", "ordinal needs at least one threshold (r >= 2 categories)");
  const thr = Float64Array.from(given);
  for (let j = 0; j < thr.length; j++) {
    if (!Number.isFinite(thr[j])) throw new LikelihoodOptionError("thresholds", `threshold ${j + 1} is ${thr[j]}, expected a finite number`);
    if (j > 0 && !(thr[j] > thr[j - 1])) throw new LikelihoodOptionError("thresholds", `thresholds must increase strictly, but b_${j} = ${thr[j - 1]} and b_${j + 1} = ${thr[j]}`);
  }
  const sigma = options.noiseSd ?? 1;
  if (!(sigma > 0) || !Number.isFinite(sigma)) throw new LikelihoodOptionError("noiseSd", `must be a positive finite number, got ${sigma}`);
  const r = thr.length + 1;
  // bound(s) = b_s for s = 0..r with b_0 = -inf, b_r = +inf.
  const bound = (s: number): number => (s === 0 ? -Infinity : s === r ? Infinity : thr[s - 1]);
  // Interval widths in z units, (b_k - b_{k-1}) / sigma (infinite at the ends).
  const width = new Float64Array(r + 1);
  for (let k = 1; k <= r; k++) width[k] = (bound(k) - bound(k - 1)) / sigma;

  // Per-point results of `terms`: log p, E[X], Var X - 1 and kappa_3(X) for X ~ N(0, 1)
  // truncated to the category's interval in z units; then d1 = E[X]/sigma,
  // d2 = (Var X - 1)/sigma^2, d3 = kappa_3/sigma^3.
  let logp = 0, mean = 0, varm1 = 0, k3 = 0;
  const tail = new Float64Array(3);
  const z = new Float64Array(r + 1);
  const zMills = new Float64Array(r + 1);
  /** Fills logp, mean, varm1 (and k3 when `third`) for category k at latent f. */
  const terms = (k: number, f: number, third: boolean): void => {
    const a = (bound(k - 1) - f) / sigma;
    const b = (bound(k) - f) / sigma;
    const w = width[k];
    if ((Math.abs(a) + w) * w <= 2) {
      logp = logIntervalFromMills(a, b, w, mills(a), mills(b));
      narrowIntervalMoments(a, w, tail);
      mean = a + tail[0];
      varm1 = tail[1] - 1;
      k3 = tail[2];
      return;
    }
    if (a >= TAIL) {
      // K_0 is Mills' ratio: the same continued fractions give log p.
      millsTails(a, kNear);
      if (b !== Infinity) millsTails(b, kFar);
      logp = logIntervalFromMills(a, b, w, kNear[0], kFar[0]);
      upperTailMoments(a, w, kNear, kFar, tail);
      mean = a + tail[0];
      varm1 = tail[1] - 1;
      k3 = tail[2];
      return;
    }
    if (b <= -TAIL) {
      // X = -X', X' truncated to (-b, -a).
      millsTails(-b, kNear);
      if (a !== -Infinity) millsTails(-a, kFar);
      logp = logIntervalFromMills(a, b, w, kFar[0], kNear[0]);
      upperTailMoments(-b, w, kNear, kFar, tail);
      mean = b - tail[0];
      varm1 = tail[1] - 1;
      k3 = -tail[2];
      return;
    }
    logp = logIntervalFromMills(a, b, w, mills(a), mills(b));
    // An infinite end contributes nothing (N(+-inf) = 0 beats any power of z).
    const aFinite = k > 1, bFinite = k < r;
    const ra = aFinite ? Math.exp(normalLogPdf(a) - logp) : 0;
    const rb = bFinite ? Math.exp(normalLogPdf(b) - logp) : 0;
    const ara = aFinite ? a * ra : 0;
    const brb = bFinite ? b * rb : 0;
    const m1 = ra - rb;
    const m2 = ara - brb;
    mean = m1;
    varm1 = m2 - m1 * m1;
    if (third) {
      const m3 = (aFinite ? a * ara - ra : 0) - (bFinite ? b * brb - rb : 0);
      k3 = m3 - 3 * m1 * m2 + 2 * m1 * m1 * m1;
    }
  };
  const category = (yi: number): number => {
    if (!(yi >= 1 && yi <= r && Number.isInteger(yi))) throw new RangeError(`${NAME} likelihood: response ${yi} is not a category in 1..${r}`);
    return yi;
  };

  return {
    name: NAME,
    categories: r,
    thresholds: thr,
    noiseSd: sigma,

    categoryLogProbabilities(f, out) {
      if (out.length !== r) throw new RangeError(`${NAME} likelihood categoryLogProbabilities: out has length ${out.length}, expected ${r}`);
      for (let k = 1; k <= r; k++) {
        const a = (bound(k - 1) - f) / sigma;
        const b = (bound(k) - f) / sigma;
        out[k - 1] = logNormalIntervalProbability(a, b, width[k]);
      }
      return out;
    },

    logLikelihood(y, f) {
      assertLengths(NAME, "logLikelihood", { y, f });
      let sum = 0;
      for (let i = 0; i < f.length; i++) {
        const k = category(y[i]);
        sum += logNormalIntervalProbability((bound(k - 1) - f[i]) / sigma, (bound(k) - f[i]) / sigma, width[k]);
      }
      return sum;
    },

    logLikelihoodPoints(y, f, out) {
      assertLengths(NAME, "logLikelihoodPoints", { y, f, out });
      for (let i = 0; i < f.length; i++) {
        const k = category(y[i]);
        out[i] = logNormalIntervalProbability((bound(k - 1) - f[i]) / sigma, (bound(k) - f[i]) / sigma, width[k]);
      }
      return out;
    },

    derivatives(y, f, d1, d2, d3) {
      assertLengths(NAME, "derivatives", { y, f, d1, d2, d3 });
      let sum = 0;
      const third = d3 !== undefined;
      for (let i = 0; i < f.length; i++) {
        terms(category(y[i]), f[i], third);
        sum += logp;
        d1[i] = mean / sigma;
        d2[i] = varm1 / (sigma * sigma);
        if (d3) d3[i] = k3 / (sigma * sigma * sigma);
      }
      return sum;
    },

    fisherInformation(f, out) {
      assertLengths(NAME, "fisherInformation", { f, out });
      for (let i = 0; i < f.length; i++) {
        // z_s and R(|z_s|) once per threshold; each serves the two categories it separates.
        for (let s = 0; s <= r; s++) {
          z[s] = (bound(s) - f[i]) / sigma;
          zMills[s] = mills(z[s]);
        }
        let sum = 0;
        for (let k = 1; k <= r; k++) {
          const lp = logIntervalFromMills(z[k - 1], z[k], width[k], zMills[k - 1], zMills[k]);
          if (lp === -Infinity) continue;
          const ra = k > 1 ? Math.exp(normalLogPdf(z[k - 1]) - lp) : 0;
          const rb = k < r ? Math.exp(normalLogPdf(z[k]) - lp) : 0;
          sum += Math.exp(lp) * (ra - rb) * (ra - rb);
        }
        out[i] = sum / (sigma * sigma);
      }
      return out;
    },

    sample(f, rng, out) {
      assertLengths(NAME, "sample", { f, out });
      for (let i = 0; i < f.length; i++) {
        const x = f[i] + sigma * rng.normal();
        // y = 1 + #{j : b_j < x}, i.e. b_{y-1} < x <= b_y, by bisection.
        let lo = 0, hi = thr.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (thr[mid] < x) lo = mid + 1;
          else hi = mid;
        }
        out[i] = lo + 1;
      }
      return out;
    },

    checkResponses(y) {
      for (let i = 0; i < y.length; i++) {
        const v = y[i];
        if (!Number.isInteger(v) || v < 1 || v > r) throw new LikelihoodDataError(NAME, i, v, `an integer category in 1..${r} (1-based interval index)`);
      }
    },
  };
}
