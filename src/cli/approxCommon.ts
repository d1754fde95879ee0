/**
 * What `gpmcmc laplace` and `gpmcmc ep` share: their model options (modelOptions.ts) and output
 * options, loading the data and building K, the parts of the approximation file that describe
 * the data and kernel, the human-readable table, and writing --out and choosing the exit code.
 *
 * Exit codes: 0 when the command ran (also when the iteration did not converge: a warning
 * goes to stderr and the output says converged: false), 3 when it did not converge and
 * --strict was given (the results are still printed; --out is not written), 2 for bad input,
 * 1 for a bug.
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import { maximiseLogZ, type LogZMethod } from "../approx/logZGradient.js";
import { APPROXIMATION_FILE_FORMAT, APPROXIMATION_FILE_VERSION, fileSha256, type ApproximationFile } from "../approx/approximationFile.js";
import { seKernel } from "../gp/squaredExponential.js";
import type { Dataset } from "../io/dataset.js";
import { writeJsonAtomic } from "../io/atomic.js";
import type { Matrix } from "../linalg/matrix.js";
import type { CommandIO } from "./commandIO.js";
import { addModelOptions, parseModelOptions, readModelData, type ModelOptions, type ModelScope, type RawModelOptions } from "./modelOptions.js";
import { OptionError, parsePath, type KernelHyperparameters } from "./options.js";
import { checkOutputFile } from "./outputFile.js";

/** Exit code when the iteration did not converge and --strict was given. */
export const EXIT_NOT_CONVERGED = 3;

/** Options both commands take, as Commander gives them. */
export interface RawApproxOptions extends RawModelOptions {
  json?: boolean;
  out?: string;
  force?: boolean;
  strict?: boolean;
  optimize?: boolean;
}

/** What both commands' --json summaries hold. */
export interface ApproxSummary {
  data: string;
  n: number;
  d: number;
  likelihood: string;
  lengthscale: number[];
  signalSd: number;
  logZ: number;
  /** Newton steps (Laplace) or sweeps over the sites (EP). */
  iterations: number;
  converged: boolean;
  /** Seconds of the computation (reading the data excluded). */
  seconds: number;
  /** The file written, or null. */
  out: string | null;
  /** With --optimize: the search for theta maximising log Z (the kernel fields above are its optimum); null without. */
  optimize: OptimizeReport | null;
}

/** What --optimize reports: where it started, how it ended, and how long it took. */
export interface OptimizeReport {
  startLengthscale: number[];
  startSignalSd: number;
  iterations: number;
  /** Laplace or EP runs. */
  evaluations: number;
  converged: boolean;
  reason: string;
  /** d log Z / d theta at the optimum (log lengthscales, log signal sd). */
  gradient: number[];
  seconds: number;
}

export interface CommandOutcome<S> {
  summary: S;
  /** The approximation, as written to --out (also when nothing was written). */
  file: ApproximationFile;
  exitCode: number;
}

export interface Common {
  /** The model options; model.data is the data file. */
  model: ModelOptions;
  data: string;
  json: boolean;
  out?: string;
  force: boolean;
  strict: boolean;
  optimize: boolean;
}

/** The model options within `scope`, then the output options. */
export function parseCommon(raw: RawApproxOptions, scope: ModelScope): Common {
  const model = parseModelOptions(raw, scope);
  const data = model.data;
  const out = raw.out === undefined ? undefined : parsePath("--out", raw.out);
  if (out !== undefined && resolve(out) === resolve(data)) throw new OptionError("--out", `is the data file ${JSON.stringify(data)}; give another file name`);
  return { model, data, json: raw.json === true, out, force: raw.force === true, strict: raw.strict === true, optimize: raw.optimize === true };
}

export function optional<T>(raw: string | undefined, option: string, parse: (option: string, raw: string) => T): T | undefined {
  return raw === undefined ? undefined : parse(option, raw);
}

export interface Problem {
  dataset: Dataset;
  kernel: KernelHyperparameters;
  k: Matrix;
  kernelSeconds: number;
}

