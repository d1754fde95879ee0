/**
 * Run directories for the report's tests, written with the library's own writers: chains of
 * AR(1) variables in CmdStan's layout, and an AIS trace.
 */
import { join } from "node:path";
import { writeCmdStanCsv, vectorNames, type DrawStats } from "../../src/io/cmdstan.js";
import { writeAisTrace, type AisTrace } from "../../src/io/ais.js";
import { Rng } from "../../src/random/rng.js";
import type { LineFigureSpec } from "../../src/report/lineFigure.js";

export interface SyntheticRunOptions {
  chains?: number;
  draws?: number;
  /** Number of model variables f.1 .. f.n. */
  variables?: number;
  /** Autocorrelation of f.1; later variables are more autocorrelated, up to 0.9. */
  phi?: number;
  seed?: number;
  /** Adds `by` to every draw of variable `variable` (1-based) in chain `chain` (1-based): chains that disagree. */
  shift?: { variable: number; chain: number; by: number };
  /** Marks draws t = k, 2k, ... of chain 1 as divergent. */
  divergentEvery?: number;
  /** Draws per chain, when they differ (overrides `draws`). */
  drawsPerChain?: number[];
  /** Model name written in the config comments. */
  model?: string;
}

/** Writes draws_1.csv, ... into `dir`; returns the variable names. */
export function writeSyntheticRun(dir: string, options: SyntheticRunOptions = {}): string[] {
  const chains = options.chains ?? 4;
  const n = options.variables ?? 6;
  const phi0 = options.phi ?? 0.5;
  const names = vectorNames("f", n);
  for (let c = 0; c < chains; c++) {
    const draws = options.drawsPerChain?.[c] ?? options.draws ?? 400;
    const rng = new Rng(options.seed ?? 1, c);
    const values = new Float64Array(draws * n);
    const stats: DrawStats[] = [];
    const state = new Float64Array(n);
    for (let j = 0; j < n; j++) state[j] = rng.normal();
    for (let t = 0; t < draws; t++) {
      let lp = 0;
      for (let j = 0; j < n; j++) {
        const phi = Math.min(0.9, phi0 + ((0.9 - phi0) * j) / Math.max(1, n - 1));
        state[j] = phi * state[j] + Math.sqrt(1 - phi * phi) * rng.normal();
        let v = state[j];
        if (options.shift && options.shift.variable === j + 1 && options.shift.chain === c + 1) v += options.shift.by;
        values[t * n + j] = v;
        lp -= 0.5 * v * v;
      }
      let kinetic = 0;
      for (let j = 0; j < n; j++) kinetic += 0.5 * rng.normal() ** 2;
      const k = options.divergentEvery;
      stats.push({
        lp,
        acceptStat: 0.55 + 0.45 * rng.uniform(),
        stepSize: 0.1 * (1 + c / 10),
        nLeapfrog: 10,
        divergent: c === 0 && k !== undefined && t > 0 && t % k === 0,
        energy: -lp + kinetic,
      });
    }
    writeCmdStanCsv(
      join(dir, `draws_${c + 1}.csv`),
      { model: options.model ?? "synthetic_ar1", sampler: "hmc", draws, burnIn: 100, chain: c + 1, chains, seed: options.seed ?? 1, adapt: true, stepSize: 0.1, settings: { leapfrog_steps: 10 } },
      { variables: names, stats, values, adaptation: { stepSize: 0.1 * (1 + c / 10) }, timing: { warmupSeconds: 0.5, samplingSeconds: 1.5 + c / 10 } },
    );
  }
  return names;
}

/** An AIS trace: `runs` runs of `steps` temperatures each, final log weights scattered around logZ. */
export function syntheticAisTrace(options: { runs?: number; steps?: number; logZ?: number; seed?: number } = {}): AisTrace {
  const runs = options.runs ?? 5;
  const steps = options.steps ?? 20;
  const logZ = options.logZ ?? -105.4;
  const rng = new Rng(options.seed ?? 7, 0);
  const out: AisTrace = { logZ, standardError: 0.15, runs: [], references: [{ label: "EP", logZ: logZ - 0.6 }, { label: "corrected EP", logZ: logZ - 0.1, standardError: 0.05 }] };
  for (let r = 1; r <= runs; r++) {
    const speed = 0.8 + 0.4 * rng.uniform();
    const end = logZ + 0.3 * rng.normal();
    const points = [];
    for (let k = 0; k <= steps; k++) {
      const beta = k / steps;
      points.push({ seconds: k * speed, temperature: beta, logWeight: k === steps ? end : end * Math.pow(beta, 0.7) + 0.2 * rng.normal() * beta });
    }
    out.runs.push({ run: r, points });
  }
  return out;
}

/** Writes ais.json into `dir`. */
export function writeSyntheticAis(dir: string, options: Parameters<typeof syntheticAisTrace>[0] = {}): AisTrace {
  const trace = syntheticAisTrace(options);
  writeAisTrace(join(dir, "ais.json"), trace);
  return trace;
}

/** log Z against seconds for three AIS variants, with EP and corrected-EP lines: the note's Figure 2 shape. */
export function figure2Spec(): LineFigureSpec {
  const seconds = [1, 3, 10, 30, 100, 300];
  return {
    title: "log Z against computing time",
    xLabel: "seconds",
    yLabel: "log Z",
    xLog: true,
    series: [
      { name: "AIS, RMHMC", x: seconds, y: [-105.6, -106.0, -106.3, -106.4, -106.45, -106.5], error: [0.8, 0.57, 0.46, 0.4, 0.36, 0.33] },
      { name: "AIS, HMC", x: seconds.map((s) => 1.3 * s), y: [-107.5, -106.9, -106.6, -106.4, -106.2, -106.1], error: [1, 0.7, 0.58, 0.5, 0.45, 0.41] },
      { name: "AIS, elliptical slice", x: seconds.map((s) => 0.8 * s), y: [-109, -108.1, -107.4, -107.0, -106.8, -106.6], dashed: true },
    ],
    references: [
      { y: -106.9, label: "EP" },
      { y: -106.4, label: "corrected EP", band: 0.1 },
    ],
  };
}
