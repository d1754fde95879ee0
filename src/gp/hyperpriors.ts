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
 *   halfnormal:s   p(x) = 2 N(x; 0, s^2), x > 0 (Stan's normal(0, s) on a positive parameter)
 *                  log p_T = log 2 - log s - log(2 pi) / 2 + t - e^2t / (2 s^2)
 *   halft:nu,s     p(x) = 2 t_nu(x / s) / s, x > 0 (Stan's student_t(nu, 0, s); nu = 1 is the half-Cauchy)
 *                  log p_T = log 2 + lgamma((nu + 1)/2) - lgamma(nu/2) - log(nu pi)/2 - log s + t
 *                            - (nu + 1)/2 log(1 + e^2t / (nu s^2))
 *
 * A prior on the signal sd s (`on: "sd"`) where the sampled quantity is the variance x = s^2: with
 * u = log s = t / 2, log p_T(t) = log p_U(t / 2) - log 2, and the derivatives in t are 1/2 and 1/4
 * of those in u.
 *
 * Each gives the log density of t with its first and second derivatives (the negative second
 * derivative is the prior's part of a metric tensor for SMMALA on theta).
 */
import { logGamma } from "../math/logGamma.js";
import type { RandomSource } from "../random/types.js";

/**
 * A prior's family and parameters; `on: "sd"` puts it on the square root of the hyperparameter
 * (the signal sd s, where the model's hyperparameter is the signal variance sigma = s^2).
 */
export type PositivePriorSpec = (
  | { family: "gamma"; shape: number; rate: number }
  | { family: "invgamma"; shape: number; scale: number }
  | { family: "lognormal"; mu: number; sigma: number }
  | { family: "halfnormal"; scale: number }
  | { family: "halft"; nu: number; scale: number }
) & { on?: "sd" };

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
  if (spec.on === "sd") return onSquareRoot(spec, familyPrior({ ...spec, on: undefined }));
  if (spec.on !== undefined) throw new PriorSpecError(`a prior is on the hyperparameter itself or on its square root ("sd"), not on "${String(spec.on)}"`);
  return familyPrior(spec);
}

/** The prior of x = y^2 where y has the prior `p` (the variance from a prior on the sd). */
function onSquareRoot(spec: PositivePriorSpec, p: PositivePrior): PositivePrior {
  const LOG2 = Math.log(2);
  const ofLog = (t: number): LogScaleDensity => {
    const d = p.logDensityOfLog(t / 2);
    return { value: d.value - LOG2, gradient: d.gradient / 2, hessian: d.hessian / 4 };
  };
  return {
    spec,
    logDensity: (x) => (x > 0 ? ofLog(Math.log(x)).value - Math.log(x) : -Infinity),
    logDensityOfLog: ofLog,
    sample: (rng) => p.sample(rng) ** 2,
    toString: () => `${p.toString()} on the sd`,
  };
}

function familyPrior(spec: PositivePriorSpec): PositivePrior {
  switch (spec.family) {
    case "gamma":
      return gammaPrior(spec);
    case "invgamma":
      return inverseGammaPrior(spec);
    case "lognormal":
      return logNormalPrior(spec);
    case "halfnormal":
      return halfNormalPrior(spec);
    case "halft":
      return halfTPrior(spec);
    default:
      throw new PriorSpecError(`unknown prior family "${(spec as { family: string }).family}" (known: ${FAMILIES})`);
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

function halfNormalPrior(spec: { family: "halfnormal"; scale: number }): PositivePrior {
  const { scale: s } = spec;
  requirePositive(s, "halfnormal scale");
  const c = Math.log(2) - Math.log(s) - LOG_SQRT_2PI;
  const s2 = s * s;
  return {
    spec,
    logDensity: (x) => (x > 0 ? c - (x * x) / (2 * s2) : -Infinity),
    logDensityOfLog(t) {
      const e = Math.exp(2 * t) / s2;
      return { value: c + t - e / 2, gradient: 1 - e, hessian: -2 * e };
    },
    sample: (rng) => Math.abs(s * rng.normal()),
    toString: () => `halfnormal:${s}`,
  };
}

function halfTPrior(spec: { family: "halft"; nu: number; scale: number }): PositivePrior {
  const { nu, scale: s } = spec;
  requirePositive(nu, "halft degrees of freedom");
  requirePositive(s, "halft scale");
  const c = Math.log(2) + logGamma((nu + 1) / 2) - logGamma(nu / 2) - 0.5 * Math.log(nu * Math.PI) - Math.log(s);
  return {
    spec,
    logDensity: (x) => (x > 0 ? c - ((nu + 1) / 2) * Math.log1p((x * x) / (nu * s * s)) : -Infinity),
    logDensityOfLog(t) {
      const r = Math.exp(2 * t) / (nu * s * s);
      return { value: c + t - ((nu + 1) / 2) * Math.log1p(r), gradient: 1 - ((nu + 1) * r) / (1 + r), hessian: (-2 * (nu + 1) * r) / (1 + r) ** 2 };
    },
    sample: (rng) => Math.abs(s * rng.studentT(nu)),
    toString: () => `halft:${nu},${s}`,
  };
}

const FAMILIES = "gamma:A,B, invgamma:A,B, lognormal:M,S, halfnormal:S or halft:NU,S";

/**
 * Reads "family:p1,p2" (gamma:A,B with shape and rate; invgamma:A,B with shape and scale;
 * lognormal:M,S with the mean and sd of log x). `what` names the option in errors.
 */
export function parsePriorSpec(text: string, what: string): PositivePriorSpec {
  const m = /^\s*([a-z-]+)\s*:\s*([^,]+)(?:,([^,]+))?$/i.exec(text);
  if (!m) throw new PriorSpecError(`${what}: "${text}" is not of the form family:p1,p2 (${FAMILIES})`);
  const family = m[1]!.toLowerCase();
  const p = [m[2]!, m[3]].filter((v): v is string => v !== undefined).map((s) => {
    const v = Number(s.trim());
    if (s.trim() === "" || !Number.isFinite(v)) throw new PriorSpecError(`${what}: "${s.trim()}" in "${text}" is not a number`);
    return v;
  });
  const count = family === "halfnormal" || family === "half-normal" ? 1 : 2;
  const known = ["gamma", "invgamma", "inverse-gamma", "lognormal", "log-normal", "halfnormal", "half-normal", "halft", "half-t"].includes(family);
  if (known && p.length !== count) throw new PriorSpecError(`${what}: the ${family} family takes ${count} parameter${count === 1 ? "" : "s"}, "${text}" gives ${p.length} (${FAMILIES})`);
  let spec: PositivePriorSpec;
  if (family === "gamma") spec = { family, shape: p[0]!, rate: p[1]! };
  else if (family === "invgamma" || family === "inverse-gamma") spec = { family: "invgamma", shape: p[0]!, scale: p[1]! };
  else if (family === "lognormal" || family === "log-normal") spec = { family: "lognormal", mu: p[0]!, sigma: p[1]! };
  else if (family === "halfnormal" || family === "half-normal") spec = { family: "halfnormal", scale: p[0]! };
  else if (family === "halft" || family === "half-t") spec = { family: "halft", nu: p[0]!, scale: p[1]! };
  else throw new PriorSpecError(`${what}: unknown prior family "${m[1]}" (known: ${FAMILIES})`);
  try {
    positivePrior(spec);
  } catch (e) {
    if (e instanceof PriorSpecError) throw new PriorSpecError(`${what}: ${e.message}`);
    throw e;
  }
  return spec;
}
