/**
 * `gpmcmc laplace` and `gpmcmc ep`: Laplace's approximation and expectation propagation for a
 * latent GP with the squared-exponential kernel at fixed hyperparameters, printing log Z (for
 * EP also log Z_EP with the second-order correction of Opper, Paquet & Winther 2013) and,
 * with --out, writing the Gaussian approximation as an ApproximationFile.
 *
 * Exit codes: 0 when the command ran (also when the iteration did not converge: a warning
 * goes to stderr and the output says converged: false), 3 when it did not converge and
 * --strict was given (the results are still printed; --out is not written), 2 for bad input,
 * 1 for a bug.
 */
import { accessSync, closeSync, constants as fsConstants, openSync, readSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import {
  APPROXIMATION_FILE_FORMAT,
  APPROXIMATION_FILE_VERSION,
  fileSha256,
  siteMeansOf,
  type ApproximationFile,
} from "../approx/approximationFile.js";
import { expectationPropagation, type EpOptions } from "../approx/ep.js";
import { epCorrectedLogZ } from "../approx/epCorrection.js";
import { laplace, NotLogConcaveError, type LaplaceOptions } from "../approx/laplace.js";
import { probitSites } from "../approx/sites.js";
import { seKernel } from "../gp/squaredExponential.js";
import { labelKindFor, readDataset, type Dataset } from "../io/dataset.js";
import { OutputError } from "../io/errors.js";
import { writeJsonAtomic } from "../io/atomic.js";
import { likelihoodByName } from "../likelihoods/registry.js";
import type { Matrix } from "../linalg/matrix.js";
import { VERSION } from "../version.js";
import { registerUserError } from "./errors.js";
import {
  OptionError,
  parseChoice,
  parsePath,
  parsePositiveInteger,
  parsePositiveNumber,
  resolveKernelHyperparameters,
  type KernelHyperparameters,
  type RawKernelOptions,
} from "./options.js";

registerUserError(NotLogConcaveError);

/** Exit code when the iteration did not converge and --strict was given. */
export const EXIT_NOT_CONVERGED = 3;

/** Likelihoods `gpmcmc laplace` takes (log-concave, no extra options). */
export const LAPLACE_LIKELIHOODS = ["probit", "logistic", "poisson", "volatility"] as const;
/** EP's sites are implemented for probit only. */
export const EP_LIKELIHOODS = ["probit"] as const;
export const EP_SCHEDULES = ["sequential", "parallel"] as const;
export const EP_CORRECTIONS = ["cumulant", "pairwise"] as const;

/** Where a command writes (the process's streams on the command line). */
export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processIO: CommandIO = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
};

/** Options both commands take, as Commander gives them. */
export interface RawApproxOptions extends RawKernelOptions {
  data?: string;
  likelihood?: string;
  json?: boolean;
  out?: string;
  force?: boolean;
  strict?: boolean;
}

export interface RawLaplaceOptions extends RawApproxOptions {
  maxIterations?: string;
  tolerance?: string;
}

export interface RawEpOptions extends RawApproxOptions {
  schedule?: string;
  damping?: string;
  tolerance?: string;
  logzTolerance?: string;
  maxSweeps?: string;
  correction?: string;
  correctionOrder?: string;
}

/** What `gpmcmc laplace --json` prints. */
export interface LaplaceSummary {
  command: "laplace";
  data: string;
  n: number;
  d: number;
  likelihood: string;
  lengthscale: number[];
  signalSd: number;
  logZ: number;
  iterations: number;
  converged: boolean;
  gradientNorm: number;
  /** Kernel matrix and Newton iteration (reading the data excluded). */
  seconds: number;
  /** The file written, or null. */
  out: string | null;
}

/** What `gpmcmc ep --json` prints. */
export interface EpSummary {
  command: "ep";
  data: string;
  n: number;
  d: number;
  likelihood: "probit";
  lengthscale: number[];
  signalSd: number;
  schedule: "sequential" | "parallel";
  damping: number;
  /** log Z_EP. */
  logZ: number;
  /** log Z_EP + correction. */
  logZCorrected: number;
  /** The second-order term R2. */
  correction: number;
  correctionForm: "cumulant" | "pairwise";
  correctionOrder: number;
  /** Sweeps over the sites. */
  iterations: number;
  converged: boolean;
  siteChange: number;
  logZChange: number;
  clampedSites: number;
  /** Kernel matrix, EP and the correction (reading the data excluded). */
  seconds: number;
  out: string | null;
}

