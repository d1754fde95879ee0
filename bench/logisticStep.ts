/**
 * Where the time of one mMALA / RMHMC transition goes on Bayesian logistic regression (Girolami &
 * Calderhead 2011, Section 7.1), and what contracting dG/dbeta_k instead of forming the D
 * matrices (models/logisticRegression.ts) saves. For each data set, at the posterior mode (Fisher
 * scoring from 0), CPU time (process.cpuUsage, this thread; OpenBLAS on one thread), median of
 * --reps repetitions:
 *
 * (a) the parts: G = X' Lambda X + I / alpha (one syrk, with L, dL and s), its Cholesky factor, the
 *     traces t_k = tr(G^-1 dG_k) by one trsm, the quadratic forms v' dG_k v (two gemv), and the D
 *     matrices dG_k (D gemm: the path the contractions replace);
 * (b) transitions of mMALA and RMHMC (6 leapfrog steps, fixed points to 1e-8, the reversibility
 *     check) from the mode (after min(3, count) untimed ones), with the contractions and, the baseline in the same run, with the
 *     matrices (withDerivativeMatricesOnly), same seeds: CPU seconds per transition and the ratio;
 * (c) the split of one transition with the contractions: the calls it made (metric, inverse
 *     metric, dH/dx) times the cost of each part from (a), and the rest (the sampler's own
 *     vector work and allocation).
 *
 *   npm run bench -- logisticStep [--data synth_tr,pima532,heart_statlog,australian,german_numeric,caravan_train]
 *     [--reps 5] [--transitions 20] [--baseline-transitions 5] [--rmhmc-step 0.5] [--json]
 */
import { readDataset } from "../src/io/dataset.js";
import { cholesky } from "../src/linalg/cholesky.js";
import { getBackend } from "../src/linalg/backend.js";
import { regressionDesign } from "../src/models/design.js";
import { logisticRegression } from "../src/models/logisticRegression.js";
import { Rng } from "../src/random/rng.js";
import { mmala } from "../src/samplers/kernels/mmala.js";
import { rmhmc } from "../src/samplers/kernels/rmhmc.js";
import type { CountedStepInfo, Kernel, SamplerState } from "../src/samplers/types.js";
import { denseMetricTarget, fisherScoringMode, withDerivativeMatricesOnly } from "../src/targets/denseMetric.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const sets = opt("--data", "synth_tr,pima532,heart_statlog,australian,german_numeric,caravan_train").split(",");
const reps = Number(opt("--reps", "5"));
const transitions = Number(opt("--transitions", "20"));
const baselineTransitions = Number(opt("--baseline-transitions", "5"));
// RMHMC's step size (6 leapfrog steps); on Caravan 1/2 fails its first fixed point from the mode
const rmhmcStep = Number(opt("--rmhmc-step", "0.5"));

/** Median CPU seconds of f over reps, each rep running f until 0.05 s of CPU have passed. */
function cpuSeconds(f: () => void): number {
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    let calls = 0;
    const t0 = process.cpuUsage();
    let used = 0;
    do {
      f();
      calls++;
      const t = process.cpuUsage(t0);
      used = (t.user + t.system) / 1e6;
    } while (used < 0.05);
    times.push(used / calls);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

interface Run {
  cpuPerTransition: number;
  metricCalls: number;
  inverseMetricCalls: number;
  gradientCalls: number;
}

/** `count` transitions from `start`: CPU seconds per transition and the mean calls into the target. */
function transitionsFrom(kernel: Kernel, start: Float64Array, count: number, seed: number): Run {
  const rng = new Rng(seed);
  let state: SamplerState = kernel.init(start);
  for (let i = 0; i < Math.min(3, count); i++) state = kernel.step(state, rng).state; // warm-up (JIT), not timed
  const sums = { metricCalls: 0, inverseMetricCalls: 0, gradientCalls: 0 };
  const t0 = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const out: { state: SamplerState; info: CountedStepInfo } = kernel.step(state, rng);
    state = out.state;
    sums.metricCalls += out.info.metricCalls;
    sums.inverseMetricCalls += out.info.inverseMetricCalls ?? 0;
    sums.gradientCalls += out.info.gradientCalls;
  }
  const t = process.cpuUsage(t0);
  return {
    cpuPerTransition: (t.user + t.system) / 1e6 / count,
    metricCalls: sums.metricCalls / count,
    inverseMetricCalls: sums.inverseMetricCalls / count,
    gradientCalls: sums.gradientCalls / count,
  };
}

