/**
 * What `gpmcmc predict` reads: the training data a run or an approximation was computed on (its
 * SHA-256 checked against the one recorded), the test file (checked like training data, with
 * the same input columns), and the draws of a `sample` run with the configuration its
 * summary.json records, or an approximation file of `ep`/`laplace --out`.
 */
import { binaryCodingOf } from "../likelihoods/registry.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileSha256, readApproximationFile, type ApproximationFile } from "../approx/approximationFile.js";
import { findDrawsFiles, readCmdStanCsv, type CmdStanCsv } from "../io/cmdstanReader.js";
import { labelKindFor, readDataset, takeInputColumn, type Dataset } from "../io/dataset.js";
import { readOutputMarker } from "../io/atomic.js";
import { DataError } from "../io/errors.js";
import { liveLockHolder } from "../io/runLock.js";
import type { JitterSpec, LatentDraws, LogTheta } from "../predict/sources.js";
import type { PredictiveModel } from "../predict/predict.js";
import { MODEL_LIKELIHOODS } from "./modelOptions.js";
import { checkLatentGpResponses } from "../models/latentGpRun.js";

/** The model as recorded by the run or approximation. */
export interface RecordedModel {
  likelihood: PredictiveModel["likelihood"];
  thresholds?: number[];
  noiseSd?: number;
  exposureColumn?: string;
  theta: LogTheta;
  jitter: JitterSpec;
  /** The training data file and its recorded SHA-256 and input columns. */
  dataFile: string;
  sha256: string;
  inputNames: string[];
  n: number;
}

/** Training and test data for a recorded model. */
export interface PredictData {
  train: Dataset;
  test: Dataset;
  /** Poisson with an exposure column: the test cases' exposures. */
  testExposure?: Float64Array;
}


/**
 * Reads the training data (checking that its bytes are those the model was computed on) and the
 * test file (same validation; the response column optional; the same input columns in the same
 * order; responses within the likelihood's support).
 */
export function readPredictData(model: RecordedModel, testPath: string): PredictData {
  if (!existsSync(model.dataFile)) throw new DataError({ file: model.dataFile }, "the training data file recorded by the run is missing; predictions need it (run predict from the directory the run was started in)");
  const sha = fileSha256(model.dataFile);
  if (sha !== model.sha256) throw new DataError({ file: model.dataFile }, `the training data file has changed since the run (SHA-256 ${sha.slice(0, 12)}..., recorded ${model.sha256.slice(0, 12)}...); predictions need the data the run used`);
  const options = { labels: labelKindFor(model.likelihood), binaryCoding: binaryCodingOf(model.likelihood) };
  let train = readDataset(model.dataFile, options);
  let test = readDataset(testPath, { ...options, responseOptional: true });
  let testExposure: Float64Array | undefined;
  if (model.exposureColumn !== undefined) {
    const tr = takeInputColumn(train, model.exposureColumn);
    const te = takeInputColumn(test, model.exposureColumn);
    if (tr === undefined) throw new DataError({ file: model.dataFile }, `has no exposure column ${JSON.stringify(model.exposureColumn)}, which the run used`);
    if (te === undefined) throw new DataError({ file: testPath }, `has no exposure column ${JSON.stringify(model.exposureColumn)}, which the run used (--exposure-column)`);
    const bad = te.values.findIndex((v) => !(v > 0));
    if (bad >= 0) throw new DataError({ file: testPath, columnName: model.exposureColumn }, `data row ${bad + 1} (after the header), column ${JSON.stringify(model.exposureColumn)}: exposure ${te.values[bad]} is not positive`);
    train = tr.data;
    test = te.data;
    testExposure = te.values;
  }
  if (train.n !== model.n) throw new DataError({ file: model.dataFile }, `has ${train.n} cases, the run ${model.n}`);
  const same = test.inputNames.length === train.inputNames.length && test.inputNames.every((name, j) => name === train.inputNames[j]);
  if (!same) {
    const firstDiff = test.inputNames.findIndex((name, j) => name !== train.inputNames[j]);
    const where = firstDiff >= 0 && firstDiff < train.inputNames.length
      ? `input column ${firstDiff + 1} is ${JSON.stringify(test.inputNames[firstDiff])}, in the training data ${JSON.stringify(train.inputNames[firstDiff])}`
      : `${test.inputNames.length} input columns, the training data ${train.inputNames.length}`;
    throw new DataError({ file: testPath }, `input columns differ from the training data ${model.dataFile}: ${where} (names, order and count must match)`);
  }
  if (test.hasResponse !== false) {
    checkLatentGpResponses(test, model.likelihood, {
      ...(model.thresholds ? { thresholds: model.thresholds } : {}),
      ...(model.noiseSd !== undefined ? { noiseSd: model.noiseSd } : {}),
    });
  }
  return { train, test, ...(testExposure ? { testExposure } : {}) };
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new DataError({ file: path }, `cannot be read as JSON: ${(e as Error).message}`);
  }
}

