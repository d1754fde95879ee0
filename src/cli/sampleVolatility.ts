/**
 * `gpmcmc sample --model volatility`: the stochastic volatility model of Girolami & Calderhead
 * 2011, Section 8 (models/volatility), sampled by the two-block Gibbs sampler of
 * models/volatility/gibbs.ts. The data file has the returns in the column `y`, in time order (an
 * optional column `t` must increase); the draws are beta, sigma, phi, x.1..x.T in CmdStan's CSV
 * layout, so `diagnose` and `report` read the run as any other.
 *
 * --sampler NAME uses one sampler for both blocks, --sampler P,V one for the parameters and one for
 * the volatilities (default the model's SV_DEFAULT, models/volatility/volatilityRun.ts); --step-size
 * and --leapfrog-steps take one value (both blocks) or two (P,V); the leapfrog steps default to
 * the paper's (models/volatility/gibbs.ts).
 * --interweave on|off adds the interweaving block of (sigma, phi) after the two (default on).
 * Everything is checked before sampling: a bad option or data file stops with one line and exit
 * code 2, and nothing is written.
 */
import { vectorNames } from "../io/cmdstan.js";
import type { ModelChainResult } from "../run/modelChainTask.js";
import { summariseRun } from "../run/summary.js";
import { isSvSamplerName, SV_SAMPLER_NAMES, type SvSamplerName } from "../models/volatility/gibbs.js";
import { SV_DEFAULT } from "../models/volatility/volatilityRun.js";
import type { BlockSummary } from "../samplers/kernels/blockGibbs.js";
import { essGeyer } from "../diagnostics/ess.js";
import { VERSION } from "../version.js";
import { refuseOtherModelsOptions } from "./modelScope.js";
import { modelInfo, samplersOfModelWithField } from "../models/registry.js";
import { OptionError, parsePositiveInteger, parsePositiveNumber } from "./options.js";
import { runModelChains, startModelRun, type ModelRunSpec } from "./modelRunResume.js";
import { writeParametricChain, type ModelCommandIO, type RawParametricOptions } from "./sampleParametric.js";
import { fmt, verdictSummary } from "./sampleReport.js";
import { parseSampleOptions } from "./sampleOptions.js";

/** One value for both blocks or two, comma-separated (parameters, volatilities). */
function pairOf<T>(option: string, raw: string | undefined, parse: (option: string, raw: string) => T): [T | undefined, T | undefined] {
  if (raw === undefined) return [undefined, undefined];
  const parts = raw.split(",");
  if (parts.length > 2) throw new OptionError(option, `takes one value (both blocks) or two, parameters then volatilities, got ${JSON.stringify(raw)}`);
  const values = parts.map((p) => parse(option, p.trim()));
  return [values[0], values[values.length - 1]];
}

function parseSvSampler(option: string, raw: string): SvSamplerName {
  if (!isSvSamplerName(raw)) throw new OptionError(option, `${JSON.stringify(raw)} does not apply to --model volatility (its samplers: ${SV_SAMPLER_NAMES.join(", ")}; give one, or two as parameters,volatilities)`);
  return raw;
}

