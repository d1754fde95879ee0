/**
 * `gpmcmc predict`: predictions at the inputs of a test file from the draws of a `sample` run
 * (--run DIR) or from an EP or Laplace approximation (--approx FILE.json), with the scores when
 * the test file has responses. The numbers are src/predict's (comparison paper, eq. 2-3).
 *
 * Output CSV (--out): one row per test case; mean_f, sd_f, then p (binary: p(y = +1)),
 * mean_y, lower_90, upper_90 (poisson), p.1 .. p.r (ordinal) or sd_y (volatility).
 */
import { likelihoodTraits } from "../likelihoods/registry.js";
import { resolve } from "node:path";
import type { Command } from "commander";
import { writeFileAtomic } from "../io/atomic.js";
import { formatNumber } from "../io/numbers.js";
import type { Prediction, PredictionScores, PredictiveModel } from "../predict/predict.js";
import { predictFromApproximation, predictFromDraws } from "../predict/sources.js";
import { table } from "./approxCommon.js";
import { processIO, type CommandIO } from "./commandIO.js";
import { checkOutputFile } from "./outputFile.js";
import { OptionError, parsePath } from "./options.js";
import { readApproximation, readPredictData, readRun, type RecordedModel } from "./predictInputs.js";
import { readFileSync } from "node:fs";

export interface RawPredictOptions {
  run?: string;
  approx?: string;
  test?: string;
  out?: string;
  json?: boolean;
  force?: boolean;
}

/** What `gpmcmc predict --json` prints. */
export interface PredictSummary {
  command: "predict";
  /** "run DIR" or "approx FILE". */
  source: string;
  method: string;
  likelihood: string;
  test: string;
  m: number;
  /** Draws averaged over (chains x draws; 1 for an approximation). */
  draws: number;
  /** With test responses. */
  scores: PredictionScores | null;
  seconds: number;
  out: string | null;
}

/** The header of the output CSV for a likelihood (r: ordinal categories). */
export function predictionColumns(likelihood: string, r = 0): string[] {
  const cols = ["mean_f", "sd_f"];
  switch (likelihoodTraits(likelihood)?.predictive) {
    case "class-probability": cols.push("p"); break;
    case "count": cols.push("mean_y", "lower_90", "upper_90"); break;
    case "categories": for (let k = 1; k <= r; k++) cols.push(`p.${k}`); break;
    case "sd": cols.push("sd_y"); break;
    case undefined: break;
  }
  return cols;
}

/** The output CSV's text. */
export function predictionCsv(likelihood: string, p: Prediction): string {
  const r = p.classes ?? 0;
  const lines = [predictionColumns(likelihood, r).join(",")];
  for (let j = 0; j < p.meanF.length; j++) {
    const row = [p.meanF[j]!, p.sdF[j]!];
    if (p.pPositive) row.push(p.pPositive[j]!);
    if (p.countMean) row.push(p.countMean[j]!, p.countLower![j]!, p.countUpper![j]!);
    if (p.classProbabilities) for (let k = 0; k < r; k++) row.push(p.classProbabilities[j * r + k]!);
    if (p.sdY) row.push(p.sdY[j]!);
    lines.push(row.map(formatNumber).join(","));
  }
  return lines.join("\n") + "\n";
}

function isPredictionCsv(path: string): boolean {
  try {
    return readFileSync(path, "utf8").startsWith("mean_f,sd_f");
  } catch {
    return false;
  }
}

function predictiveModel(model: RecordedModel, testExposure: Float64Array | undefined): PredictiveModel {
  const options = {
    ...(model.thresholds ? { thresholds: model.thresholds } : {}),
    ...(model.noiseSd !== undefined ? { noiseSd: model.noiseSd } : {}),
    ...(testExposure ? { exposure: testExposure } : {}),
  };
  return { likelihood: model.likelihood, options };
}