function likelihoodOf(name: unknown, file: string): RecordedModel["likelihood"] {
  if (typeof name !== "string" || !MODEL_LIKELIHOODS.includes(name)) {
    throw new DataError({ file }, `records the likelihood ${JSON.stringify(name)}, which gpmcmc does not predict with (${MODEL_LIKELIHOODS.join(", ")})`);
  }
  return name as RecordedModel["likelihood"];
}

/**
 * Why a gpmcmc output directory without summary.json cannot be predicted from: a run still going,
 * or one that was interrupted (its marker says incomplete: finish it with --resume); undefined
 * where the directory holds no unfinished run.
 */
function unfinishedRun(dir: string): string | undefined {
  const marker = readOutputMarker(dir);
  if (marker === undefined || marker.complete) return undefined;
  const holder = liveLockHolder(dir);
  if (holder !== undefined) return `holds a gpmcmc ${holder.command} run that is still going (process ${holder.pid} on ${holder.host}, since ${holder.startedAt}); predict from it once it has finished`;
  let command = "sample";
  try {
    command = (JSON.parse(readFileSync(join(dir, "run.json"), "utf8")) as { command?: string }).command ?? "sample";
  } catch {
    // no run record: the run stopped before its chains started; --resume says so
  }
  if (command !== "sample") return `holds a gpmcmc ${command} run, not the draws of gpmcmc sample`;
  return `holds a gpmcmc sample run that was interrupted (it has no summary.json); finish it with gpmcmc sample --resume ${dir} and the options it was started with, then predict from it`;
}

/** A `sample` run's model (its summary.json) and its draws (draws_1.csv, ...). */
export function readRun(dir: string): { model: RecordedModel; draws: LatentDraws; files: string[] } {
  const summaryPath = join(dir, "summary.json");
  const unfinished = existsSync(summaryPath) ? undefined : unfinishedRun(dir);
  if (unfinished !== undefined) throw new DataError({ file: dir }, unfinished);
  const files = findDrawsFiles(dir);
  if (!existsSync(summaryPath)) throw new DataError({ file: dir }, "has no summary.json: not the output directory of gpmcmc sample");
  const s = readJson(summaryPath) as { run?: { model?: Record<string, unknown> }; data?: Record<string, unknown>; jitter?: unknown; jitterRelative?: unknown };
  const m = s.run?.model;
  const data = s.data;
  if (!m || !data || typeof data.file !== "string" || typeof data.n !== "number") throw new DataError({ file: summaryPath }, "does not record the run's model and data (fields run.model, data)");
  if (typeof data.sha256 !== "string" || !Array.isArray(data.inputNames)) {
    throw new DataError({ file: summaryPath }, "records no SHA-256 or input columns of the training data (written by an older gpmcmc); run gpmcmc sample again to predict from it");
  }
  const likelihood = likelihoodOf(m.likelihood, summaryPath);
  const lo = (m.likelihoodOptions ?? {}) as { thresholds?: number[]; noiseSd?: number };
  const jitter: JitterSpec = typeof s.jitterRelative === "number" ? { relative: s.jitterRelative } : { absolute: typeof s.jitter === "number" ? s.jitter : 0 };
  const model: RecordedModel = {
    likelihood,
    ...(lo.thresholds ? { thresholds: lo.thresholds } : {}),
    ...(lo.noiseSd !== undefined ? { noiseSd: lo.noiseSd } : {}),
    ...(typeof data.exposureColumn === "string" ? { exposureColumn: data.exposureColumn } : {}),
    theta: { logLengthscale: m.logLengthscale as number[], logSignalSd: m.logSignalSd as number },
    jitter,
    dataFile: data.file,
    sha256: data.sha256,
    inputNames: data.inputNames as string[],
    n: data.n,
  };
  const csvs = files.map(readCmdStanCsv);
  return { model, draws: drawsOf(csvs, model, summaryPath), files };
}

