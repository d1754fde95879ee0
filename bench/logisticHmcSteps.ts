/**
 * HMC with the identity mass on Bayesian logistic regression at a fixed step size: a fixed count
 * of leapfrog steps L against a count drawn uniformly from 1..L (`randomiseSteps`), from the
 * posterior mode, the same seed: min ESS (Geyer) over the coefficients, CPU seconds, and CPU
 * seconds per min-ESS. With the identity mass each direction of the posterior turns by an angle
 * of about eps L / sd, and where the sds differ by orders of magnitude some of those angles come
 * close to a multiple of 2 pi with a fixed count (parametricRegistry.ts).
 *
 *   npm run bench -- logisticHmcSteps [--data german_numeric] [--step-size 0.0019] [--steps 1600] [--draws 500]
 */
import { essGeyer } from "../src/diagnostics/ess.js";
import { getBackend } from "../src/linalg/backend.js";
import { Rng } from "../src/random/rng.js";
import { hmc } from "../src/samplers/kernels/hmc.js";
import { identityMass } from "../src/samplers/integrators/massMatrix.js";
import { logisticTarget } from "../src/grid/parametricChainJob.js";
import { fisherScoringMode } from "../src/targets/denseMetric.js";
import { arg, hash } from "./benchArgs.js";

getBackend().setThreads(1);
const name = arg("--data", "german_numeric");
const eps = Number(arg("--step-size", "0.0019"));
const steps = Number(arg("--steps", "1600"));
const draws = Number(arg("--draws", "500"));
const target = logisticTarget(name); // as the experiments build it (Ripley's data with the cubic terms)
const mode = fisherScoringMode(target.model);
const d = target.dim;

console.log(`${name}, eps ${eps}, from the mode, ${draws} draws; OpenBLAS on one thread`);
console.log("| count of steps | CPU s | acceptance | min ESS | s / min-ESS |");
console.log("|---|---|---|---|---|");
for (const [label, options] of [
  [`fixed, ${steps}`, { leapfrogSteps: steps }],
  [`uniform on 1..${steps}`, { leapfrogSteps: steps, randomiseSteps: true }],
  [`uniform on 1..${2 * steps}`, { leapfrogSteps: 2 * steps, randomiseSteps: true }],
] as const) {
  const kernel = hmc(target, { stepSize: eps, ...options, mass: identityMass(d) });
  const rng = new Rng(hash(`${name} ${eps} ${draws}`)); // the same seed for every count
  let state = kernel.init(mode);
  const x = Array.from({ length: d }, () => new Float64Array(draws));
  let accepted = 0;
  const t0 = process.cpuUsage();
  for (let i = 0; i < draws; i++) {
    const r = kernel.step(state, rng);
    state = r.state;
    if (r.info.accepted) accepted++;
    for (let j = 0; j < d; j++) x[j]![i] = state.position[j]!;
  }
  const t = process.cpuUsage(t0);
  const cpu = (t.user + t.system) / 1e6;
  const minEss = Math.min(...x.map((c) => essGeyer([c])));
  console.log(`| ${label} | ${cpu.toFixed(1)} | ${(accepted / draws).toFixed(3)} | ${minEss.toFixed(0)} | ${(cpu / minEss).toPrecision(3)} |`);
}
