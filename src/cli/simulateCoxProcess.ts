/**
 * `gpmcmc simulate --model lgcp`: the synthetic data of Girolami & Calderhead (2011), Section 9.1
 * (models/coxProcess/simulate.ts): a latent field on an n x n grid (--grid, default 64) and Poisson
 * counts (the covariance of --covariance: euclidean, the paper's, by default, or separable), written as one CSV file with the columns row, column, y (the counts) and field (the true
 * latent field), which `gpmcmc sample --model lgcp` reads. Everything is checked before the file
 * is written, atomically.
 */
import { refuseOtherModelsSimulateOptions } from "./modelScope.js";
import { randomInt } from "node:crypto";
import { writeFileAtomic } from "../io/atomic.js";
import { countGridCsv } from "../io/countGrid.js";
import { simulateCoxProcess } from "../models/coxProcess/simulate.js";
import { VERSION } from "../version.js";
import { parseCoxHyperparameters, parseGridCovariance, withEmbeddableCovariance, type RawCoxProcessOptions } from "./coxProcessOptions.js";
import { checkOutputFile } from "./outputFile.js";
import { OptionError, parseNonNegativeInteger, parsePath, parsePositiveInteger } from "./options.js";

export interface RawSimulateCoxOptions extends RawCoxProcessOptions {
  grid?: string;
  seed?: string;
  out?: string;
  truth?: string;
  likelihood?: string;
  n?: string;
  d?: string;
  force?: boolean;
  json?: boolean;
}

/** Grid sides up to this (N = side^2 cells). */
export const MAX_GRID_SIDE = 512;

export function runSimulateCoxProcess(raw: RawSimulateCoxOptions, io: { stdout?: (text: string) => void } = {}): Record<string, unknown> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  refuseOtherModelsSimulateOptions("lgcp", raw);
  const side = raw.grid === undefined ? 64 : parsePositiveInteger("--grid", raw.grid);
  if (side > MAX_GRID_SIDE) throw new OptionError("--grid", `must be at most ${MAX_GRID_SIDE}, got ${side}`);
  const hyper = parseCoxHyperparameters(raw);
  const covariance = parseGridCovariance(raw);
  if (raw.out === undefined) throw new OptionError("--out", "is required: the CSV file to write");
  const out = parsePath("--out", raw.out);
  const seed = raw.seed === undefined ? randomInt(0, 2 ** 31) : parseNonNegativeInteger("--seed", raw.seed);
  checkOutputFile(out, raw.force === true, { is: () => false, what: "a file this command may replace", example: "lgcp.csv" });
  const sim = withEmbeddableCovariance(() => simulateCoxProcess(side, hyper, seed, undefined, covariance));
  writeFileAtomic(out, countGridCsv(side, sim.counts, sim.field));
  let total = 0;
  for (const c of sim.counts) total += c;
  const report = { gpmcmc: VERSION, model: "lgcp", out, grid: side, cells: side * side, seed, covariance, sigma2: hyper.sigma2, beta: hyper.beta, mu: hyper.mu, cellArea: sim.cellArea, totalCount: total };
  if (raw.json === true) stdout(JSON.stringify(report) + "\n");
  else stdout(`wrote ${out} (${side} x ${side} grid, ${total} points, ${covariance} covariance; columns row, column, y, field; seed ${seed})\n`);
  return report;
}
