/**
 * Checkpoints of a run on disk: one file per chain (`checkpoint_1.json`, ...) holding the
 * driver's ChainCheckpoint (or per AIS run, holding annealing/aisCheckpoint.ts's AisRunCheckpoint), written atomically (temporary file, fsync, rename), so that a
 * process killed at any moment leaves the last complete checkpoint of each chain, never a part
 * of one. Typed arrays are stored as the base64 of their bytes and non-finite numbers by name,
 * so a checkpoint read back is bit for bit the one written (JSON's decimal numbers round-trip
 * finite doubles exactly, but not NaN or infinities, and the per-draw energy of samplers
 * without a Hamiltonian is NaN).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../io/atomic.js";
import { DataError, fileErrorReason } from "../io/errors.js";
import type { ChainCheckpoint } from "../samplers/chain/chainCheckpoint.js";

/** The name of chain `chain`'s (0-based; or AIS run's) checkpoint file. */
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

/** Chain `chain`'s (or AIS run's) checkpoint in `dir`, or undefined when there is none (the chain starts afresh); `check` as readCheckpointFile's. */
export function readCheckpoint<C = ChainCheckpoint>(dir: string, chain: number, check?: (value: Record<string, unknown>) => string | undefined): C | undefined {
  return readCheckpointFile<C>(join(dir, checkpointFileName(chain)), check);
}

/** Writes a checkpoint (a chain's, an AIS run's) to `path`, atomically. */
export function writeCheckpointFile(path: string, cp: object): void {
  writeFileAtomic(path, encodeExact(cp) + "\n");
}

/**
 * The checkpoint at `path`, or undefined when there is none. A file that cannot be read back (cut
 * off, damaged, not JSON, or what `check` finds wrong with its value) is a DataError naming it and
 * what is wrong, without echoing its bytes, and saying that removing it starts its chain afresh.
 */
export function readCheckpointFile<C = ChainCheckpoint>(path: string, check?: (value: Record<string, unknown>) => string | undefined): C | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DataError({ file: path }, `cannot be read: ${fileErrorReason(e)}`);
  }
  const fail = (problem: string): never => {
    throw new DataError({ file: path }, `${problem}; remove it, and its chain starts again from its first transition`);
  };
  let value: unknown;
  try {
    value = decodeExact<unknown>(text);
  } catch (e) {
    fail(undecodable(text, e));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail("is not a checkpoint (its JSON is not an object)");
  const problem = check?.(value as Record<string, unknown>);
  if (problem !== undefined) fail(`is not a checkpoint of this run: ${problem}`);
  return value as C;
}

/** Why a checkpoint's text does not decode, in words (its bytes are not echoed). */
function undecodable(text: string, e: unknown): string {
  if (text.trim() === "") return "is empty (not a complete checkpoint: cut off when it was written?)";
  if (!(e instanceof SyntaxError)) return "is damaged: an array in it does not decode";
  // JSON that stops where the text does was cut off; an error before its end is another file
  const at = /at position (\d+)/.exec(e.message);
  if (/Unexpected end of JSON input/.test(e.message) || (at && Number(at[1]) >= text.trimEnd().length)) {
    return `is cut off after ${Buffer.byteLength(text)} bytes (not a complete checkpoint)`;
  }
  return `is not a checkpoint: not JSON${at ? ` (at character ${Number(at[1]) + 1})` : ""}`;
}

/** Whether a checkpoint is of a chain that ran to its end. */
export function checkpointComplete(cp: ChainCheckpoint): boolean {
  return cp.done === cp.burnIn + cp.draws * cp.thin;
}

/**
 * Writes checkpoints as they arrive from tasks on worker threads, keeping up however often they
 * come: each is written in a later turn of the event loop, and one superseded by a newer
 * checkpoint of the same chain (or run) before then is skipped. Written synchronously one by
 * one (each with its fsync), frequent checkpoints queue up faster than they are written, and the
 * thread's SIGINT and SIGTERM handlers wait behind them; skipping one loses nothing, as the file
 * on disk always holds a complete, earlier state of its chain. `flush` writes what is left (call
 * it once the tasks are done) and throws the first error a write met.
 */
export function latestCheckpointWriter<C>(write: (checkpoint: C) => void, keyOf: (checkpoint: C) => number): { save: (checkpoint: C) => void; flush: () => void } {
  const pending = new Map<number, C>();
  let scheduled = false;
  let failed: { error: unknown } | undefined;
  const writePending = () => {
    scheduled = false;
    for (const cp of pending.values()) {
      try {
        if (failed === undefined) write(cp);
      } catch (e) {
        failed = { error: e };
      }
    }
    pending.clear();
  };
  return {
    save: (cp) => {
      pending.set(keyOf(cp), cp);
      if (!scheduled) {
        scheduled = true;
        setImmediate(writePending);
      }
    },
    flush: () => {
      writePending();
      if (failed !== undefined) throw failed.error;
    },
  };
}
