/**
 * A grid job's identity: the text naming its cell (`<grid> key=value ...`, the axes in the
 * spec's order), the seed drawn from it, and the job id. The seed is the first 8 bytes
 * (big-endian) of the SHA-256 of the identity as an unsigned 64-bit integer, so a job's draws
 * depend on what the job is, never on where it stands in the grid or which worker runs it; the
 * id also covers the fixed settings and the job kind, so that a spec changed in those gives new
 * jobs, and the same job submitted twice is one job.
 */
import { createHash } from "node:crypto";

/** The first 8 bytes of the SHA-256 of `identity` (UTF-8) as an unsigned 64-bit integer. */
export function seedOfIdentity(identity: string): bigint {
  return createHash("sha256").update(identity, "utf8").digest().readBigUInt64BE(0);
}

/** The identity text of a cell: the grid's name, then key=value for each axis in order. */
export function cellIdentity(grid: string, cell: Record<string, string | number>): string {
  return [grid, ...Object.entries(cell).map(([k, v]) => `${k}=${v}`)].join(" ");
}

/** The job id: "g" and 32 hex digits of the SHA-256 of the kind, the identity and the fixed settings. */
export function jobId(kind: string, identity: string, fixed: unknown): string {
  return "g" + createHash("sha256").update(`${kind}\n${identity}\n${JSON.stringify(fixed)}`, "utf8").digest("hex").slice(0, 32);
}

/**
 * The FNV-1a hash (32 bits) of parts joined by "/": the seed of the parametric experiments'
 * runs (experiments/logisticRegression.ts, volatility.ts), kept as it was so that their
 * committed result files are drawn again identically.
 */
export function fnvSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join("/")) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