/** Runs `gpmcmc predict`. Throws OptionError, DataError, OutputError on bad input, before writing anything. */
export function runPredict(raw: RawPredictOptions, io: CommandIO = processIO): PredictSummary {
  if ((raw.run === undefined) === (raw.approx === undefined)) {
    throw new OptionError(raw.run === undefined ? "--run" : "--approx", raw.run === undefined
      ? "or --approx is required: the output directory of gpmcmc sample, or the file of gpmcmc ep|laplace --out"
      : "and --run exclude each other: predict from one of them");
  }
  if (raw.test === undefined) throw new OptionError("--test", "is required: the CSV file of test inputs (the training data's input columns; y optional)");
  const test = parsePath("--test", raw.test);
  const out = raw.out === undefined ? undefined : parsePath("--out", raw.out);
  if (out !== undefined && resolve(out) === resolve(test)) throw new OptionError("--out", `is the test file ${JSON.stringify(test)}; give another file name`);
  if (out !== undefined) checkOutputFile(out, raw.force === true, { is: isPredictionCsv, what: "a gpmcmc predictions file", example: "predictions.csv" });

  const t0 = performance.now();
  let prediction: Prediction;
  let model: RecordedModel;
  let source: string;
  let method: string;
  let draws: number;
  if (raw.run !== undefined) {
    const dir = parsePath("--run", raw.run);
    const run = readRun(dir);
    model = run.model;
    const data = readPredictData(model, test);
    const yStar = data.test.hasResponse === false ? undefined : data.test.y;
    prediction = predictFromDraws(predictiveModel(model, data.testExposure), data.train.X, run.draws, data.test.X, { jitter: model.jitter, ...(yStar ? { yStar } : {}) });
    source = `run ${dir}`;
    method = `MCMC, ${run.draws.f.length} ${run.draws.f.length === 1 ? "chain" : "chains"} x ${run.draws.draws} draws${run.draws.theta ? ", hyperparameters sampled" : ", fixed hyperparameters"}`;
    draws = run.draws.f.length * run.draws.draws;
  } else {
    const path = parsePath("--approx", raw.approx!);
    const approx = readApproximation(path);
    model = approx.model;
    const data = readPredictData(model, test);
    const yStar = data.test.hasResponse === false ? undefined : data.test.y;
    const q = { ...model.theta, mean: approx.file.mean, sitePrecisions: approx.file.sitePrecisions };
    prediction = predictFromApproximation(predictiveModel(model, data.testExposure), data.train.X, q, data.test.X, { jitter: model.jitter, ...(yStar ? { yStar } : {}) });
    source = `approx ${path}`;
    method = approx.file.method === "ep" ? "EP" : "Laplace";
    draws = 1;
  }
  const seconds = (performance.now() - t0) / 1000;
  const summary: PredictSummary = {
    command: "predict", source, method, likelihood: model.likelihood, test, m: prediction.meanF.length, draws,
    scores: prediction.scores ?? null, seconds, out: null,
  };
  if (out !== undefined) {
    writeFileAtomic(out, predictionCsv(model.likelihood, prediction));
    summary.out = out;
  }
  io.stdout(raw.json ? JSON.stringify(summary) + "\n" : summaryText(summary));
  return summary;
}

function withMcse(x: number, mcse: number | undefined): string {
  const v = x.toFixed(4);
  return mcse !== undefined && Number.isFinite(mcse) ? `${v} (MCSE ${mcse.toFixed(4)})` : v;
}

function summaryText(s: PredictSummary): string {
  const rows: [string, string][] = [
    ["predictions", `${s.m} test cases of ${s.test}`],
    ["from", `${s.source}: ${s.method}, ${s.likelihood} likelihood`],
  ];
  const sc = s.scores;
  if (sc) {
    rows.push(["mean log pred. density", withMcse(sc.meanLogPredictiveDensity, sc.meanLogPredictiveDensityMcse)]);
    if (sc.errorRate !== undefined) rows.push(["error rate", sc.errorRate.toFixed(4)]);
    if (sc.brier !== undefined) rows.push(["Brier score", withMcse(sc.brier, sc.brierMcse)]);
    if (sc.auc !== undefined) rows.push(["AUC", Number.isFinite(sc.auc) ? sc.auc.toFixed(4) : "n/a (one class only)"]);
  }
  if (s.out !== null) rows.push(["written", s.out]);
  return table(rows);
}

/** Adds `predict` to the program. */
export function registerPredictCommand(program: Command): void {
  program
    .command("predict")
    .description("predictions at test inputs from a sample run's draws (--run) or an ep/laplace approximation (--approx), with scores when the test file has y")
    .option("--run <dir>", "output directory of gpmcmc sample --out (draws_*.csv and summary.json)")
    .option("--approx <file.json>", "approximation file of gpmcmc ep --out or gpmcmc laplace --out")
    .option("--test <file>", "CSV of test inputs: the training data's input columns, same names and order (and the exposure column for poisson); column y optional")
    .option("--out <file.csv>", "write one row per test case: mean_f,sd_f and p (binary), mean_y,lower_90,upper_90 (poisson), p.1..p.r (ordinal) or sd_y (volatility)")
    .option("--force", "with --out: replace an existing file that is not a gpmcmc predictions file")
    .option("--json", "print one JSON object on stdout instead of text")
    .action((opts: RawPredictOptions) => {
      runPredict(opts);
    });
}
