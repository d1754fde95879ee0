import { assertLength } from "../linalg/matrix.js";
import { LikelihoodDataError } from "./types.js";
import { logPhi, logPhiDerivativesToOrder, normalPdfCdfRatio } from "../math/index.js";
import { LOG_SQRT_2PI } from "../math/normal.js";

/**
 * Normaliser, mean and variance of a tilted distribution
 * p_i(f) = N(f; m, v) t_i(f) / Z_i (Rasmussen & Williams, GPML eqs. 3.56-3.58: Z-hat_i,
 * mu-hat_i, sigma-hat_i^2).
 */
export interface TiltedMoments {
  logZ: number;
  mean: number;
  variance: number;
}

/**
 * The likelihood terms t_i(f_i) = p(y_i | f_i) as EP sees them: through the moments of the
 * tilted distributions N(f_i; m, v) t_i(f_i), given a cavity mean m and variance v. Pluggable,
 * so EP's machinery can be checked on sites whose answer is closed-form (`gaussianSites`).
 */
export interface EpSites {
  readonly name: string;
  /** Number of sites (data points). */
  readonly n: number;
  /** Writes log Z_i, the mean and the variance of N(f; m, v) t_i(f) / Z_i into out. */
  tilted(i: number, m: number, v: number, out: TiltedMoments): void;
  /**
   * Cumulants of orders 3..maxOrder of the same tilted distribution, written to
   * out[l - 3] for l = 3..maxOrder (the second-order correction to log Z_EP needs them).
   */
  tiltedCumulants?(i: number, m: number, v: number, maxOrder: number, out: Float64Array): void;
}

/**
 * Probit sites t_i(f) = Phi(y_i f), y_i in {-1, +1}. Moments in closed form (GPML eq. 3.58),
 * with z_i = y_i m / sqrt(1 + v):
 *   Z_i = Phi(z_i),
 *   mean = m + y_i v N(z_i) / (Phi(z_i) sqrt(1 + v)),
 *   variance = v - v^2 r_i (z_i + r_i) / (1 + v),  r_i = N(z_i)/Phi(z_i),
 * r_i from `normalPdfCdfRatio`, which stays accurate for very negative z_i. Cumulants of order
 * l >= 3: (v y_i / sqrt(1 + v))^l (d^l / dz^l) log Phi(z_i) (see `logPhiDerivativesToOrder`).
 */
export function probitSites(y: Float64Array): EpSites {
  for (let i = 0; i < y.length; i++) {
    if (y[i] !== 1 && y[i] !== -1) throw new LikelihoodDataError("probit", i, y[i], "-1 or +1");
  }
  const labels = Float64Array.from(y);
  let derivs = new Float64Array(0);
  return {
    name: "probit",
    n: labels.length,
    tilted(i, m, v, out) {
      const yi = labels[i];
      const s = Math.sqrt(1 + v);
      const z = (yi * m) / s;
      const r = normalPdfCdfRatio(z);
      out.logZ = logPhi(z);
      out.mean = m + (yi * v * r) / s;
      out.variance = v - (v * v * r * (z + r)) / (1 + v);
    },
    tiltedCumulants(i, m, v, maxOrder, out) {
      if (maxOrder < 3) return;
      if (out.length < maxOrder - 2) throw new Error(`probit cumulants: output has length ${out.length}, needs ${maxOrder - 2}`);
      if (derivs.length < maxOrder) derivs = new Float64Array(maxOrder);
      const yi = labels[i];
      const s = Math.sqrt(1 + v);
      logPhiDerivativesToOrder((yi * m) / s, maxOrder, derivs);
      const scale = (yi * v) / s;
      let p = scale * scale;
      for (let l = 3; l <= maxOrder; l++) {
        p *= scale;
        out[l - 3] = p * derivs[l - 1];
      }
    },
  };
}

/**
 * Gaussian sites t_i(f) = N(y_i; f, noiseVariance_i). EP is exact with them (one sweep gives
 * the GP regression posterior and log N(y; 0, K + diag(noise))); used to check EP's machinery.
 * Tilted moments: Z_i = N(y_i; m, v + s2), mean = m + v (y_i - m) / (v + s2),
 * variance = v s2 / (v + s2); cumulants of order >= 3 are zero.
 */
export function gaussianSites(y: Float64Array, noiseVariance: number | Float64Array): EpSites {
  const n = y.length;
  const noise = typeof noiseVariance === "number" ? new Float64Array(n).fill(noiseVariance) : Float64Array.from(noiseVariance);
  assertLength(noise, n, "noise variances");
  for (let i = 0; i < n; i++) {
    if (!(noise[i] > 0) || !Number.isFinite(noise[i])) throw new Error(`gaussianSites: noise variance ${i} must be positive and finite, got ${noise[i]}`);
    if (!Number.isFinite(y[i])) throw new LikelihoodDataError("gaussian", i, y[i], "a finite number");
  }
  const obs = Float64Array.from(y);
  return {
    name: "gaussian",
    n,
    tilted(i, m, v, out) {
      const s2 = noise[i];
      const total = v + s2;
      const d = obs[i] - m;
      out.logZ = -0.5 * (d * d) / total - 0.5 * Math.log(total) - LOG_SQRT_2PI;
      out.mean = m + (v * d) / total;
      out.variance = (v * s2) / total;
    },
    tiltedCumulants(_i, _m, _v, maxOrder, out) {
      if (maxOrder >= 3) out.fill(0, 0, maxOrder - 2);
    },
  };
}
