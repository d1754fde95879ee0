/**
 * How a run's jitter (src/gp/jitter.ts) reads in a command's text output: the amount added to
 * K's diagonal and, for a relative jitter, its ratio to the signal variance.
 */
import { resolveJitter, type JitterPolicy } from "../gp/jitter.js";

/** "jitter 0.0269 (0.000001 x signal variance)", "jitter 0.001", or "no jitter". */
export function jitterWords(amount: number, relative?: number): string {
  if (!(amount > 0)) return "no jitter";
  return relative !== undefined ? `jitter ${Number(amount.toPrecision(3))} (${relative} x signal variance)` : `jitter ${amount}`;
}

/** The words of a policy before K is built ("auto" has no amount yet). */
export function describeJitter(policy: JitterPolicy | undefined, logSignalSd: number): string {
  const amount = resolveJitter(policy, logSignalSd);
  if (amount === "auto") return "jitter auto";
  return jitterWords(amount ?? 0, typeof policy === "object" ? policy.relative : undefined);
}
