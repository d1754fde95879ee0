/**
 * Inverse-temperature schedules for annealed importance sampling: 0 = beta_0 < beta_1 < ... <
 * beta_B = 1, where B is the number of temperatures the note counts ("a geometric progression
 * over B = 400 beta-values", Section 5). The run starts with a draw from p_0 (the prior or q),
 * adds (beta_k - beta_{k-1}) h(x) at each k, and moves x by a transition leaving p_{beta_k}
 * invariant for k < B (Neal 2001).
 *
 * - geometric: beta_k = betaMin^((B - k) / (B - 1)), k = 1..B (the note's choice; betaMin
 *   default 1e-4), so that the ratio beta_{k+1} / beta_k is constant;
 * - linear: beta_k = k / B;
 * - sigmoid: beta_k = (s(k) - s(0)) / (s(B) - s(0)) with s(k) = sigmoid(delta (2k/B - 1))
 *   (Grosse, Maddison & Salakhutdinov 2013; delta default 4): dense at both ends.
 */

/** Schedules by name. */
export const SCHEDULES = ["geometric", "linear", "sigmoid"] as const;
export type ScheduleName = (typeof SCHEDULES)[number];

/** A schedule, as plain data. */
export interface ScheduleSpec {
  kind: ScheduleName;
  /** B >= 1: the number of temperatures after beta_0 = 0 (the last is 1). */
  temperatures: number;
  /** geometric: the first non-zero temperature beta_1 (in (0, 1); default 1e-4). */
  betaMin?: number;
  /** sigmoid: the steepness delta (> 0; default 4). */
  delta?: number;
}

export const DEFAULT_BETA_MIN = 1e-4;
export const DEFAULT_SIGMOID_DELTA = 4;

/** The B + 1 inverse temperatures beta_0 = 0, ..., beta_B = 1 (strictly increasing). */
export function temperatureSchedule(spec: ScheduleSpec): Float64Array {
  const B = spec.temperatures;
  if (!Number.isInteger(B) || B < 1) throw new RangeError(`the number of temperatures must be a whole number >= 1, got ${B}`);
  const beta = new Float64Array(B + 1);
  switch (spec.kind) {
    case "geometric": {
      const betaMin = spec.betaMin ?? DEFAULT_BETA_MIN;
      if (!(betaMin > 0 && betaMin < 1)) throw new RangeError(`betaMin must be in (0, 1), got ${betaMin}`);
      const logMin = Math.log(betaMin);
      for (let k = 1; k < B; k++) beta[k] = Math.exp((logMin * (B - k)) / (B - 1));
      break;
    }
    case "linear":
      for (let k = 1; k < B; k++) beta[k] = k / B;
      break;
    case "sigmoid": {
      const delta = spec.delta ?? DEFAULT_SIGMOID_DELTA;
      if (!(delta > 0 && Number.isFinite(delta))) throw new RangeError(`delta must be a positive number, got ${delta}`);
      const s = (k: number) => 1 / (1 + Math.exp(-delta * ((2 * k) / B - 1)));
      const s0 = s(0);
      const range = s(B) - s0;
      for (let k = 1; k < B; k++) beta[k] = (s(k) - s0) / range;
      break;
    }
    default:
      throw new RangeError(`unknown schedule ${JSON.stringify((spec as ScheduleSpec).kind)} (known: ${SCHEDULES.join(", ")})`);
  }
  beta[0] = 0;
  beta[B] = 1;
  return beta;
}
