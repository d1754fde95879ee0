/**
 * `gpmcmc simulate --model fitzhugh-nagumo`: the Fitzhugh-Nagumo data of Girolami & Calderhead
 * (2011, Section 10.1.1) as a CSV file with the columns t, V, R (models/fitzhughNagumo/
 * simulate.ts), which `gpmcmc sample --model fitzhugh-nagumo` reads. Every constant has an
 * option; the defaults are the paper's. Options are checked, then the output path, before
 * anything is written; the file is written atomically.
 */
import { refuseOtherModelsSimulateOptions } from "./modelScope.js";
import { randomInt } from "node:crypto";
import type { Command } from "commander";
import { writeFileAtomic } from "../io/atomic.js";
import { formatNumber } from "../io/numbers.js";
import { FN_SIMULATION_DEFAULTS, simulateFitzhughNagumo, type FitzhughNagumoSimulation } from "../models/fitzhughNagumo/simulate.js";
import { VERSION } from "../version.js";
import { checkOutputFile } from "./outputFile.js";
import { OptionError, parseNonNegativeInteger, parseNumber, parsePath, parsePositiveInteger, parsePositiveNumber } from "./options.js";

export interface RawFitzhughNagumoSimulateOptions {
  n?: string;
  seed?: string;
  out?: string;
  force?: boolean;
  json?: boolean;
  a?: string;
  b?: string;
  c?: string;
  v0?: string;
  r0?: string;
  tEnd?: string;
  noiseSd?: string;
}

/** Up to this many observation times. */
export const MAX_FN_TIMES = 100000;

/** Adds the Fitzhugh-Nagumo constants to `simulate`. */
export function addFitzhughNagumoSimulateOptions(cmd: Command): Command {
  const d = FN_SIMULATION_DEFAULTS;
  return cmd
    .option("--a <a>", `fitzhugh-nagumo: parameter a (default ${d.a})`)
    .option("--b <b>", `fitzhugh-nagumo: parameter b (default ${d.b})`)
    .option("--c <c>", `fitzhugh-nagumo: parameter c > 0 (default ${d.c})`)
    .option("--v0 <v>", `fitzhugh-nagumo: V(0) (default ${d.v0})`)
    .option("--r0 <r>", `fitzhugh-nagumo: R(0) (default ${d.r0})`)
    .option("--t-end <t>", `fitzhugh-nagumo: the last observation time; the first is 0 (default ${d.tEnd})`)
    .option("--noise-sd <s>", `fitzhugh-nagumo: sd of the Gaussian noise on V and R (default ${d.noiseSd})`);
}


/** Runs the command; returns what --json prints. */
export function runSimulateFitzhughNagumo(raw: RawFitzhughNagumoSimulateOptions & Record<string, unknown>, io: { stdout?: (s: string) => void } = {}): Record<string, unknown> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  refuseOtherModelsSimulateOptions("fitzhugh-nagumo", raw);
  const d = FN_SIMULATION_DEFAULTS;
  const num = (opt: string, v: string | undefined, fallback: number) => (v === undefined ? fallback : parseNumber(opt, v));
  const settings: FitzhughNagumoSimulation = {
    a: num("--a", raw.a, d.a),
    b: num("--b", raw.b, d.b),
    c: raw.c === undefined ? d.c : parsePositiveNumber("--c", raw.c),
    v0: num("--v0", raw.v0, d.v0),
    r0: num("--r0", raw.r0, d.r0),
    n: raw.n === undefined ? d.n : parsePositiveInteger("--n", raw.n),
    tEnd: raw.tEnd === undefined ? d.tEnd : parsePositiveNumber("--t-end", raw.tEnd),
    noiseSd: raw.noiseSd === undefined ? d.noiseSd : parsePositiveNumber("--noise-sd", raw.noiseSd),
  };
  if (settings.n > MAX_FN_TIMES) throw new OptionError("--n", `must be at most ${MAX_FN_TIMES}, got ${settings.n}`);
  if (raw.out === undefined) throw new OptionError("--out", "is required: the CSV file to write");
  const out = parsePath("--out", raw.out);
  const seed = raw.seed === undefined ? randomInt(0, 2 ** 31) : parseNonNegativeInteger("--seed", raw.seed);
  checkOutputFile(out, raw.force === true, { is: () => false, what: "a file this command may replace", example: "fn.csv" });
  const s = simulateFitzhughNagumo(settings, seed);
  const lines = ["t,V,R"];
  for (let j = 0; j < settings.n; j++) lines.push(`${formatNumber(s.times[j])},${formatNumber(s.v[j])},${formatNumber(s.r[j])}`);
  writeFileAtomic(out, lines.join("\n") + "\n");
  const report = { gpmcmc: VERSION, model: "fitzhugh-nagumo", ...settings, seed, out };
  if (raw.json === true) stdout(JSON.stringify(report) + "\n");
  else {
    stdout(
      `wrote ${out} (${settings.n} times on [0, ${settings.tEnd}], columns t, V, R; a = ${settings.a}, b = ${settings.b}, c = ${settings.c}, V(0) = ${settings.v0}, R(0) = ${settings.r0}, noise sd ${settings.noiseSd}, seed ${seed})\n` +
        `sample it: gpmcmc sample --model fitzhugh-nagumo --data ${out} --noise-sd ${settings.noiseSd} --initial-state ${settings.v0},${settings.r0}\n`,
    );
  }
  return report;
}
