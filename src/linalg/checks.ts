/**
 * Argument checks of the low-level backend routines (BLAS conventions). The js backend runs
 * them on every call; the native addon runs the same checks, with the same messages, in C++
 * (native/gpmcmc_native.cc), so both backends reject a bad call the same way: a wrong option
 * letter or a non-Float64Array is a TypeError, a bad size or an array too short for its stated
 * shape a DimensionError. All checks are O(1).
 */
import { DimensionError } from "./errors.js";

const INT_MAX = 2147483647;

export function checkArgCount(routine: string, got: number, expected: number): void {
  if (got !== expected) throw new TypeError(`${routine}: expected ${expected} arguments, got ${got}`);
}

export function checkFlag(routine: string, name: string, v: unknown, allowed: string): void {
  if (typeof v !== "string" || v.length !== 1 || !allowed.includes(v)) {
    const opts = [...allowed].map((c) => `"${c}"`).join(" or ");
    throw new TypeError(`${routine}: ${name} must be ${opts}`);
  }
}

export function checkNumber(routine: string, name: string, v: unknown): void {
  if (typeof v !== "number") throw new TypeError(`${routine}: ${name} must be a number`);
}

/** A dimension: an integer in [0, 2^31 - 1] (BLAS integers are 32-bit). */
export function checkDim(routine: string, name: string, v: unknown): void {
  checkNumber(routine, name, v);
  const d = v as number;
  if (!(Number.isInteger(d) && d >= 0 && d <= INT_MAX)) {
    throw new DimensionError(`${routine}: ${name} must be an integer between 0 and ${INT_MAX}, got ${d}`);
  }
}

/** A leading dimension: an integer >= max(1, rows). */
export function checkLd(routine: string, name: string, v: unknown, rows: number): void {
  checkNumber(routine, name, v);
  const d = v as number;
  const lo = Math.max(1, rows);
  if (!(Number.isInteger(d) && d >= lo && d <= INT_MAX)) {
    throw new DimensionError(`${routine}: ${name} must be an integer >= ${lo}, got ${d}`);
  }
}

function checkFloat64(routine: string, name: string, v: unknown): void {
  if (!(v instanceof Float64Array)) throw new TypeError(`${routine}: ${name} must be a Float64Array`);
}

/** A rows x cols column-major matrix with leading dimension ld needs ld*(cols-1)+rows entries. */
export function checkMatrix(routine: string, name: string, v: unknown, rows: number, cols: number, ld: number): void {
  checkFloat64(routine, name, v);
  const need = rows === 0 || cols === 0 ? 0 : ld * (cols - 1) + rows;
  const len = (v as Float64Array).length;
  if (len < need) {
    throw new DimensionError(`${routine}: ${name} has ${len} entries, needs at least ${need} ` +
      `(${rows} x ${cols} with leading dimension ${ld})`);
  }
}

export function checkVector(routine: string, name: string, v: unknown, n: number): void {
  checkFloat64(routine, name, v);
  const len = (v as Float64Array).length;
  if (len < n) throw new DimensionError(`${routine}: ${name} has ${len} entries, needs at least ${n}`);
}

export function checkThreads(n: unknown): void {
  if (!(typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 1024)) {
    throw new RangeError("setThreads: the thread count must be an integer between 1 and 1024");
  }
}

/** The two scalars of an update C <- alpha (...) + beta C. */
export function checkScalars(routine: string, alpha: unknown, beta: unknown): void {
  checkNumber(routine, "alpha", alpha);
  checkNumber(routine, "beta", beta);
}

/** A matrix argument: its leading dimension (>= its rows), then its length for rows x cols. */
export function checkMatrixArg(routine: string, ldName: string, ld: unknown, name: string, v: unknown, rows: number, cols: number): void {
  checkLd(routine, ldName, ld, rows);
  checkMatrix(routine, name, v, rows, cols, ld as number);
}