export interface CommandOutcome<S> {
  summary: S;
  /** The approximation, as written to --out (also when nothing was written). */
  file: ApproximationFile;
  exitCode: number;
}

// ---------------------------------------------------------------------------------------------
// Shared steps

interface Common {
  data: string;
  json: boolean;
  out?: string;
  force: boolean;
  strict: boolean;
}

function parseCommon(raw: RawApproxOptions): Common {
  if (raw.data === undefined) throw new OptionError("--data", "is required: the CSV data set (header line; response column y)");
  const data = parsePath("--data", raw.data);
  const out = raw.out === undefined ? undefined : parsePath("--out", raw.out);
  if (out !== undefined && resolve(out) === resolve(data)) throw new OptionError("--out", `is the data file ${JSON.stringify(data)}; give another file name`);
  return { data, json: raw.json === true, out, force: raw.force === true, strict: raw.strict === true };
}

function optional<T>(raw: string | undefined, option: string, parse: (option: string, raw: string) => T): T | undefined {
  return raw === undefined ? undefined : parse(option, raw);
}

/**
 * Checks, writing nothing, that `path` can receive the approximation file: its directory
 * exists and is writable, and the path is not a directory, nor an existing file other than a
 * gpmcmc approximation file unless `force`.
 */
export function checkOutputFile(
  path: string,
  force: boolean,
  ours: { is: (path: string) => boolean; what: string; example: string } = { is: isApproximationFile, what: "a gpmcmc approximation file", example: "ep.json" },
): void {
  let st: ReturnType<typeof statSync> | undefined;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") throw new OutputError(path, code === "ENOTDIR" ? "a part of the path is not a directory" : `cannot be checked: ${(e as Error).message}`);
  }
  if (st !== undefined) {
    if (st.isDirectory()) throw new OutputError(path, `is a directory; --out takes a file name (e.g. ${ours.example})`);
    if (!st.isFile()) throw new OutputError(path, "exists and is not a regular file");
    if (!force && !ours.is(path)) {
      throw new OutputError(path, `exists and is not ${ours.what}; give --force to replace it`);
    }
  }
  const dir = dirname(path);
  let dst: ReturnType<typeof statSync>;
  try {
    dst = statSync(dir);
  } catch {
    throw new OutputError(path, `its directory ${JSON.stringify(dir)} does not exist`);
  }
  if (!dst.isDirectory()) throw new OutputError(path, `${JSON.stringify(dir)} is not a directory`);
  try {
    accessSync(dir, fsConstants.W_OK | fsConstants.X_OK);
  } catch {
    throw new OutputError(path, `its directory ${JSON.stringify(dir)} is not writable`);
  }
}

