/**
 * The file `gpmcmc ep --out` and `gpmcmc laplace --out` write: a Gaussian approximation
 * q(f) = N(mu, Sigma) to the posterior of a latent GP, in site form,
 *   Sigma^-1 = K^-1 + diag(sitePrecisions),   Sigma^-1 mu = siteNaturalMeans,
 * with the data and kernel it was computed for, so that a later run (AIS started from q, the
 * annealed target of note eq. (4)) can rebuild K, check that it has the same data, and use q
 * without recomputing it. Sigma itself is not stored (n^2 numbers); it follows from K and the
 * site precisions.
 *
 * For EP the sites are EP's (tau~, nu~). For Laplace, q = N(f^, (K^-1 + W)^-1) in the same form:
 * sitePrecisions = W, siteNaturalMeans = W f^ + K^-1 f^ (= (K^-1 + W) f^).
 *
 * JSON numbers are written in shortest round-trip form, so a value read back is the value that
 * was computed. A site with precision 0 has no finite mean: its `siteMeans` entry is null.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { DataError } from "../io/errors.js";
import type { GaussianApproximation } from "../targets/latentModel.js";

/** The value of the `format` field. */
export const APPROXIMATION_FILE_FORMAT = "gpmcmc-gaussian-approximation";
/** The version of the layout below; a reader refuses others. */
export const APPROXIMATION_FILE_VERSION = 1;

export interface ApproximationFile {
  format: typeof APPROXIMATION_FILE_FORMAT;
  version: typeof APPROXIMATION_FILE_VERSION;
  /** Which approximation: "ep" or "laplace". */
  method: "ep" | "laplace";
  /** The likelihood's command-line name (EP: always "probit"). */
  likelihood: string;
  data: {
    /** The data file as given on the command line. */
    path: string;
    /** SHA-256 (hex) of the data file's bytes, to check that a later run uses the same data. */
    sha256: string;
    n: number;
    d: number;
    inputNames: string[];
    responseName: string;
  };
  /** k(a, b) = exp(2 logSignalSd) exp(-1/2 sum_d (a_d - b_d)^2 / exp(2 logLengthscale_d)). */
  kernel: {
    name: "squared-exponential";
    /** One value (shared) or one per input column. */
    logLengthscale: number[];
    logSignalSd: number;
  };
  /** log Z of the approximation (EP: log Z_EP; Laplace: GPML eq. 3.32). */
  logZ: number;
  /** EP only: log Z_EP plus the second-order correction. */
  logZCorrected?: number;
  /** EP only: the correction and how it was computed. */
  correction?: { form: "cumulant" | "pairwise"; maxOrder: number; value: number; termsByOrder: number[] };
  /** EP: sweeps; Laplace: Newton steps. */
  iterations: number;
  converged: boolean;
  /** Posterior mean mu (EP) or mode f^ (Laplace), length n. */
  mean: number[];
  /** Site precisions (EP: tau~; Laplace: W), each >= 0, length n. */
  sitePrecisions: number[];
  /** Site natural means (EP: nu~; Laplace: W f^ + K^-1 f^), length n. */
  siteNaturalMeans: number[];
  /** siteNaturalMeans / sitePrecisions, null where the precision is 0, length n. */
  siteMeans: (number | null)[];
  /** Method-specific convergence details (numbers and strings only). */
  details: Record<string, number | string>;
  /** gpmcmc version that wrote the file. */
  gpmcmcVersion: string;
}

/** SHA-256 (hex) of a file's bytes; a failure to read is a DataError naming the file. */
export function fileSha256(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new DataError({ file: path }, `cannot be read: ${(e as Error).message}`);
  }
  return createHash("sha256").update(bytes).digest("hex");
}

/** Site means from natural parameters (null where the precision is 0). */
export function siteMeansOf(precisions: ArrayLike<number>, naturalMeans: ArrayLike<number>): (number | null)[] {
  return Array.from(precisions, (t, i) => (t > 0 ? naturalMeans[i] / t : null));
}

