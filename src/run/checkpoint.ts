/**
 * Checkpoints of a run on disk: one file per chain (`checkpoint_1.json`, ...) holding the
 * driver's ChainCheckpoint, written atomically (temporary file, fsync, rename), so that a
 * process killed at any moment leaves the last complete checkpoint of each chain, never a part
 * of one. Typed arrays are stored as the base64 of their bytes and non-finite numbers by name,
 * so a checkpoint read back is bit for bit the one written (JSON's decimal numbers round-trip
 * finite doubles exactly, but not NaN or infinities, and the per-draw energy of samplers
 * without a Hamiltonian is NaN).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../io/atomic.js";
import type { ChainCheckpoint } from "../samplers/chainCheckpoint.js";

/** The name of chain `chain`'s (0-based) checkpoint file. */
export function checkpointFileName(chain: number): string {
  return `checkpoint_${chain + 1}.json`;
}

const F64 = "$f64";
const U8 = "$u8";
const NUM = "$num";

/** JSON text of any plain value with Float64Array, Uint8Array and non-finite numbers kept exactly. */
export function encodeExact(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, _key, v: unknown) {
    if (v instanceof Float64Array) return { [F64]: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64") };
    if (v instanceof Uint8Array) return { [U8]: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64") };
    if (typeof v === "number" && !Number.isFinite(v)) return { [NUM]: String(v) };
    return v;
  });
}

/** The value `encodeExact` wrote. */
export function decodeExact<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o[F64] === "string") {
        const b = Buffer.from(o[F64] as string, "base64");
        const out = new Float64Array(b.length / 8);
        new Uint8Array(out.buffer).set(b);
        return out;
      }
      if (typeof o[U8] === "string") return Uint8Array.from(Buffer.from(o[U8] as string, "base64"));
      if (typeof o[NUM] === "string") return Number(o[NUM]);
    }
    return v;
  }) as T;
}

/** Writes chain `cp.chain`'s checkpoint into `dir`, atomically. */
export function writeCheckpoint(dir: string, cp: ChainCheckpoint): void {
  writeCheckpointFile(join(dir, checkpointFileName(cp.chain)), cp);
}

/** Chain `chain`'s checkpoint in `dir`, or undefined when there is none (the chain starts afresh). */
export function readCheckpoint(dir: string, chain: number): ChainCheckpoint | undefined {
  return readCheckpointFile(join(dir, checkpointFileName(chain)));
}

/** Writes a checkpoint to `path`, atomically. */
export function writeCheckpointFile(path: string, cp: ChainCheckpoint): void {
  writeFileAtomic(path, encodeExact(cp) + "\n");
}

/** The checkpoint at `path`, or undefined when there is none. */
export function readCheckpointFile(path: string): ChainCheckpoint | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  return decodeExact<ChainCheckpoint>(text);
}

/** Whether a checkpoint is of a chain that ran to its end. */
export function checkpointComplete(cp: ChainCheckpoint): boolean {
  return cp.done === cp.burnIn + cp.draws * cp.thin;
}
