/**
 * Parsing and checking of command-line option values. Commander hands options over as
 * strings; these helpers turn them into numbers, names and paths, and throw an OptionError
 * naming the option and the value at the first problem. Nothing here writes a file.
 */
import type { Command } from "commander";
import { readNumber } from "../io/numbers.js";
import { renamedSampler } from "../samplers/renamedSamplers.js";

/** A command-line option with a bad, missing or conflicting value. */
export class OptionError extends Error {
  /** The option as typed, e.g. "--lengthscale". */
  readonly option: string;
  constructor(option: string, reason: string) {
    super(`${option}: ${reason.replace(/\r\n|\r|\n/g, " ")}`);
    this.name = "OptionError";
    this.option = option;
  }
}

function shown(raw: string): string {
  return JSON.stringify(raw.length > 40 ? raw.slice(0, 37) + "..." : raw);
}

/** A finite number. */
export function parseNumber(option: string, raw: string): number {
  const t = readNumber(raw);
  if (t.kind === "number") return t.value;
  if (t.kind === "empty") throw new OptionError(option, "needs a number, got an empty value");
  throw new OptionError(option, `must be a finite number, got ${shown(raw)}`);
}

/** A finite number > 0. */
export function parsePositiveNumber(option: string, raw: string): number {
  const v = parseNumber(option, raw);
  if (!(v > 0)) throw new OptionError(option, `must be a positive number, got ${shown(raw)}`);
  return v;
}

/** A whole number >= 1 (at most 2^53 - 1). */
export function parsePositiveInteger(option: string, raw: string): number {
  return parseInteger(option, raw, 1);
}

/** A whole number >= 0 (at most 2^53 - 1). */
export function parseNonNegativeInteger(option: string, raw: string): number {
  return parseInteger(option, raw, 0);
}

function parseInteger(option: string, raw: string, min: number): number {
  const s = raw.trim();
  const want = `a whole number >= ${min}`;
  if (!/^[+-]?\d+$/.test(s)) throw new OptionError(option, `must be ${want}, got ${s === "" ? "an empty value" : shown(raw)}`);
  const v = Number(s);
  if (v < min) throw new OptionError(option, `must be ${want}, got ${shown(raw)}`);
  if (!Number.isSafeInteger(v)) throw new OptionError(option, `must be at most ${Number.MAX_SAFE_INTEGER}, got ${shown(raw)}`);
  return v;
}

/**
 * One number or a comma-separated list, each finite (and > 0 with `positive`); "1, 2" and
 * "1,2" are the same.
 */
export function parseNumberList(option: string, raw: string, opts: { positive?: boolean } = {}): number[] {
  const parts = raw.split(",");
  return parts.map((p, i) => {
    const which = parts.length > 1 ? `value ${i + 1} of ${parts.length} ` : "";
    const t = readNumber(p);
    if (t.kind === "empty") throw new OptionError(option, `${which}is empty${parts.length > 1 ? ` in ${shown(raw)}` : ""}`);
    if (t.kind !== "number") throw new OptionError(option, `${which}must be a finite number, got ${shown(p.trim())}`);
    if (opts.positive && !(t.value > 0)) throw new OptionError(option, `${which}must be a positive number, got ${shown(p.trim())}`);
    return t.value;
  });
}

/** One of a fixed set of names; the message lists them and suggests a near miss. */
export function parseChoice<T extends string>(option: string, raw: string, choices: readonly T[], what = "value"): T {
  const s = raw.trim();
  if ((choices as readonly string[]).includes(s)) return s as T;
  const near = choices.filter((c) => editDistance(c.toLowerCase(), s.toLowerCase()) <= 2);
  const hint = near.length > 0 ? `; did you mean ${near.map((c) => JSON.stringify(c)).join(" or ")}?` : "";
  throw new OptionError(option, `unknown ${what} ${shown(raw)} (known: ${choices.join(", ")})${hint}`);
}

/**
 * A sampler's name, one of `choices`; a former name (samplers/renamedSamplers.ts) is refused with
 * the present one, before the list of names.
 */
export function parseSamplerChoice<T extends string>(option: string, raw: string, choices: readonly T[], what = "sampler"): T {
  refuseRenamedSampler(option, raw);
  return parseChoice(option, raw, choices, what);
}

