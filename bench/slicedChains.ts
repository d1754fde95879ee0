/**
 * What running a `sample --model` chain in slices costs (run/slicedChains.ts: every ~250 ms the
 * driver stops the chain with a checkpoint kept in memory, the event loop takes a turn, and the
 * chain resumes from the checkpoint): CPU seconds (process.cpuUsage, this thread) of the same
 * chains run by the driver's `sample` (the baseline, in the same run) and sliced, at the default
 * slice and at a tenth of it, median of --reps alternating repetitions, and the ratio to the
 * baseline, after an untimed warm-up of each. The draws are checked to be the same bit for bit. Problems: the LGCP field on a 32 x 32
 * grid by RMHMC (1024 coordinates: the largest copy of the draws so far per slice) and the
 * logistic regression of Ripley's data with the cubic terms by simplified mMALA.
 *
 *   npm run bench -- slicedChains [--reps 3] [--draws 2000] [--json]
 */
import { readDataset } from "../src/io/dataset.js";
import { regressionDesign } from "../src/models/design.js";
import { logisticRegression } from "../src/models/logisticRegression.js";
import { coxProcessModel, paperHyperparameters } from "../src/models/coxProcess/coxProcess.js";
import { simulateCoxProcess } from "../src/models/coxProcess/simulate.js";
import { coxProcessSampler } from "../src/models/coxProcess/samplers.js";
import { runSlicedChains } from "../src/run/slicedChains.js";
import type { AdaptOptions } from "../src/samplers/chain/adaptation.js";
import { sample } from "../src/samplers/chain/driver.js";
import { parametricSampler } from "../src/samplers/parametricRegistry.js";
import type { Kernel } from "../src/samplers/types.js";
import { denseMetricTarget } from "../src/targets/denseMetric.js";
import { arg, hash } from "./benchArgs.js";

const reps = Number(arg("--reps", "3"));
const draws = Number(arg("--draws", "2000"));
const json = process.argv.includes("--json");

interface Problem { name: string; kernel: () => Kernel; init: Float64Array; adapt: AdaptOptions | undefined }

function problems(): Problem[] {
  const hyper = paperHyperparameters();
  const lgcp = coxProcessModel(32, simulateCoxProcess(32, hyper, 1).counts, hyper);
  const s = coxProcessSampler(lgcp, "rmhmc");
  const data = readDataset("data/synth_tr.csv", { labels: "binary", binaryCoding: "zeroOne" });
  const target = denseMetricTarget(logisticRegression(regressionDesign(data.X, data.inputNames, 3).matrix, data.y, { priorVariance: 100 }));
  const init = new Float64Array(target.dim);
  return [
    { name: "lgcp 32x32 rmhmc", kernel: () => coxProcessSampler(lgcp, "rmhmc").kernel, init: s.init, adapt: s.adapt },
    { name: "logistic synth_tr cubic smmala", kernel: () => parametricSampler(target, "smmala", init, draws).kernel, init, adapt: { method: "dual-averaging" } },
  ];
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rows = [];
for (const p of problems()) {
  const options = { draws, burnIn: draws, thin: 1, chains: 1, seed: hash(p.name), init: p.init, adapt: p.adapt };
  const times: Record<string, number[]> = { sample: [], "sliced 250 ms": [], "sliced 25 ms": [] };
  let reference: Float64Array | undefined;
  // repetition 0 is an untimed warm-up (JIT compilation of both paths)
  for (let r = -1; r < reps; r++) {
    for (const [label, sliceMs] of [["sample", 0], ["sliced 250 ms", 250], ["sliced 25 ms", 25]] as const) {
      const t0 = cpu();
      const samples = sliceMs === 0
        ? sample(p.kernel(), options).samples
        : (await runSlicedChains(p.kernel(), { ...options, sliceMs })).chainResults[0].samples;
      if (r >= 0) times[label].push(cpu() - t0);
      reference ??= samples;
      if (!samples.every((v, i) => Object.is(v, reference![i]))) throw new Error(`${p.name}, ${label}: the draws differ from sample's`);
    }
  }
  const base = median(times.sample);
  rows.push({ problem: p.name, draws, sampleSeconds: base, ...Object.fromEntries(Object.entries(times).filter(([k]) => k !== "sample").map(([k, v]) => [k, { seconds: median(v), ratio: median(v) / base }])) });
}
if (json) console.log(JSON.stringify(rows));
else for (const r of rows) console.log(JSON.stringify(r));