/**
 * The f draws (and theta draws, where the file has the columns log_lengthscale.1.. and
 * log_signal_sd) of each chain; every file must be of this model (its `model` comment and its f.1..f.n).
 */
function drawsOf(csvs: CmdStanCsv[], model: RecordedModel, summaryPath: string): LatentDraws {
  const n = model.n;
  const draws = Math.min(...csvs.map((c) => c.draws));
  if (draws < 1) throw new DataError({ file: csvs[0]!.path }, "holds no draws");
  const f: Float64Array[] = [];
  const theta: Float64Array[] = [];
  for (const csv of csvs) {
    const recorded = csv.config.model;
    if (recorded !== undefined && recorded !== `gp_${model.likelihood}`) {
      throw new DataError({ file: csv.path }, `is from another model (model = ${recorded}; ${summaryPath} says gp_${model.likelihood})`);
    }
    const fCols = Array.from({ length: n }, (_, i) => csv.columns.indexOf(`f.${i + 1}`));
    const missing = fCols.indexOf(-1);
    if (missing >= 0 || csv.columns.includes(`f.${n + 1}`)) {
      throw new DataError({ file: csv.path }, `is from another model: it does not hold exactly the latent values f.1..f.${n} of the ${n} training cases`);
    }
    const fc = new Float64Array(draws * n);
    for (let i = 0; i < n; i++) {
      const col = csv.values[fCols[i]!]!;
      for (let s = 0; s < draws; s++) fc[s * n + i] = col[s]!;
    }
    f.push(fc);
    const ls: number[] = [];
    for (let k = 1; csv.columns.includes(`log_lengthscale.${k}`); k++) ls.push(csv.columns.indexOf(`log_lengthscale.${k}`));
    const sd = csv.columns.indexOf("log_signal_sd");
    if (ls.length > 0 && sd >= 0) {
      const width = ls.length + 1;
      const tc = new Float64Array(draws * width);
      const cols = [...ls, sd];
      for (let s = 0; s < draws; s++) for (let k = 0; k < width; k++) tc[s * width + k] = csv.values[cols[k]!]![s]!;
      theta.push(tc);
    }
  }
  if (theta.length > 0 && theta.length !== csvs.length) throw new DataError({ file: csvs[0]!.path }, "some chains have theta columns (log_lengthscale.*, log_signal_sd) and some do not");
  return theta.length > 0 ? { draws, f, theta } : { draws, f, fixedTheta: model.theta };
}

/** An `ep`/`laplace --out` file's model and approximation. */
export function readApproximation(path: string): { model: RecordedModel; file: ApproximationFile } {
  const file = readApproximationFile(path);
  const jitter = (file as { jitter?: unknown }).jitter;
  const model: RecordedModel = {
    likelihood: likelihoodOf(file.likelihood, path),
    theta: { logLengthscale: file.kernel.logLengthscale, logSignalSd: file.kernel.logSignalSd },
    jitter: { absolute: typeof jitter === "number" ? jitter : 0 },
    dataFile: file.data.path,
    sha256: file.data.sha256,
    inputNames: file.data.inputNames,
    n: file.data.n,
  };
  return { model, file };
}