const g = (x: number) => (x >= 0.1 ? x.toFixed(3) : x.toExponential(2));
const results: Record<string, unknown>[] = [];
for (const name of sets) {
  const data = readDataset(`data/${name}.csv`, { labels: "binary", binaryCoding: "zeroOne" });
  const design = regressionDesign(data.X, data.inputNames, name === "synth_tr" ? 3 : 1);
  const model = logisticRegression(design.matrix, data.y);
  const d = model.dim;
  const beta = fisherScoringMode(model);
  // (a) the parts
  const parts = model.denseMetric(beta, true);
  const factor = cholesky(parts.metric);
  const v = new Float64Array(d).fill(0.1);
  const q = new Float64Array(d);
  const metric = cpuSeconds(() => model.denseMetric(beta, false));
  const chol = cpuSeconds(() => cholesky(parts.metric));
  const traces = cpuSeconds(() => parts.metricDerivativeProducts!.traces(factor));
  const forms = cpuSeconds(() => parts.metricDerivativeProducts!.quadraticForms(v, q));
  const matrices = cpuSeconds(() => model.denseMetric(beta, true).metricDerivatives);
  // (b) transitions, contractions against matrices, same seeds; step sizes near the adapted ones
  const fast = denseMetricTarget(model);
  const slow = denseMetricTarget(withDerivativeMatricesOnly(model));
  const rm = (t: typeof fast) => rmhmc(t, { stepSize: rmhmcStep, leapfrogSteps: 6, targetAcceptance: 0.8 });
  const mm = (t: typeof fast) => mmala(t, { stepSize: 0.8 });
  const rmFast = transitionsFrom(rm(fast), beta, transitions, 1);
  const rmSlow = transitionsFrom(rm(slow), beta, baselineTransitions, 1);
  const mmFast = transitionsFrom(mm(fast), beta, transitions, 2);
  const mmSlow = transitionsFrom(mm(slow), beta, baselineTransitions, 2);
  // (c) the split of a transition with the contractions
  const split = (r: Run) => {
    const metricPart = (r.metricCalls + r.inverseMetricCalls) * (metric + chol);
    const tracePart = r.metricCalls * traces;
    const formPart = r.gradientCalls * forms;
    return { metric: metricPart, traces: tracePart, forms: formPart, rest: r.cpuPerTransition - metricPart - tracePart - formPart };
  };
  const row = {
    data: name, n: data.n, d,
    parts: { metric, cholesky: chol, traces, quadraticForms: forms, derivativeMatrices: matrices },
    rmhmc: { contractions: rmFast, matrices: rmSlow, ratio: rmSlow.cpuPerTransition / rmFast.cpuPerTransition, split: split(rmFast) },
    mmala: { contractions: mmFast, matrices: mmSlow, ratio: mmSlow.cpuPerTransition / mmFast.cpuPerTransition, split: split(mmFast) },
  };
  results.push(row);
  if (!args.includes("--json")) {
    console.log(`${name} (N = ${data.n}, D = ${d}), CPU s: G (syrk + L, dL) ${g(metric)}, chol ${g(chol)}, traces (trsm) ${g(traces)}, v'dG v (2 gemv) ${g(forms)}, the D matrices dG_k (D gemm) ${g(matrices)}`);
    for (const [k, r] of [["rmhmc", row.rmhmc], ["mmala", row.mmala]] as const) {
      const s = r.split;
      const c = r.contractions;
      console.log(`  ${k}: ${g(c.cpuPerTransition)} s/transition with contractions, ${g(r.matrices.cpuPerTransition)} with matrices (x${r.ratio.toFixed(1)}); calls: ${c.metricCalls.toFixed(1)} metric, ${c.inverseMetricCalls.toFixed(1)} inverse, ${c.gradientCalls.toFixed(1)} dH/dx; split: G + chol ${g(s.metric)} (${((100 * s.metric) / c.cpuPerTransition).toFixed(0)}%), traces ${g(s.traces)} (${((100 * s.traces) / c.cpuPerTransition).toFixed(0)}%), forms ${g(s.forms)} (${((100 * s.forms) / c.cpuPerTransition).toFixed(0)}%), rest ${g(s.rest)} (${((100 * s.rest) / c.cpuPerTransition).toFixed(0)}%)`);
    }
  }
}
const b = getBackend().describe();
if (args.includes("--json")) console.log(JSON.stringify({ backend: `${b.backend} (${b.library})`, node: process.version, results }));
else console.log(`backend ${b.backend} (${b.library}), node ${process.version}`);