/** Runs `gpmcmc sample --model volatility`; returns the report it printed (undefined: the run was stopped). */
export async function runVolatilitySample(raw: RawParametricOptions, io: ModelCommandIO = {}): Promise<VolatilityReport | undefined> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  refuseOtherModelsOptions("volatility", raw);
  const samplers = pairOf("--sampler", raw.sampler, parseSvSampler);
  const pSampler = samplers[0] ?? SV_DEFAULT.samplers[0];
  const vSampler = samplers[1] ?? SV_DEFAULT.samplers[1];
  const steps = pairOf("--step-size", raw.stepSize, parsePositiveNumber);
  const leapfrog = pairOf("--leapfrog-steps", raw.leapfrogSteps, parsePositiveInteger);
  if (raw.sampler === undefined && raw.leapfrogSteps === undefined) [leapfrog[0], leapfrog[1]] = SV_DEFAULT.leapfrogSteps;
  const trajectories = samplersOfModelWithField("volatility", "leapfrogSteps");
  if (leapfrog[0] !== undefined && !trajectories.includes(pSampler) && !trajectories.includes(vSampler)) throw new OptionError("--leapfrog-steps", `applies only to ${trajectories.join(" and ")}, not ${pSampler},${vSampler}`);
  if (raw.interweave !== undefined && raw.interweave !== "on" && raw.interweave !== "off") throw new OptionError("--interweave", `must be on or off, got ${JSON.stringify(raw.interweave)}`);
  const interweave = raw.interweave === undefined ? SV_DEFAULT.interweave : raw.interweave === "on";
  const o = parseSampleOptions({ ...raw, sampler: pSampler, stepSize: undefined, leapfrogSteps: undefined }, { samplers: SV_SAMPLER_NAMES });
  const start = startModelRun("volatility", raw, o);
  const m = modelInfo.volatility;
  const target = m.buildTarget(m.readData(o.data), { interweave });
  const y = target.y;
  const adapt = raw.adapt !== false;
  const block = (i: 0 | 1) => ({ stepSize: steps[i], leapfrogSteps: leapfrog[i], adapt });
  const samplerName: `${string},${string}` = `${pSampler},${vSampler}`;
  const samplerOptions = { parameters: block(0), volatilities: block(1), interweave: { adapt }, adapt: adapt && o.burnIn > 0 };
  const { init } = m.sampler(target, samplerName, samplerOptions);
  const spec: ModelRunSpec = {
    model: { name: "volatility", interweave }, sampler: { sampler: samplerName, stepSize: steps, leapfrogSteps: leapfrog },
    draws: o.draws, burnIn: o.burnIn, thin: o.thin, chains: o.chains, seed: start.seed, adapt,
  };
  const T = y.length;
  const names = ["beta", "sigma", "phi", ...vectorNames("x", T)];
  // the Gibbs kernel's summary of a chain's blocks (step sizes, acceptance rates), which the chain's worker sends with its result and checkpoints
  const blocksOf = (r: ModelChainResult) => (r.kernelSummary as BlockSummary[] | undefined) ?? [];
  return runModelChains(start, {
    spec, dataFile: o.data, build: { model: "volatility", targetOptions: { interweave }, sampler: samplerName, samplerOptions }, init, adapt: undefined, json: o.json, stdout,
    stderr: io.stderr ?? ((s: string) => void process.stderr.write(s)), handleSigint: io.handleSigint, parallel: o.parallel,
    writeDraws: (out, r) => {
      // the blocks' step sizes after this chain's burn-in (for a checkpoint's draws: as they were at the checkpoint), from the chain's kernel
      const settings: Record<string, string | number> = { parameter_sampler: pSampler, volatility_sampler: vSampler, interweave: interweave ? "on" : "off" };
      for (const s of blocksOf(r)) settings[`${s.name}_stepsize`] = s.stepSize;
      return writeParametricChain(out, r, names, { model: "stochastic_volatility", sampler: samplerName, seed: spec.seed, draws: o.draws, burnIn: o.burnIn, thin: o.thin, chains: o.chains, adapt, dataFile: o.data, settings });
    },
    report: (chains, seconds, files) => {
      const summary = summariseRun(chains, { names, seconds, thin: o.thin, remedies: { stepSize: "--step-size" } });
      // each chain's block step sizes and acceptance rates, read as it ended
      const blocks = chains.map(blocksOf);
      const essOf = (j: number) => essGeyer(chains.map((r) => Float64Array.from({ length: r.draws }, (_, i) => r.samples[i * (3 + T) + j])));
      const parameterEss = { beta: essOf(0), sigma: essOf(1), phi: essOf(2) };
      const vEss = names.slice(3).map((_, k) => essOf(3 + k)).sort((a, b) => a - b);
      const volatilityEss = { min: vEss[0], median: vEss[Math.floor(T / 2)], max: vEss[T - 1] };
      return {
        ...summary, gpmcmc: VERSION, model: "volatility", sampler: samplerName, interweave, seed: spec.seed, data: { file: o.data, T },
        parameterEss, volatilityEss, blocks, out: start.outPath ?? null, files: start.outPath !== undefined ? [...files, "summary.json"] : [],
      };
    },
    format: formatVolatilityReport,
  });
}

type VolatilityReport = ReturnType<typeof summariseRun> & {
  sampler: string; interweave: boolean; data: { file: string; T: number }; parameterEss: { beta: number; sigma: number; phi: number }; volatilityEss: { min: number; median: number; max: number };
  blocks: BlockSummary[][]; out: string | null; files: string[];
};

function formatVolatilityReport(r: VolatilityReport): string {
  const [pSampler, vSampler] = r.sampler.split(",");
  const judged = verdictSummary(r);
  const lines = [
    `stochastic volatility on ${r.data.file} (T = ${r.data.T}), samplers ${pSampler} (beta, sigma, phi) and ${vSampler} (x.1..x.${r.data.T})${r.interweave ? ", then (sigma, phi) interweaved" : ""}`,
    `${r.chains} chains x ${r.draws} draws; acceptance rates ${r.blocks.map((b, c) => `chain ${c + 1}: ${b.map((s) => `${s.name} ${fmt(s.acceptanceRate)}`).join(", ")}`).join("; ")}; divergences ${r.divergences}`,
    `ESS (Geyer): beta ${fmt(r.parameterEss.beta)}, sigma ${fmt(r.parameterEss.sigma)}, phi ${fmt(r.parameterEss.phi)}; x min ${fmt(r.volatilityEss.min)}, median ${fmt(r.volatilityEss.median)}, max ${fmt(r.volatilityEss.max)}`,
    `R-hat (classic, max over beta, sigma, phi, x): ${r.chains < 2 ? "n/a with one chain" : `${fmt(r.rhatMax)}${r.rhatMaxVariable ? ` (${r.rhatMaxVariable})` : ""}`}`,
    ...judged.figures,
    `time: ${fmt(r.samplingSeconds)} s of sampling summed over chains, ${fmt(r.seconds)} s wall-clock with burn-in; min ESS per second of sampling ${fmt(r.essPerSecond)}`,
  ];
  if (r.out !== null) lines.push(`wrote ${r.files.map((f) => `${r.out}/${f}`).join(", ")}`);
  return [...lines, ...judged.verdict].join("\n") + "\n";
}
