/**
 * RMHMC on a Bayesian logistic regression (Girolami & Calderhead 2011, Section 7.1) at fixed step
 * sizes and leapfrog counts, from the posterior mode (Fisher scoring from 0): which steps the
 * generalised leapfrog can take there, and what a transition costs. For each --steps pair
 * eps:L, --transitions transitions of the registry's RMHMC (fixed points to 1e-8 with the
 * reversibility check), the same seed for each pair: CPU seconds per transition
 * (process.cpuUsage, this thread; OpenBLAS on one thread), the mean acceptance probability, the
 * divergent transitions by reason, and the mean fixed-point iterations and G^-1 evaluations a
 * transition made. Written for Caravan (Table 9), where the adapted steps of the small data sets
 * fail.
 *
 *   npm run bench -- logisticRmhmcSteps [--data caravan_train] [--steps 0.05:40,0.1:20,0.2:10,0.5:4]
 *     [--transitions 10] [--seed 7] [--fixed-point-tolerance 1e-8] [--reversibility-tolerance 1e-2|off]
 *     [--delayed-rejection k] [--integrator lagrangian]
 * (the two tolerances loosen the registry's solve, to see what a transition could cost at best;
 * --delayed-rejection follows a divergent trajectory with a second stage at eps / k, k L steps
 * (samplers/kernels/delayedRejection.ts), and the last column counts the first stages that diverged and
 * how their second stages ended; --integrator lagrangian runs the explicit integrator of
 * samplers/kernels/lagrangianDense.ts instead of the generalised leapfrog, with no fixed points to count).
 */
import { join } from "node:path";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { regressionDesign } from "../src/models/design.js";
import { logisticRegression } from "../src/models/logisticRegression.js";
import { Rng } from "../src/random/rng.js";
import { parametricSampler } from "../src/samplers/parametricRegistry.js";
import { lagrangianDense } from "../src/samplers/kernels/lagrangianDense.js";
import { rmhmc } from "../src/samplers/kernels/rmhmc.js";
import type { DelayedRejectionStepInfo, DivergenceReason, SamplerState } from "../src/samplers/types.js";
import { denseMetricTarget, fisherScoringMode } from "../src/targets/denseMetric.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const data = opt("--data", "caravan_train");
const transitions = Number(opt("--transitions", "10"));
const seed = Number(opt("--seed", "7"));
const pairs = opt("--steps", "0.05:40,0.1:20,0.2:10,0.5:4").split(",").map((p) => {
  const [eps, steps] = p.split(":").map(Number);
  if (!(eps > 0) || !Number.isInteger(steps) || steps < 1) {
    console.error(`logisticRmhmcSteps: --steps wants eps:L pairs such as 0.1:20, got "${p}"`);
    process.exit(2);
  }
  return { eps, steps };
});
const toleranceArg = opt("--fixed-point-tolerance", "");
const tolerance = toleranceArg === "" ? undefined : Number(toleranceArg);
const reversibilityArg = opt("--reversibility-tolerance", "");
const reversibility = reversibilityArg === "" ? undefined : reversibilityArg === "off" ? false : Number(reversibilityArg);
const lagrangian = opt("--integrator", "") === "lagrangian";
const delayedArg = opt("--delayed-rejection", "");
const delayed = delayedArg === "" ? undefined : Number(delayedArg);
if ((tolerance !== undefined && !(tolerance > 0)) || (typeof reversibility === "number" && !(reversibility > 0))) {
  console.error(`logisticRmhmcSteps: --fixed-point-tolerance wants a positive number, --reversibility-tolerance a positive number or off`);
  process.exit(2);
}
if (!Number.isInteger(transitions) || transitions < 1) {
  console.error(`logisticRmhmcSteps: --transitions must be a positive whole number, got ${opt("--transitions", "")}`);
  process.exit(2);
}

getBackend().setThreads(1);
const set = readDataset(join("data", `${data}.csv`), { labels: "binary", binaryCoding: "zeroOne" });
const design = regressionDesign(set.X, set.inputNames, data === "synth_tr" ? 3 : 1);
const model = logisticRegression(design.matrix, set.y);
const target = denseMetricTarget(model);
const mode = fisherScoringMode(model);

console.log(`RMHMC${lagrangian ? " (Lagrangian integrator)" : ""} on ${data} (${design.matrix.rows} x ${design.matrix.cols}) from the mode, ${transitions} transitions per row, seed ${seed}, fixed points to ${tolerance ?? "1e-8"}, reversibility check ${reversibility === false ? "off" : reversibility ?? "1e-2"}\n`);
console.log(`| eps | L | eps L | CPU s / transition | mean acceptance probability | divergent (reasons) | fixed-point iterations / transition | G^-1 evaluations / transition |${delayed ? " first stages diverged: how their second stages ended |" : ""}`);
console.log(`|---|---|---|---|---|---|---|---|${delayed ? "---|" : ""}`);
for (const { eps, steps } of pairs) {
  // the registry's RMHMC, or the same kernel with the solve's settings given
  const kernel = lagrangian ? lagrangianDense(target, { stepSize: eps, leapfrogSteps: steps, targetAcceptance: 0.8 })
    : tolerance === undefined && reversibility === undefined && delayed === undefined
    ? parametricSampler(target, "rmhmc", mode, 0, { stepSize: eps, leapfrogSteps: steps, adapt: false }).kernel
    : rmhmc(target, { stepSize: eps, leapfrogSteps: steps, targetAcceptance: 0.8, fixedPointTolerance: tolerance, reversibilityTolerance: reversibility, delayedRejection: delayed });
  const rng = new Rng(seed);
  let state: SamplerState = kernel.init(mode);
  let acceptance = 0;
  let iterations = 0;
  let inverses = 0;
  let firstStages = 0;
  const outcomes = new Map<string, number>();
  const reasons = new Map<DivergenceReason, number>();
  const t0 = process.cpuUsage();
  for (let i = 0; i < transitions; i++) {
    const { state: next, info: reported } = kernel.step(state, rng);
    const info: DelayedRejectionStepInfo = reported;
    state = next;
    acceptance += info.acceptanceProbability;
    iterations += info.fixedPointIterations;
    inverses += info.inverseMetricCalls ?? 0;
    if (info.firstStageDivergence !== undefined) {
      firstStages++;
      outcomes.set(info.secondStage!, (outcomes.get(info.secondStage!) ?? 0) + 1);
    }
    if (info.divergence) reasons.set(info.divergence, (reasons.get(info.divergence) ?? 0) + 1);
  }
  const t = process.cpuUsage(t0);
  const divergent = [...reasons.values()].reduce((a, b) => a + b, 0);
  const why = [...reasons].map(([r, c]) => `${r} ${c}`).join(", ");
  console.log(`| ${eps} | ${steps} | ${+(eps * steps).toFixed(3)} | ${((t.user + t.system) / 1e6 / transitions).toPrecision(3)} | ${(acceptance / transitions).toFixed(3)} | ${divergent}${why ? ` (${why})` : ""} | ${(iterations / transitions).toFixed(0)} | ${(inverses / transitions).toFixed(0)} |${delayed ? ` ${firstStages}: ${[...outcomes].map(([k, c]) => `${k} ${c}`).join(", ") || "-"} |` : ""}`);
}
console.log(`\nbackend ${getBackend().name}, node ${process.version}`);
