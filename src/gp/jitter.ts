/**
 * The jitter policy: what is added to the diagonal of the kernel matrix K so that it factorises.
 * The jitter is part of the model (the prior of f is N(0, K + j I)), so it is stated, recorded
 * beside the draws, and the same wherever the model is evaluated (sampling, AIS, predictions).
 *
 * - relative: j = r x sigma, sigma = exp(2 logSignalSd) the signal variance (the default,
 *   r = 1e-6, as Stan users do: it scales with K, so the same r serves every theta and every
 *   scheme of sampled hyperparameters, where K = sigma (C + r I));
 * - absolute: j as given (0: none);
 * - "auto": none when K factorises, otherwise the smallest of 1e-10, ..., 1e-4 x mean(diag K)
 *   that does (depends on the data; the amount used is reported).
 */

/** The relative jitter r of K = sigma (C + r I) unless the user chooses another. */
export const DEFAULT_RELATIVE_JITTER = 1e-6;

/** Jitter on K's diagonal: `absolute`, or `relative` x the signal variance exp(2 logSignalSd). */
export type JitterSpec = { absolute: number } | { relative: number };

/** A model's jitter as plain data: a number (absolute), "auto", or a relative amount. */
export type JitterPolicy = number | "auto" | { relative: number };

/** The jitter added at theta (0 without a spec). */
export function jitterAt(jitter: JitterSpec | undefined, logSignalSd: number): number {
  if (jitter === undefined) return 0;
  return "absolute" in jitter ? jitter.absolute : jitter.relative * Math.exp(2 * logSignalSd);
}

/** The amount of a policy at a signal sd: a relative policy becomes its number; a number and "auto" stay as they are. */
export function resolveJitter(policy: JitterPolicy | undefined, logSignalSd: number): number | "auto" | undefined {
  if (policy === undefined || typeof policy === "number" || policy === "auto") return policy;
  return jitterAt(policy, logSignalSd);
}

/** The relative amount of a policy, if it is relative. */
export function relativeJitterOf(policy: JitterPolicy | undefined): number | undefined {
  return typeof policy === "object" ? policy.relative : undefined;
}
