// RMHMC's divergent transitions on the peer's probit sets (n = 100 and 400, lengthscale e^-2,
// variance e^2, jitter 1e-6 x variance), before and after the changes that remove them, chains
// interleaved in one run: for each n and seed, one `rmhmc` chain from f = 0 with its defaults
// (10 leapfrog steps, fixed points to 1e-8, the reversibility check, step size adapted by dual
// averaging towards 0.9 in burn-in) as
//   before: the momentum equation (13) by its plain fixed-point iteration, and dual averaging
//           that takes the acceptance statistic as reported (momentumSolve "plain", divergences
//           "ignore");
//   after:  the defaults (Anderson-accelerated momentum solve, divergent transitions as
//           alpha = 0 and burn-in ended below the divergence edge);
//   delayed: "after" with delayed rejection (samplers/kernels/delayedRejection.ts, k = --factor, default 2):
//           a divergent first trajectory is followed by a second stage at e / k with k L steps;
//           the "divergences" columns count transitions whose second stage diverged too, and the
//           last column counts the first stages that diverged and how their second stages ended
//           (moved; or rejected by the Metropolis test, the ghost trajectory's test, the
//           reversibility check; or diverged);
//   lagrangian: the same target and metric with the explicit integrator of Riemannian manifold
//           Lagrangian Monte Carlo (samplers/kernels/lagrangianMc.ts; `--integrator lagrangian`), the
//           registry's step count and acceptance target, divergences counted alike.
// Prints every divergent transition (phase, reason, step size, energy error, fixed-point
// iterations), then per chain the step after burn-in, divergences in burn-in and after, min bulk
// ESS over f, CPU seconds of the sampling phase (process.cpuUsage around each transition) and
// ESS per CPU second. Seeds come from the cell's identity (n, seed, variant shares the stream
// with the other variant of the same n and seed, so that both start from the same draws).
//   node dist/bench/rmhmcDivergences.js [--peers DIR] [--n 100,400] [--seeds 1,2,3] [--burn-in 200] [--draws 300] [--variants before,after]
//     [--targets 0.9,0.95] [--factor 2] [--step e] [--verbose]
// (--step: run every chain at this step size, burn-in included, without adaptation, so that the
// variants are compared at one step.)
// (--targets: dual averaging's acceptance targets to run each variant at; default the registry's.)
import { join, resolve } from "node:path";
import { drawsArray, variableChains } from "../src/diagnostics/draws.js";
import { essBulk } from "../src/diagnostics/ess.js";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { Rng } from "../src/random/rng.js";
import type { AdaptOptions } from "../src/samplers/chain/adaptation.js";
import { runChain } from "../src/samplers/chain/driver.js";
import { latentSamplerSpec } from "../src/samplers/registry.js";
import { lagrangianMc } from "../src/samplers/kernels/lagrangianMc.js";
import { rmhmc } from "../src/samplers/kernels/rmhmc.js";
import type { DelayedRejectionStepInfo, Kernel } from "../src/samplers/types.js";
import { latentGpTarget } from "../src/targets/latentGpModel.js";
import { arg, hash } from "./benchArgs.js";

const peers = resolve(arg("--peers", process.env.GPMCMC_PEERS ?? "../shared/peers"));
const sizes = arg("--n", "100,400").split(",").map(Number);
const seeds = arg("--seeds", "1,2,3").split(",").map(Number);
const burnIn = Number(arg("--burn-in", "200"));
const draws = Number(arg("--draws", "300"));
const variants = arg("--variants", "before,after").split(",") as ("before" | "after" | "delayed" | "lagrangian")[];
for (const v of variants) if (!["before", "after", "delayed", "lagrangian"].includes(v)) throw new Error(`rmhmcDivergences: unknown variant ${v} (before, after, delayed, lagrangian)`);
const factor = Number(arg("--factor", "2"));
const fixedStep = arg("--step", "") === "" ? undefined : Number(arg("--step", ""));
// The acceptance targets of dual averaging to run each variant at (default: the registry's, 0.9).
const targets = arg("--targets", "").split(",").filter((t) => t !== "").map(Number);
const verbose = process.argv.includes("--verbose");
getBackend().setThreads(1);
const spec = latentSamplerSpec("rmhmc");
if (spec.sampler !== "rmhmc" || spec.fixedPoint?.kind === "iterations") throw new Error("rmhmcDivergences: the registry's rmhmc no longer iterates its fixed points to a tolerance");

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