/** Checks the --out path (writing nothing), then reads the data (its warnings to io.stderr) and builds K. */
export function loadProblem(common: Common, io: Pick<CommandIO, "stderr">): Problem {
  if (common.out !== undefined) checkOutputFile(common.out, common.force);
  const { data: dataset, kernel, warnings } = readModelData(common.model);
  for (const w of warnings) io.stderr(`gpmcmc: warning: ${w}\n`);
  const t0 = performance.now();
  const k = seKernel({ logLengthscale: kernel.logLengthscale, logSignalSd: kernel.logSignalSd }).matrix(dataset.X);
  return { dataset, kernel, k, kernelSeconds: (performance.now() - t0) / 1000 };
}

/**
 * --optimize: theta maximising log Z from the given hyperparameters (type-II maximum likelihood,
 * src/approx/logZGradient.ts); p's kernel and K become the optimum's. A search that does not
 * converge is reported (converged false, a warning) like a Newton or EP iteration that does not.
 */
export function optimizeProblem(p: Problem, how: LogZMethod, warn: (message: string) => void): OptimizeReport {
  const t0 = performance.now();
  const start = { logLengthscale: Array.from(p.kernel.logLengthscale), logSignalSd: p.kernel.logSignalSd };
  const r = maximiseLogZ(p.dataset.X, start, how);
  if (!r.converged) warn(`gpmcmc: --optimize: the search for theta stopped without converging (${r.reason}); the values shown are the best found`);
  p.kernel = { ...p.kernel, logLengthscale: Float64Array.from(r.theta.logLengthscale), logSignalSd: r.theta.logSignalSd };
  p.k = seKernel({ logLengthscale: p.kernel.logLengthscale, logSignalSd: p.kernel.logSignalSd }).matrix(p.dataset.X);
  return {
    startLengthscale: start.logLengthscale.map(Math.exp), startSignalSd: Math.exp(start.logSignalSd),
    iterations: r.iterations, evaluations: r.evaluations, converged: r.converged, reason: r.reason,
    gradient: Array.from(r.gradient), seconds: (performance.now() - t0) / 1000,
  };
}

/** The table rows of --optimize. */
export function optimizeRows(o: OptimizeReport | null): [string, string][] {
  if (o === null) return [];
  return [
    ["optimised", `theta maximising log Z by BFGS from lengthscale ${o.startLengthscale.map(short).join(", ")}, signal sd ${short(o.startSignalSd)}`],
    ["BFGS iterations", `${o.iterations} (${o.evaluations} evaluations of log Z), ${o.converged ? "converged" : "NOT converged"}, ${o.seconds.toFixed(2)} s`],
  ];
}

function dataPart(common: Common, ds: Dataset): ApproximationFile["data"] {
  return { path: common.data, sha256: fileSha256(common.data), n: ds.n, d: ds.d, inputNames: ds.inputNames, responseName: ds.responseName };
}

function kernelPart(kernel: KernelHyperparameters): ApproximationFile["kernel"] {
  return { name: "squared-exponential", logLengthscale: Array.from(kernel.logLengthscale), logSignalSd: kernel.logSignalSd };
}

/** A number for people: up to 7 significant digits, no trailing zeros. */
export function short(x: number): string {
  return String(Number(x.toPrecision(7)));
}

function lengthscaleText(kernel: KernelHyperparameters): string {
  const l = Array.from(kernel.logLengthscale);
  if (l.length === 1) return `${short(Math.exp(l[0]))} (log ${short(l[0])})`;
  if (l.length <= 4) return `${l.map((v) => short(Math.exp(v))).join(", ")} (ARD)`;
  return `${l.length} values (ARD), from ${short(Math.exp(Math.min(...l)))} to ${short(Math.exp(Math.max(...l)))}`;
}

export function table(rows: [string, string][]): string {
  const w = Math.max(...rows.map(([k]) => k.length)) + 2;
  return rows.map(([k, v]) => k.padEnd(w) + v).join("\n") + "\n";
}

