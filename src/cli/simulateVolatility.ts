/**
 * `gpmcmc simulate --model volatility`: returns of the stochastic volatility model (Girolami &
 * Calderhead 2011, Section 8.3; models/volatility/svSimulate.ts), T = 2000, beta = 0.65,
 * sigma = 0.15, phi = 0.98 unless given, as a CSV file with the columns t and y that
 * `gpmcmc sample --model volatility` reads; with --truth, a JSON file with the seed, the
 * parameters and the true volatilities x. Options are checked before anything is written; each
 * file is written atomically, the truth file first.
 */
import { refuseOtherModelsSimulateOptions } from "./modelScope.js";
import { randomInt } from "node:crypto";
import { resolve } from "node:path";
import { writeFileAtomic, writeJsonAtomic } from "../io/atomic.js";
import { SV_MIN_OBSERVATIONS, SV_TRUTH } from "../models/volatility/svModel.js";
import { simulateVolatility } from "../models/volatility/svSimulate.js";
import { VERSION } from "../version.js";
import { checkOutputFile } from "./outputFile.js";
import { OptionError, parseNonNegativeInteger, parseNumber, parsePath, parsePositiveInteger, parsePositiveNumber } from "./options.js";

export interface RawVolatilitySimulateOptions {
  model?: string;
  likelihood?: string;
  n?: string;
  d?: string;
  t?: string;
  beta?: string;
  sigma?: string;
  phi?: string;
  seed?: string;
  out?: string;
  truth?: string;
  force?: boolean;
  json?: boolean;
}

/** At most this many returns (the draws files have one column per volatility). */
export const MAX_SIMULATED_T = 1_000_000;

/** Runs `gpmcmc simulate --model volatility`; returns what --truth holds (without writing it when not asked). */
export function runVolatilitySimulate(raw: RawVolatilitySimulateOptions, io: { stdout?: (s: string) => void } = {}): Record<string, unknown> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  refuseOtherModelsSimulateOptions("volatility", raw);
  const T = raw.t === undefined ? SV_TRUTH.T : parsePositiveInteger("--t", raw.t);
  if (T < SV_MIN_OBSERVATIONS || T > MAX_SIMULATED_T) throw new OptionError("--t", `must be from ${SV_MIN_OBSERVATIONS} to ${MAX_SIMULATED_T}, got ${T}`);
  const beta = raw.beta === undefined ? SV_TRUTH.beta : parsePositiveNumber("--beta", raw.beta);
  const sigma = raw.sigma === undefined ? SV_TRUTH.sigma : parsePositiveNumber("--sigma", raw.sigma);
  const phi = raw.phi === undefined ? SV_TRUTH.phi : parseNumber("--phi", raw.phi);
  for (const [name, v] of [["--beta", beta], ["--sigma", sigma]] as const) if (!Number.isFinite(v)) throw new OptionError(name, `must be finite, got ${v}`);
  if (!(phi > -1 && phi < 1)) throw new OptionError("--phi", `must lie strictly between -1 and 1 (a stationary AR(1)), got ${phi}`);
  if (raw.out === undefined) throw new OptionError("--out", "is required: the CSV file to write");
  const out = parsePath("--out", raw.out);
  const truthFile = raw.truth === undefined ? undefined : parsePath("--truth", raw.truth);
  if (truthFile !== undefined && resolve(truthFile) === resolve(out)) throw new OptionError("--truth", `is the --out file ${JSON.stringify(out)}; give another file name`);
  const seed = raw.seed === undefined ? randomInt(0, 2 ** 31) : parseNonNegativeInteger("--seed", raw.seed);
  const notOurs = { is: () => false, what: "a file this command may replace", example: "returns.csv" };
  checkOutputFile(out, raw.force === true, notOurs);
  if (truthFile !== undefined) checkOutputFile(truthFile, raw.force === true, { ...notOurs, example: "truth.json" });

  const { y, x } = simulateVolatility(T, beta, sigma, phi, seed);
  const truth = { gpmcmc: VERSION, model: "volatility", design: "Girolami & Calderhead, Section 8.3: y_t = beta exp(x_t / 2) eps_t, stationary AR(1) x", T, beta, sigma, phi, seed, data: out, x: Array.from(x) };
  if (truthFile !== undefined) writeJsonAtomic(truthFile, truth);
  const lines = ["t,y"];
  for (let t = 0; t < T; t++) lines.push(`${t + 1},${y[t]}`);
  writeFileAtomic(out, lines.join("\n") + "\n");
  const { x: _x, ...rest } = truth;
  if (raw.json === true) stdout(JSON.stringify({ ...rest, truth: truthFile ?? null }) + "\n");
  else stdout(`wrote ${out} (${T} returns, columns t and y; beta ${beta}, sigma ${sigma}, phi ${phi}, seed ${seed})${truthFile ? ` and ${truthFile} (parameters, x)` : ""}\nsample it: gpmcmc sample --model volatility --data ${out}\n`);
  return truth;
}