/** Refuses a sampler's former name, naming the present one ("--sampler: "simplified-mmala" is now named "smmala""). */
export function refuseRenamedSampler(option: string, raw: string | undefined): void {
  const renamed = raw === undefined ? undefined : renamedSampler(raw);
  if (renamed !== undefined) throw new OptionError(option, renamed);
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** A non-empty path (whether it exists is for the reader or writer to say). */
export function parsePath(option: string, raw: string): string {
  if (raw.trim() === "") throw new OptionError(option, "needs a path, got an empty value");
  if (raw.includes("\0")) throw new OptionError(option, "the path contains a NUL character");
  return raw;
}

/**
 * Makes `--NAME` and `--no-NAME` given together an OptionError as they are parsed (Commander lets
 * the last one win, silently); call on the command that defines both.
 */
export function refuseFlagAndNegation(command: Command, name: string): Command {
  const seen = new Set<string>();
  for (const flag of [name, `no-${name}`]) {
    command.on(`option:${flag}`, () => {
      seen.add(flag);
      if (seen.size > 1) throw new OptionError(`--${name}`, `and --no-${name} exclude each other: give one of them`);
    });
  }
  return command;
}

/** Throws when more than one of the named options was given. */
export function exclusive(given: Record<string, unknown>): void {
  const set = Object.entries(given).filter(([, v]) => v !== undefined && v !== false);
  if (set.length > 1) {
    throw new OptionError(set[0][0], `cannot be combined with ${set.slice(1).map(([k]) => k).join(" or ")}: give one or the other`);
  }
}

// ---------------------------------------------------------------------------------------------
// Kernel hyperparameters

/** The kernel options as typed. */
export interface RawKernelOptions {
  lengthscale?: string;
  signalSd?: string;
  logLengthscale?: string;
  logSignalSd?: string;
}

/**
 * Squared-exponential hyperparameters on the log scale, as `seKernel` takes them:
 * k(a, b) = signal-sd^2 exp(-|a - b|^2 / (2 lengthscale^2)), one lengthscale or one per input.
 */
export interface KernelHyperparameters {
  /** Length 1 (shared) or d (ARD, one per input column in file order). */
  logLengthscale: Float64Array;
  logSignalSd: number;
  ard: boolean;
}

/**
 * Reads --lengthscale / --log-lengthscale (one value, or one per input column) and
 * --signal-sd / --log-signal-sd, checking positivity, finiteness, exclusivity and the count
 * against the data's `d` input columns (`inputNames` makes the message more helpful).
 */
export function resolveKernelHyperparameters(raw: RawKernelOptions, d: number, inputNames?: string[]): KernelHyperparameters {
  exclusive({ "--lengthscale": raw.lengthscale, "--log-lengthscale": raw.logLengthscale });
  exclusive({ "--signal-sd": raw.signalSd, "--log-signal-sd": raw.logSignalSd });
  let logL: number[];
  let lOption: string;
  if (raw.lengthscale !== undefined) {
    lOption = "--lengthscale";
    logL = parseNumberList(lOption, raw.lengthscale, { positive: true }).map(Math.log);
  } else if (raw.logLengthscale !== undefined) {
    lOption = "--log-lengthscale";
    logL = parseNumberList(lOption, raw.logLengthscale);
  } else {
    throw new OptionError("--lengthscale", "is required (or --log-lengthscale): one value, or one per input column");
  }
  if (logL.length !== 1 && logL.length !== d) {
    const cols = inputNames && inputNames.length > 0 ? ` (${inputNames.length > 6 ? inputNames.slice(0, 5).join(", ") + ", ..." : inputNames.join(", ")})` : "";
    throw new OptionError(
      lOption,
      `${logL.length} values given, but the data have ${d} input ${d === 1 ? "column" : "columns"}${cols}: give one value, or ${d}`,
    );
  }
  const lGiven = (lOption === "--lengthscale" ? raw.lengthscale : raw.logLengthscale)!.split(",");
  logL.forEach((t, i) => checkLengthscale(lOption, lGiven[i]!, t, logL.length > 1 ? `value ${i + 1} of ${logL.length}` : undefined));
  let logS: number;
  if (raw.signalSd !== undefined) logS = Math.log(parsePositiveNumber("--signal-sd", raw.signalSd));
  else if (raw.logSignalSd !== undefined) logS = parseNumber("--log-signal-sd", raw.logSignalSd);
  else throw new OptionError("--signal-sd", "is required (or --log-signal-sd)");
  checkScale(raw.signalSd !== undefined ? "--signal-sd" : "--log-signal-sd", (raw.signalSd ?? raw.logSignalSd)!, logS, undefined, "signal variance s^2", 2);
  return { logLengthscale: Float64Array.from(logL), logSignalSd: logS, ard: logL.length > 1 };
}

/**
 * The kernel divides distances by the lengthscale l (and by l^2 where it reuses squared
 * distances): 1/l^2 must be a finite double, so l above about 7.46e-155 (log l above about
 * -354.8), and l itself finite.
 */
function checkLengthscale(option: string, given: string, logValue: number, which: string | undefined): void {
  if (Number.isFinite(Math.exp(-2 * logValue))) return checkScale(option, given, logValue, which, "lengthscale");
  const logBound = -Math.log(Number.MAX_VALUE) / 2;
  const bound = option.startsWith("--log-") ? String(Math.ceil(logBound * 10) / 10) : Math.exp(logBound).toPrecision(3);
  throw new OptionError(option, `${which ? `${which} ` : ""}${shown(given.trim())} makes 1/lengthscale^2 overflow to infinity (the kernel divides by the lengthscale squared); it must be above about ${bound}`);
}

/**
 * A kernel hyperparameter must stay a positive finite double on the scale the kernel uses it (the
 * lengthscale l, the signal variance s^2 = exp(2 log s)): one that overflows to infinity or
 * underflows to 0 makes K's entries infinite or NaN, a model that is not defined. `given` is the
 * value as typed; `power` is 2 for the signal variance.
 */
function checkScale(option: string, given: string, logValue: number, which: string | undefined, what: string, power = 1): void {
  const v = Math.exp(power * logValue);
  if (v > 0 && Number.isFinite(v)) return;
  const over = !Number.isFinite(v);
  const logBound = Math.log(over ? Number.MAX_VALUE : Number.MIN_VALUE) / power;
  const bound = option.startsWith("--log-") ? String(over ? Math.floor(logBound * 10) / 10 : Math.ceil(logBound * 10) / 10) : Math.exp(logBound).toPrecision(3);
  throw new OptionError(option, `${which ? `${which} ` : ""}${shown(given.trim())} makes the ${what} ${over ? "overflow to infinity (not a finite double)" : "underflow to 0 (not a positive double)"}; it must be ${over ? "below" : "above"} about ${bound}`);
}