/** Adds the converged and seconds rows, prints, writes --out unless --strict stops it, and decides the exit code. */
export function finish<S extends { converged: boolean; seconds: number; out: string | null }>(
  what: string,
  common: Common,
  summary: S,
  file: ApproximationFile,
  human: [string, string][],
  io: CommandIO,
): CommandOutcome<S> {
  human.push(["converged", yesNo(summary.converged)], ["seconds", summary.seconds.toFixed(2)]);
  const stop = common.strict && !summary.converged;
  if (common.out !== undefined && !stop) {
    writeJsonAtomic(common.out, file);
    summary.out = common.out;
    human.push(["written", common.out]);
  }
  io.stdout(common.json ? JSON.stringify(summary) + "\n" : table(human));
  if (stop) {
    io.stderr(`gpmcmc: ${what} did not converge; exit code ${EXIT_NOT_CONVERGED} (--strict)${common.out !== undefined ? `, ${common.out} not written` : ""}\n`);
    return { summary, file, exitCode: EXIT_NOT_CONVERGED };
  }
  return { summary, file, exitCode: 0 };
}

function yesNo(b: boolean): string {
  return b ? "yes" : "NO (see the warning above)";
}

const EXIT_HELP = `
Exit codes: 0 done (also when the iteration did not converge: a warning goes to stderr and
the output says converged: false / NO); 3 not converged with --strict (the results are still
printed, --out is not written); 2 bad data, option or output path (one line on stderr,
nothing written); 1 internal error.

--out FILE writes the Gaussian approximation as JSON (format "${APPROXIMATION_FILE_FORMAT}",
version ${APPROXIMATION_FILE_VERSION}): mean, site precisions, site natural means and site means, log Z,
the data file's SHA-256 and the kernel. Sigma^-1 = K^-1 + diag(sitePrecisions). An existing file
is replaced only if it is such a file, or with --force; it is written atomically.
`;

function addOutputOptions(cmd: Command): Command {
  return cmd
    .option("--json", "print one JSON object on stdout instead of text")
    .option("--out <file.json>", "write the Gaussian approximation to this JSON file")
    .option("--force", "with --out: replace an existing file that is not a gpmcmc approximation file")
    .option("--strict", `exit with code ${EXIT_NOT_CONVERGED} (and write no --out) when the iteration does not converge`)
    .option("--optimize", "first maximise log Z over the log lengthscale(s) and log signal sd by BFGS, from the values given (type-II maximum likelihood); report and write the approximation at the optimum");
}

/** The fields of the approximation file that say what it is and what it approximates. */
export function fileHeader<M extends ApproximationFile["method"]>(method: M, common: Common, p: Problem) {
  return {
    format: APPROXIMATION_FILE_FORMAT, version: APPROXIMATION_FILE_VERSION, method, likelihood: common.model.likelihood,
    data: dataPart(common, p.dataset), kernel: kernelPart(p.kernel),
  } as const;
}

/** The --json summary's description of the problem. */
export function problemFields(common: Common, p: Problem) {
  return {
    data: common.data, n: p.dataset.n, d: p.dataset.d, likelihood: common.model.likelihood,
    lengthscale: Array.from(p.kernel.logLengthscale, Math.exp), signalSd: Math.exp(p.kernel.logSignalSd),
  };
}

/** The table's first rows: the method, the data, the kernel. */
export function problemRows(method: string, common: Common, p: Problem): [string, string][] {
  return [
    ["method", method],
    ["data", `${common.data}: n = ${p.dataset.n}, d = ${p.dataset.d}`],
    ["lengthscale", lengthscaleText(p.kernel)],
    ["signal sd", `${short(Math.exp(p.kernel.logSignalSd))} (log ${short(p.kernel.logSignalSd)})`],
  ];
}

/**
 * Adds a command (name, description, --likelihood's help) with the model options, the command's
 * own (`own`), the output options and the exit codes in its help; its action runs `run` and sets the process's exit code.
 */
export function registerApproxCommand<R>(
  program: Command,
  [name, description, likelihoods]: [string, string, string],
  own: (cmd: Command) => Command,
  run: (raw: R) => { exitCode: number },
): void {
  const cmd = program.command(name).description(description);
  addOutputOptions(own(addModelOptions(cmd, likelihoods))).addHelpText("after", EXIT_HELP).action((opts: R) => {
    const { exitCode } = run(opts);
    if (exitCode !== 0) process.exitCode = exitCode;
  });
}
