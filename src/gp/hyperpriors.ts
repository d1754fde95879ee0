/**
 * Priors on a positive kernel hyperparameter x (a lengthscale tau = exp(psi), or the signal
 * variance sigma), used on the log scale t = log x where the samplers move them. The density of
 * t includes the Jacobian of the log transform, |dx/dt| = exp(t):
 *
 *   log p_T(t) = log p_X(exp(t)) + t.
 *
 * Families (Filippone, Zhong & Girolami, Section 4.1: tau_r ~ Gamma(1, 1) and sigma ~
 * inverse-Gamma(1, 1), the latter conjugate to f | sigma, which makes the exact Gibbs step of
 * sigma in the SA scheme possible, their Appendix A):
 *
 *   gamma:a,b      p(x) = b^a x^(a-1) exp(-b x) / Gamma(a)       (shape a, rate b)
 *                  log p_T = a log b - lgamma(a) + a t - b e^t
 *   invgamma:a,b   p(x) = b^a x^(-a-1) exp(-b / x) / Gamma(a)    (shape a, scale b)
 *                  log p_T = a log b - lgamma(a) - a t - b e^-t
 *   lognormal:m,s  log x ~ N(m, s^2)
 *                  log p_T = -log s - log(2 pi) / 2 - (t - m)^2 / (2 s^2)
 *
 * Each gives the log density of t with its first and second derivatives (the negative second
 * derivative is the prior's part of a metric tensor for SMMALA on theta).
 */
import { logGamma } from "../math/logGamma.js";
import type { RandomSource } from "../random/types.js";

export type PositivePriorSpec =
  | { family: "gamma"; shape: number; rate: number }
  | { family: "invgamma"; shape: number; scale: number }
  | { family: "lognormal"; mu: number; sigma: number };

/** The value of log p_T(t) and its first two derivatives in t. */
export interface LogScaleDensity {
  value: number;
  gradient: number;
  hessian: number;
}

export interface PositivePrior {
  readonly spec: PositivePriorSpec;
  /** log p_X(x), the density of x itself (no Jacobian); -Infinity for x <= 0. */
  logDensity(x: number): number;
  /** log p_T(t) of t = log x (Jacobian included), with d/dt and d^2/dt^2. */
  logDensityOfLog(t: number): LogScaleDensity;
  /** A draw of x. */
  sample(rng: RandomSource): number;
  /** The spec as the command line writes it, e.g. "gamma:1,1". */
  toString(): string;
}

/** A prior spec that cannot be used: an unknown family, or parameters that are not positive. */
export class PriorSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PriorSpecError";
  }
}

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

function requirePositive(value: number, what: string): void {
  if (!(value > 0) || !Number.isFinite(value)) throw new PriorSpecError(`${what} must be a positive finite number, got ${value}`);
}

/** Checks the spec's parameters and returns the prior. */
export function positivePrior(spec: PositivePriorSpec): PositivePrior {
  switch (spec.family) {
    case "gamma":
      return gammaPrior(spec);
    case "invgamma":
      return inverseGammaPrior(spec);
    case "lognormal":
      return logNormalPrior(spec);
    default:
      throw new PriorSpecError(`unknown prior family "${(spec as { family: string }).family}" (known: gamma, invgamma, lognormal)`);
  }
}

function gammaPrior(spec: { family: "gamma"; shape: number; rate: number }): PositivePrior {
  const { shape: a, rate: b } = spec;
  requirePositive(a, "gamma shape");
  requirePositive(b, "gamma rate");
  const c = a * Math.log(b) - logGamma(a);
  return {
    spec,
    logDensity: (x) => (x > 0 ? c + (a - 1) * Math.log(x) - b * x : -Infinity),
    logDensityOfLog(t) {
      const bx = b * Math.exp(t);
      return { value: c + a * t - bx, gradient: a - bx, hessian: -bx };
    },
    sample: (rng) => rng.gamma(a) / b,
    toString: () => `gamma:${a},${b}`,
  };
}

/** If 1/x ~ Gamma(a, rate b) then x ~ inverse-Gamma(a, scale b), and log x = -log(1/x): p_T(t) = p_Gamma,T(-t). */
function inverseGammaPrior(spec: { family: "invgamma"; shape: number; scale: number }): PositivePrior {
  const { shape: a, scale: b } = spec;
  requirePositive(a, "invgamma shape");
  requirePositive(b, "invgamma scale");
  const reciprocal = gammaPrior({ family: "gamma", shape: a, rate: b });
  return {
    spec,
    logDensity: (x) => (x > 0 ? reciprocal.logDensity(1 / x) - 2 * Math.log(x) : -Infinity),
    logDensityOfLog(t) {
      const d = reciprocal.logDensityOfLog(-t);
      return { value: d.value, gradient: -d.gradient, hessian: d.hessian };
    },
    sample: (rng) => 1 / reciprocal.sample(rng),
    toString: () => `invgamma:${a},${b}`,
  };
}

function logNormalPrior(spec: { family: "lognormal"; mu: number; sigma: number }): PositivePrior {
  const { mu, sigma: s } = spec;
  if (!Number.isFinite(mu)) throw new PriorSpecError(`lognormal location must be finite, got ${mu}`);
  requirePositive(s, "lognormal scale");
  const c = -Math.log(s) - LOG_SQRT_2PI;
  const s2 = s * s;
  return {
    spec,
    logDensity: (x) => (x > 0 ? c - Math.log(x) - (Math.log(x) - mu) ** 2 / (2 * s2) : -Infinity),
    logDensityOfLog(t) {
      const d = t - mu;
      return { value: c - (d * d) / (2 * s2), gradient: -d / s2, hessian: -1 / s2 };
    },
    sample: (rng) => Math.exp(mu + s * rng.normal()),
    toString: () => `lognormal:${mu},${s}`,
  };
}

/**
 * Reads "family:p1,p2" (gamma:A,B with shape and rate; invgamma:A,B with shape and scale;
 * lognormal:M,S with the mean and sd of log x). `what` names the option in errors.
 */
export function parsePriorSpec(text: string, what: string): PositivePriorSpec {
  const m = /^\s*([a-z-]+)\s*:\s*([^,]+),([^,]+)$/i.exec(text);
  if (!m) throw new PriorSpecError(`${what}: "${text}" is not of the form family:p1,p2 (gamma:A,B, invgamma:A,B or lognormal:M,S)`);
  const family = m[1]!.toLowerCase();
  const p = [m[2]!, m[3]!].map((s) => {
    const v = Number(s.trim());
    if (s.trim() === "" || !Number.isFinite(v)) throw new PriorSpecError(`${what}: "${s.trim()}" in "${text}" is not a number`);
    return v;
  });
  let spec: PositivePriorSpec;
  if (family === "gamma") spec = { family, shape: p[0]!, rate: p[1]! };
  else if (family === "invgamma" || family === "inverse-gamma") spec = { family: "invgamma", shape: p[0]!, scale: p[1]! };
  else if (family === "lognormal" || family === "log-normal") spec = { family: "lognormal", mu: p[0]!, sigma: p[1]! };
  else throw new PriorSpecError(`${what}: unknown prior family "${m[1]}" (known: gamma, invgamma, lognormal)`);
  try {
    positivePrior(spec);
  } catch (e) {
    if (e instanceof PriorSpecError) throw new PriorSpecError(`${what}: ${e.message}`);
    throw e;
  }
  return spec;
}