console.log(`bench rmhmcDivergences: ${burnIn} burn-in + ${draws} draws, 1 chain per cell, peers ${peers}`);
console.log("n\tseed\tvariant\tstep after burn-in\tburn-in divergences\tdivergences after burn-in\tacceptance\tmin bulk ESS\tsampling CPU s\tESS/s\tfixed-point iterations per transition");
for (const n of sizes) {
  const ds = readDataset(join(peers, "data", `gpc_synth_n${n}.csv`));
  const y = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
  const target = latentGpTarget(ds.X, y, { likelihood: "probit", logLengthscale: [-2], logSignalSd: 1, jitter: 1e-6 * Math.exp(2) }, () => undefined);
  for (const seed of seeds) {
    for (const [variant, targetAcceptance] of variants.flatMap((v) => (targets.length > 0 ? targets : [spec.targetAcceptance]).map((ta) => [v, ta] as const))) {
      // the registry's rmhmc defaults, with the variant's solve and adaptation
      const inner = variant === "lagrangian" ? lagrangianMc(target, { stepSize: fixedStep ?? spec.stepSize, leapfrogSteps: spec.leapfrogSteps, targetAcceptance }) : rmhmc(target, {
        stepSize: fixedStep ?? spec.stepSize, leapfrogSteps: spec.leapfrogSteps, targetAcceptance, momentumSolve: variant === "before" ? "plain" : "anderson",
        ...(variant === "delayed" ? { delayedRejection: factor } : {}),
      });
      const adapt: AdaptOptions = { method: "dual-averaging", divergences: variant === "before" ? "ignore" : "edge" };
      let t = 0;
      let samplingCpu = 0;
      let fixedPoint = 0;
      let firstStages = 0;
      const outcomes = new Map<string, number>();
      const reasons = new Map<string, number>();
      const kernel: Kernel = {
        name: inner.name, tunable: inner.tunable, init: (x0) => inner.init(x0),
        step(state, rng) {
          const c0 = cpuSeconds();
          const r = inner.step(state as never, rng);
          const phase = t < burnIn ? "burn-in" : "sampling";
          if (phase === "sampling") samplingCpu += cpuSeconds() - c0;
          const info: DelayedRejectionStepInfo = r.info;
          fixedPoint += info.fixedPointIterations;
          if (info.firstStageDivergence !== undefined && phase === "sampling") {
            firstStages++;
            outcomes.set(info.secondStage!, (outcomes.get(info.secondStage!) ?? 0) + 1);
          }
          if (info.divergent) {
            const key = `${phase} ${info.divergence}`;
            reasons.set(key, (reasons.get(key) ?? 0) + 1);
            if (verbose) console.log(`  n ${n} seed ${seed} ${variant}: transition ${t + 1} (${phase}): ${info.divergence}, step ${info.stepSize.toFixed(4)}, energy error ${info.energyError.toPrecision(3)}, fixed-point iterations ${info.fixedPointIterations}`);
          }
          t++;
          return r;
        },
      };
      const res = runChain(kernel, new Rng(hash(`rmhmcDivergences n ${n} seed ${seed}`), 0), { draws, burnIn, init: new Float64Array(target.dim), adapt: fixedStep === undefined ? adapt : undefined });
      const d = drawsArray(res.samples, 1, draws, target.dim);
      let minEss = Infinity;
      for (let v = 0; v < target.dim; v++) minEss = Math.min(minEss, essBulk(variableChains(d, v)));
      const s = res.summary;
      const why = [...reasons].map(([k, c]) => `${k} ${c}`).join(", ");
      console.log([n, seed, targetAcceptance === spec.targetAcceptance ? variant : `${variant} (target ${targetAcceptance})`, (res.tunedValue ?? inner.tunable.value).toFixed(4), s.burnInDivergences, s.divergences, s.acceptanceRate.toFixed(3), minEss.toFixed(1),
        samplingCpu.toFixed(2), (minEss / samplingCpu).toFixed(1), (fixedPoint / (burnIn + draws)).toFixed(1)].join("\t") + (why ? `\t(${why})` : "")
        + (variant === "delayed" ? `\t(after burn-in: ${firstStages} first stages diverged; second stages: ${[...outcomes].map(([k, c]) => `${k} ${c}`).join(", ") || "none"})` : ""));
    }
  }
}