function isApproximationFile(path: string): boolean {
  const buf = Buffer.alloc(256);
  let got = 0;
  try {
    const fd = openSync(path, "r");
    try {
      got = readSync(fd, buf, 0, buf.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  return new RegExp(`^\\s*\\{\\s*"format"\\s*:\\s*"${APPROXIMATION_FILE_FORMAT}"`).test(buf.subarray(0, got).toString("utf8"));
}

interface Problem {
  dataset: Dataset;
  kernel: KernelHyperparameters;
  k: Matrix;
  kernelSeconds: number;
}

function loadProblem(common: Common, likelihood: string, raw: RawKernelOptions): Problem {
  const dataset = readDataset(common.data, {
    labels: labelKindFor(likelihood),
    binaryCoding: likelihood === "logistic" ? "zeroOne" : "plusMinusOne",
  });
  const kernel = resolveKernelHyperparameters(raw, dataset.d, dataset.inputNames);
  const t0 = performance.now();
  const k = seKernel({ logLengthscale: kernel.logLengthscale, logSignalSd: kernel.logSignalSd }).matrix(dataset.X);
  return { dataset, kernel, k, kernelSeconds: (performance.now() - t0) / 1000 };
}

function dataPart(common: Common, ds: Dataset): ApproximationFile["data"] {
  return { path: common.data, sha256: fileSha256(common.data), n: ds.n, d: ds.d, inputNames: ds.inputNames, responseName: ds.responseName };
}

function kernelPart(kernel: KernelHyperparameters): ApproximationFile["kernel"] {
  return { name: "squared-exponential", logLengthscale: Array.from(kernel.logLengthscale), logSignalSd: kernel.logSignalSd };
}

/** A number for people: up to 7 significant digits, no trailing zeros. */
function short(x: number): string {
  return String(Number(x.toPrecision(7)));
}

function lengthscaleText(kernel: KernelHyperparameters): string {
  const l = Array.from(kernel.logLengthscale);
  if (l.length === 1) return `${short(Math.exp(l[0]))} (log ${short(l[0])})`;
  if (l.length <= 4) return `${l.map((v) => short(Math.exp(v))).join(", ")} (ARD)`;
  return `${l.length} values (ARD), from ${short(Math.exp(Math.min(...l)))} to ${short(Math.exp(Math.max(...l)))}`;
}

function table(rows: [string, string][]): string {
  const w = Math.max(...rows.map(([k]) => k.length)) + 2;
  return rows.map(([k, v]) => k.padEnd(w) + v).join("\n") + "\n";
}

/** Prints, writes --out unless --strict stops it, and decides the exit code. */
function finish<S extends { converged: boolean; out: string | null }>(
  what: string,
  common: Common,
  summary: S,
  file: ApproximationFile,
  human: [string, string][],
  io: CommandIO,
): CommandOutcome<S> {
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

// ---------------------------------------------------------------------------------------------
// gpmcmc laplace

/** Runs `gpmcmc laplace` with the given options. Throws OptionError, DataError, OutputError on bad input. */
export function runLaplace(raw: RawLaplaceOptions, io: CommandIO = processIO): CommandOutcome<LaplaceSummary> {
  const common = parseCommon(raw);
  const likelihood = parseChoice("--likelihood", raw.likelihood ?? "probit", LAPLACE_LIKELIHOODS, "likelihood");
  const options: LaplaceOptions = {
    maxIterations: optional(raw.maxIterations, "--max-iterations", parsePositiveInteger),
    gradientTolerance: optional(raw.tolerance, "--tolerance", parsePositiveNumber),
    onWarning: (s) => io.stderr(s + "\n"),
  };
  if (common.out !== undefined) checkOutputFile(common.out, common.force);
  const p = loadProblem(common, likelihood, raw);
  const t0 = performance.now();
  const r = laplace(p.k, p.dataset.y, likelihoodByName(likelihood), options);
  const seconds = p.kernelSeconds + (performance.now() - t0) / 1000;
  const n = p.dataset.n;
  const nu = new Float64Array(n);
  for (let i = 0; i < n; i++) nu[i] = r.w[i] * r.mode[i] + r.alpha[i];
  const summary: LaplaceSummary = {
    command: "laplace", data: common.data, n, d: p.dataset.d, likelihood,
    lengthscale: Array.from(p.kernel.logLengthscale, Math.exp), signalSd: Math.exp(p.kernel.logSignalSd),
    logZ: r.logZ, iterations: r.iterations, converged: r.converged, gradientNorm: r.gradientNorm, seconds, out: null,
  };
  const file: ApproximationFile = {
    format: APPROXIMATION_FILE_FORMAT, version: APPROXIMATION_FILE_VERSION, method: "laplace", likelihood,
    data: dataPart(common, p.dataset), kernel: kernelPart(p.kernel),
    logZ: r.logZ, iterations: r.iterations, converged: r.converged,
    mean: Array.from(r.mode), sitePrecisions: Array.from(r.w), siteNaturalMeans: Array.from(nu), siteMeans: siteMeansOf(r.w, nu),
    details: { gradientNorm: r.gradientNorm, halvings: r.halvings, logLikelihood: r.logLikelihood, objective: r.objective },
    gpmcmcVersion: VERSION,
  };
  const human: [string, string][] = [
    ["method", `Laplace (${likelihood} likelihood)`],
    ["data", `${common.data}: n = ${n}, d = ${p.dataset.d}`],
    ["lengthscale", lengthscaleText(p.kernel)],
    ["signal sd", `${short(summary.signalSd)} (log ${short(p.kernel.logSignalSd)})`],
    ["log Z", r.logZ.toFixed(6)],
    ["Newton steps", String(r.iterations)],
    ["converged", yesNo(r.converged)],
    ["seconds", seconds.toFixed(2)],
  ];
  return finish("Laplace's Newton iteration", common, summary, file, human, io);
}

// ---------------------------------------------------------------------------------------------
// gpmcmc ep

function parseEpLikelihood(raw: string | undefined): "probit" {
  const name = (raw ?? "probit").trim();
  if (name !== "probit" && (LAPLACE_LIKELIHOODS as readonly string[]).includes(name)) {
    throw new OptionError("--likelihood", `gpmcmc ep supports only probit (EP's sites are implemented for probit), got "${name}"; gpmcmc laplace takes ${LAPLACE_LIKELIHOODS.join(", ")}`);
  }
  return parseChoice("--likelihood", name, EP_LIKELIHOODS, "likelihood");
}

/** Runs `gpmcmc ep` with the given options. Throws OptionError, DataError, OutputError on bad input. */
export function runEp(raw: RawEpOptions, io: CommandIO = processIO): CommandOutcome<EpSummary> {
  const common = parseCommon(raw);
  const likelihood = parseEpLikelihood(raw.likelihood);
  const schedule = parseChoice("--schedule", raw.schedule ?? "sequential", EP_SCHEDULES, "schedule");
  const damping = optional(raw.damping, "--damping", parsePositiveNumber);
  if (damping !== undefined && damping > 1) throw new OptionError("--damping", `must be in (0, 1] (1: no damping), got ${JSON.stringify(raw.damping)}`);
  const form = parseChoice("--correction", raw.correction ?? "cumulant", EP_CORRECTIONS, "correction");
  const order = optional(raw.correctionOrder, "--correction-order", parsePositiveInteger);
  if (order !== undefined && (order < 3 || order > 60)) throw new OptionError("--correction-order", `must be a whole number from 3 to 60, got ${JSON.stringify(raw.correctionOrder)}`);
  const warn = (s: string) => io.stderr(s + "\n");
  const options: EpOptions = {
    schedule,
    damping,
    maxSweeps: optional(raw.maxSweeps, "--max-sweeps", parsePositiveInteger),
    siteTolerance: optional(raw.tolerance, "--tolerance", parsePositiveNumber),
    logZTolerance: optional(raw.logzTolerance, "--logz-tolerance", parsePositiveNumber),
    onWarning: warn,
  };
  if (common.out !== undefined) checkOutputFile(common.out, common.force);
  const p = loadProblem(common, likelihood, raw);
  const t0 = performance.now();
  const ep = expectationPropagation(p.k, probitSites(p.dataset.y), options);
  const corr = epCorrectedLogZ(ep, { form, maxOrder: order, onWarning: warn });
  const seconds = p.kernelSeconds + (performance.now() - t0) / 1000;
  const summary: EpSummary = {
    command: "ep", data: common.data, n: p.dataset.n, d: p.dataset.d, likelihood,
    lengthscale: Array.from(p.kernel.logLengthscale, Math.exp), signalSd: Math.exp(p.kernel.logSignalSd),
    schedule: ep.schedule, damping: ep.damping,
    logZ: ep.logZ, logZCorrected: corr.logZ, correction: corr.correction, correctionForm: corr.form, correctionOrder: corr.maxOrder,
    iterations: ep.sweeps, converged: ep.converged, siteChange: ep.siteChange, logZChange: ep.logZChange, clampedSites: ep.clampedSites,
    seconds, out: null,
  };
  const file: ApproximationFile = {
    format: APPROXIMATION_FILE_FORMAT, version: APPROXIMATION_FILE_VERSION, method: "ep", likelihood,
    data: dataPart(common, p.dataset), kernel: kernelPart(p.kernel),
    logZ: ep.logZ, logZCorrected: corr.logZ,
    correction: { form: corr.form, maxOrder: corr.maxOrder, value: corr.correction, termsByOrder: Array.from(corr.termsByOrder) },
    iterations: ep.sweeps, converged: ep.converged,
    mean: Array.from(ep.mean), sitePrecisions: Array.from(ep.siteTau), siteNaturalMeans: Array.from(ep.siteNu),
    siteMeans: siteMeansOf(ep.siteTau, ep.siteNu),
    details: {
      schedule: ep.schedule, damping: ep.damping, siteChange: ep.siteChange, logZChange: ep.logZChange,
      clampedSites: ep.clampedSites, skippedSites: ep.skippedSites,
    },
    gpmcmcVersion: VERSION,
  };
  const human: [string, string][] = [
    ["method", `EP (probit likelihood), ${ep.schedule} updates, damping ${short(ep.damping)}`],
    ["data", `${common.data}: n = ${p.dataset.n}, d = ${p.dataset.d}`],
    ["lengthscale", lengthscaleText(p.kernel)],
    ["signal sd", `${short(summary.signalSd)} (log ${short(p.kernel.logSignalSd)})`],
    ["log Z_EP", ep.logZ.toFixed(6)],
    ["corrected log Z", corr.logZ.toFixed(6)],
    ["R2", `${corr.correction.toExponential(4)} (${corr.form}, orders 3 to ${corr.maxOrder})`],
    ["sweeps", String(ep.sweeps)],
    ["converged", yesNo(ep.converged)],
    ["seconds", seconds.toFixed(2)],
  ];
  return finish("EP", common, summary, file, human, io);
}

// ---------------------------------------------------------------------------------------------
// Registration

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

function addCommonOptions(cmd: Command): Command {
  return cmd
    .option("--data <file>", "CSV data set: header line, response column y, the other columns inputs")
    .option("--lengthscale <l>", "kernel lengthscale: one value, or one per input column (ARD)")
    .option("--log-lengthscale <t>", "log of the lengthscale (instead of --lengthscale)")
    .option("--signal-sd <s>", "kernel signal sd: k(a, b) = s^2 exp(-|a - b|^2 / (2 l^2))")
    .option("--log-signal-sd <t>", "log of the signal sd (instead of --signal-sd)");
}

function addOutputOptions(cmd: Command): Command {
  return cmd
    .option("--json", "print one JSON object on stdout instead of text")
    .option("--out <file.json>", "write the Gaussian approximation to this JSON file")
    .option("--force", "with --out: replace an existing file that is not a gpmcmc approximation file")
    .option("--strict", `exit with code ${EXIT_NOT_CONVERGED} (and write no --out) when the iteration does not converge`);
}

/** Adds `laplace` and `ep` to the program. */
export function registerApproxCommands(program: Command): void {
  const lap = program
    .command("laplace")
    .description("Laplace's approximation at fixed kernel hyperparameters: print its log marginal likelihood log Z");
  addCommonOptions(lap)
    .option("--likelihood <name>", `likelihood: ${LAPLACE_LIKELIHOODS.join(", ")} (default probit; logistic takes labels -1/+1 or 0/1, poisson counts with exposure 1)`)
    .option("--max-iterations <n>", "at most this many Newton steps (default 100)")
    .option("--tolerance <t>", "converged when max_i |d Psi / d f_i| is below this (default 1e-9)");
  addOutputOptions(lap).addHelpText("after", EXIT_HELP).action((opts: RawLaplaceOptions) => {
    const { exitCode } = runLaplace(opts);
    if (exitCode !== 0) process.exitCode = exitCode;
  });

  const ep = program
    .command("ep")
    .description("expectation propagation for GP probit classification: print log Z_EP and its second-order correction");
  addCommonOptions(ep)
    .option("--likelihood <name>", "likelihood: probit only (the default)")
    .option("--schedule <s>", "site updates: sequential (default) or parallel")
    .option("--damping <d>", "damping in (0, 1] on the site parameters (default 1 sequential, 0.5 parallel)")
    .option("--max-sweeps <n>", "at most this many sweeps over the sites (default 100)")
    .option("--tolerance <t>", "converged when every site moved by less than this over a sweep, relative to its marginal (default 1e-6)")
    .option("--logz-tolerance <t>", "... and log Z_EP changed by less than this (default 1e-8)")
    .option("--correction <form>", "cumulant (default: orders 3..4 of the cumulant expansion) or pairwise (the pair expectations' Hermite series)")
    .option("--correction-order <l>", "highest order kept in the correction, 3 to 60 (default 4 cumulant, 20 pairwise)");
  addOutputOptions(ep).addHelpText("after", EXIT_HELP).action((opts: RawEpOptions) => {
    const { exitCode } = runEp(opts);
    if (exitCode !== 0) process.exitCode = exitCode;
  });
}