/** q in the form the annealed target takes (LatentModelOptions.q). */
export function gaussianApproximationOf(file: ApproximationFile): GaussianApproximation {
  return { mean: Float64Array.from(file.mean), sitePrecisions: Float64Array.from(file.sitePrecisions) };
}

/**
 * Reads and checks an approximation file: the format and version, the lengths of the vectors
 * against data.n, finite numbers, non-negative precisions. Throws DataError naming the file and
 * the field at the first problem.
 */
export function readApproximationFile(path: string): ApproximationFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new DataError({ file: path }, code === "ENOENT" ? "no such file" : `cannot be read: ${(e as Error).message}`);
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new DataError({ file: path }, `not JSON: ${(e as Error).message}`);
  }
  return checkApproximationFile(v, path);
}

/** Checks a parsed approximation file (see readApproximationFile); `path` names it in messages. */
export function checkApproximationFile(v: unknown, path: string): ApproximationFile {
  const bad = (field: string, what: string): never => {
    throw new DataError({ file: path }, `field "${field}" ${what}`);
  };
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new DataError({ file: path }, "not a JSON object");
  const o = v as Record<string, unknown>;
  if (o.format !== APPROXIMATION_FILE_FORMAT) {
    throw new DataError({ file: path }, `not a gpmcmc approximation file (field "format" is ${JSON.stringify(o.format)}, expected "${APPROXIMATION_FILE_FORMAT}")`);
  }
  if (o.version !== APPROXIMATION_FILE_VERSION) bad("version", `is ${JSON.stringify(o.version)}; this gpmcmc reads version ${APPROXIMATION_FILE_VERSION}`);
  if (o.method !== "ep" && o.method !== "laplace") bad("method", `must be "ep" or "laplace", got ${JSON.stringify(o.method)}`);
  if (typeof o.likelihood !== "string") bad("likelihood", "must be a string");
  const data = o.data as Record<string, unknown> | undefined;
  if (typeof data !== "object" || data === null) bad("data", "is missing");
  const n = data!.n;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 1) bad("data.n", `must be a whole number >= 1, got ${JSON.stringify(n)}`);
  const kernel = o.kernel as Record<string, unknown> | undefined;
  if (typeof kernel !== "object" || kernel === null) bad("kernel", "is missing");
  if (kernel!.name !== "squared-exponential") bad("kernel.name", `must be "squared-exponential", got ${JSON.stringify(kernel!.name)}`);
  const finiteArray = (field: string, a: unknown, length?: number): number[] => {
    if (!Array.isArray(a)) return bad(field, "must be an array of numbers");
    if (length !== undefined && a.length !== length) bad(field, `has ${a.length} entries, expected ${length} (data.n)`);
    a.forEach((x, i) => {
      if (typeof x !== "number" || !Number.isFinite(x)) bad(field, `entry ${i + 1} is ${JSON.stringify(x)}, not a finite number`);
    });
    return a as number[];
  };
  const logL = finiteArray("kernel.logLengthscale", kernel!.logLengthscale);
  if (logL.length === 0) bad("kernel.logLengthscale", "is empty");
  if (typeof kernel!.logSignalSd !== "number" || !Number.isFinite(kernel!.logSignalSd)) bad("kernel.logSignalSd", "must be a finite number");
  if (typeof o.logZ !== "number" || !Number.isFinite(o.logZ)) bad("logZ", "must be a finite number");
  if (typeof o.converged !== "boolean") bad("converged", "must be true or false");
  finiteArray("mean", o.mean, n as number);
  const tau = finiteArray("sitePrecisions", o.sitePrecisions, n as number);
  tau.forEach((t, i) => {
    if (t < 0) bad("sitePrecisions", `entry ${i + 1} is ${t}; site precisions are >= 0`);
  });
  finiteArray("siteNaturalMeans", o.siteNaturalMeans, n as number);
  return o as unknown as ApproximationFile;
}
