/**
 * CPU seconds per transition of every parametric sampler on Bayesian logistic regression
 * (Girolami & Calderhead 2011, Section 7.1), this build against another built checkout (--base
 * DIR, e.g. `git worktree add --detach /tmp/base main` then `npx tsc -p tsconfig.json` there) in
 * the same process, alternating repetitions. Each run: the sampler of the registry with its
 * initial step size and no adaptation, from the posterior mode (Fisher scoring from 0), a few
 * untimed transitions (JIT), then --transitions timed ones (process.cpuUsage, this thread;
 * OpenBLAS on one thread); same seed in both builds, so both make the same moves and the ratio
 * is the cost of the code alone. Median over --reps.
 *
 *   npm run bench -- logisticTransition --base /tmp/base [--data synth_tr,pima532,heart_statlog,australian,german_numeric]
 *     [--samplers mmala,...] [--reps 3] [--transitions 200] [--json]
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { FORMER_SAMPLER_NAMES } from "../src/samplers/renamedSamplers.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const sets = opt("--data", "synth_tr,pima532,heart_statlog,australian,german_numeric").split(",");
const samplers = opt("--samplers", "mmala,smmala,mala,iwls,mh-componentwise,holmes-held,hmc,hmc-diagonal,rmhmc,rmhmc-t").split(",");
const reps = Number(opt("--reps", "3"));
const transitions = Number(opt("--transitions", "200"));
const baseDir = args.includes("--base") ? resolve(opt("--base", "")) : undefined;
if (baseDir !== undefined && !existsSync(join(baseDir, "dist/src/samplers/parametricRegistry.js"))) {
  console.error(`logisticTransition: --base ${baseDir} has no dist/src/samplers/parametricRegistry.js (build it first)`);
  process.exit(2);
}

/** The modules a build gives, loaded from its dist/ (this build: the one this file belongs to). */
async function build(root: string) {
  const load = (p: string) => import(pathToFileURL(join(root, "dist/src", p)).href);
  const [dataset, design, model, rng, registry, dense, backend] = await Promise.all(
    ["io/dataset.js", "models/design.js", "models/logisticRegression.js", "random/rng.js", "samplers/parametricRegistry.js", "targets/denseMetric.js", "linalg/backend.js"].map(load),
  );
  return { dataset, design, model, rng, registry, dense, backend };
}
type Build = Awaited<ReturnType<typeof build>>;

/** CPU seconds per transition of `sampler` on data set `name` in build `b`. */
function perTransition(b: Build, name: string, sampler: string): number {
  const data = b.dataset.readDataset(join("data", `${name}.csv`), { labels: "binary", binaryCoding: "zeroOne" });
  const design = b.design.regressionDesign(data.X, data.inputNames, name === "synth_tr" ? 3 : 1);
  const model = b.model.logisticRegression(design.matrix, data.y);
  const target = b.dense.denseMetricTarget(model);
  const mode = b.dense.fisherScoringMode(model);
  // a build from before a sampler was renamed knows it by its former name (src/samplers/renamedSamplers.ts)
  const known = b.registry.isParametricSamplerName(sampler) ? sampler : FORMER_SAMPLER_NAMES[sampler] ?? sampler;
  const { kernel } = b.registry.parametricSampler(target, known, mode, 0, { adapt: false });
  const rng = new b.rng.Rng(7);
  let state = kernel.init(mode);
  for (let i = 0; i < Math.min(20, transitions); i++) state = kernel.step(state, rng).state;
  const t0 = process.cpuUsage();
  for (let i = 0; i < transitions; i++) state = kernel.step(state, rng).state;
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1e6 / transitions;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const g = (x: number) => (x >= 0.1 ? x.toFixed(3) : x.toExponential(2));
const here = await build(resolve(import.meta.dirname, "../.."));
const base = baseDir ? await build(baseDir) : undefined;
const rows: { data: string; sampler: string; seconds: number; baseSeconds?: number; ratio?: number }[] = [];
if (!args.includes("--json")) {
  console.log(`| data set | sampler | CPU s / transition |${base ? " base | base / this |" : ""}`);
  console.log(`|---|---|---|${base ? "---|---|" : ""}`);
}
for (const name of sets) {
  for (const sampler of samplers) {
    const mine: number[] = [];
    const theirs: number[] = [];
    for (let r = 0; r < reps; r++) {
      mine.push(perTransition(here, name, sampler));
      if (base) theirs.push(perTransition(base, name, sampler));
    }
    const row = { data: name, sampler, seconds: median(mine), ...(base ? { baseSeconds: median(theirs), ratio: median(theirs) / median(mine) } : {}) };
    rows.push(row);
    if (!args.includes("--json")) console.log(`| ${name} | ${sampler} | ${g(row.seconds)} |${base ? ` ${g(row.baseSeconds!)} | x${row.ratio!.toFixed(2)} |` : ""}`);
  }
}
const described = here.backend.getBackend().describe();
if (args.includes("--json")) console.log(JSON.stringify({ backend: `${described.backend} (${described.library})`, node: process.version, base: baseDir, rows }));
else console.log(`backend ${described.backend} (${described.library}), node ${process.version}${baseDir ? `, base ${baseDir}` : ""}`);
