/**
 * The job kinds of Girolami & Calderhead's experiments checkpoint and resume: a parametric-chain,
 * fitzhugh-nagumo-run, volatility-run or lgcp-run job stopped three times (in burn-in, across
 * burn-in's end, in sampling) and once more after its last transition (its draws not yet
 * written), run again each time, gives the draws file and every figure but
 * the timings (ESS, means, step sizes, acceptance, counts of ODE solves, the field's posterior
 * mean and variance) of the job never stopped. A `gpmcmc grid run` of parametric-chain jobs
 * killed with SIGKILL once a checkpoint is on disk and run again gives the uninterrupted grid's
 * results. Negative controls: a checkpoint whose generator state is replaced resumes into other
 * draws, one whose counts of solves are reset gives other counts, and both comparisons see it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lgcpRunJob } from "../../src/grid/coxProcessRunJob.js";
import { fitzhughNagumoRunJob } from "../../src/grid/fitzhughNagumoRunJob.js";
import type { JobChainCheckpoint } from "../../src/grid/jobChain.js";
import { runGridLocally } from "../../src/grid/localRunner.js";
import { parametricChainJob, type FiguresJobResult } from "../../src/grid/parametricChainJob.js";
import type { GridJob, GridSpec } from "../../src/grid/spec.js";
import { jobCheckpointPath, readJobResults } from "../../src/grid/store.js";
import { volatilityRunJob } from "../../src/grid/volatilityRunJob.js";
import { getBackend } from "../../src/linalg/backend.js";
import type { TaskContext } from "../../src/parallel/tasks.js";
import { Rng } from "../../src/random/rng.js";
import { decodeExact, encodeExact } from "../../src/run/checkpoint.js";
import { scratchDir } from "../fixtures.js";
import { jobsOf, runGridKilledOnce, stopAfter } from "./gridJobRuns.js";

getBackend().setThreads(1);

type AnyResult = FiguresJobResult<object> & { mean?: Float64Array; variance?: Float64Array };
type Run = (job: GridJob, context?: TaskContext) => AnyResult;

/** burn-in 4, 6 draws: checkpoints every 2 transitions. */
const CASES: { name: string; run: Run; spec: Omit<GridSpec, "out" | "checkpointEvery"> }[] = [
  { name: "parametric-chain", run: parametricChainJob, spec: { grid: "logisticRegression", kind: "parametric-chain", fixed: { draws: 6, burnIn: 4, thin: 1, start: "zero" }, axes: { data: ["heart_statlog"], sampler: ["mala", "rmhmc", "iwls"], run: [0] } } },
  { name: "fitzhugh-nagumo-run", run: fitzhughNagumoRunJob, spec: { grid: "fitzhugh-nagumo", kind: "fitzhugh-nagumo-run", fixed: { burnIn: 4, draws: 6 }, axes: { sampler: ["mmala"], run: [0] } } },
  { name: "volatility-run", run: volatilityRunJob, spec: { grid: "volatility", kind: "volatility-run", fixed: { burnIn: 4, draws: 6 }, axes: { config: ["mala,mmala@-,3"], run: [0] } } },
  { name: "lgcp-run", run: lgcpRunJob, spec: { grid: "lgcp table13", kind: "lgcp-run", fixed: { plan: { "mala-transient": { burnIn: 4, draws: 6 }, rmhmc: { burnIn: 4, draws: 6 } } }, axes: { grid: [6], sampler: ["mala-transient", "rmhmc"], run: [0] } } },
];

const TIMINGS = new Set(["seconds", "burnInSeconds", "setupSeconds", "cpuSeconds", "secondsPerMinEss", "cpuSecondsPerMinEss"]);

/** What must not depend on interruptions: the draws file and every figure but the timings. */
function figures(job: GridJob, r: AnyResult) {
  const kept = Object.fromEntries(Object.entries(r.figures).filter(([k]) => !TIMINGS.has(k)));
  const draws = r.drawsFile ? createHash("sha256").update(readFileSync(join(job.drawsDir, r.drawsFile))).digest("hex") : "";
  return { figures: kept, minEss: r.minEss, acceptanceRate: r.acceptanceRate, draws, mean: r.mean, variance: r.variance };
}

const checkpointOf = (job: GridJob) => decodeExact<JobChainCheckpoint>(readFileSync(jobCheckpointPath(job), "utf8"));

for (const c of CASES) {
  test(`${c.name} jobs stopped three times and resumed each time = the jobs never stopped`, () => {
    const s = scratchDir();
    try {
      const whole = jobsOf({ ...c.spec, out: "whole", checkpointEvery: 0 }, s.dir);
      const cut = jobsOf({ ...c.spec, out: "cut", checkpointEvery: 2 }, s.dir);
      whole.forEach((wj, i) => {
        const j = cut[i]!;
        const expected = figures(wj, c.run(wj));
        assert.equal(existsSync(jobCheckpointPath(wj)), false, "no checkpoint without checkpointEvery");
        // stops after transitions 2 (burn-in), 5 (sampling, past burn-in's end) and 7, and (but for
        // lgcp-run, which keeps no draws file) after the last one
        for (const [after, done] of [[3, 2], [4, 5], [3, 7]] as const) {
          assert.throws(() => c.run(j, stopAfter(after)), /stopped before its end/);
          assert.equal(checkpointOf(j).chain.done, done);
        }
        if (c.name !== "lgcp-run") {
          // killed after its last transition, before its draws were written: the checkpoint at the chain's end
          const held = `${j.drawsDir}.held`;
          if (existsSync(j.drawsDir)) renameSync(j.drawsDir, held);
          writeFileSync(j.drawsDir, "");
          assert.throws(() => c.run(j));
          assert.equal(checkpointOf(j).chain.done, 10);
          rmSync(j.drawsDir);
          if (existsSync(held)) renameSync(held, j.drawsDir);
        }
        const r = c.run(j);
        assert.equal(r.resumed, true);
        assert.deepEqual(figures(j, r), expected, j.identity);
        assert.equal(existsSync(jobCheckpointPath(j)), false, "the checkpoint goes with the result");
      });
    } finally {
      s.cleanup();
    }
  });
}

test("negative controls: another generator state gives other draws; counts of solves reset give other counts; another chain's checkpoint is refused", () => {
  const s = scratchDir();
  try {
    const [pc] = CASES;
    // the rmhmc job (mala's first steps from beta = 0 are all rejected: its draws would not tell)
    const whole = jobsOf({ ...pc!.spec, out: "whole", checkpointEvery: 0 }, s.dir)[1];
    const expected = figures(whole!, pc!.run(whole!));
    const j = jobsOf({ ...pc!.spec, out: "cut", checkpointEvery: 2 }, s.dir)[1];
    assert.ok(j!.identity.includes("rmhmc"));
    assert.throws(() => pc!.run(j!, stopAfter(6)), /stopped/);
    const cp = checkpointOf(j!);
    writeFileSync(jobCheckpointPath(j!), encodeExact({ ...cp, chain: { ...cp.chain, rng: new Rng(7n).snapshot() } }) + "\n");
    const broken = figures(j!, pc!.run(j!));
    assert.notEqual(broken.draws, expected.draws);

    const fhn = CASES[1]!;
    const [fw] = jobsOf({ ...fhn.spec, out: "fw", checkpointEvery: 0 }, s.dir);
    const fExpected = figures(fw!, fhn.run(fw!));
    const [fj] = jobsOf({ ...fhn.spec, out: "fj", checkpointEvery: 2 }, s.dir);
    assert.throws(() => fhn.run(fj!, stopAfter(6)), /stopped/);
    const fcp = checkpointOf(fj!);
    assert.ok((fcp.tallies.solves as number[]).some((n) => n > 0));
    writeFileSync(jobCheckpointPath(fj!), encodeExact({ ...fcp, tallies: { solves: [0, 0, 0] } }) + "\n");
    const fBroken = figures(fj!, fhn.run(fj!));
    assert.equal(fBroken.draws, fExpected.draws, "the draws do not depend on the counts");
    assert.notDeepEqual(fBroken.figures, fExpected.figures);

    // a checkpoint of another chain's shape is the job's fault, named with its file
    assert.throws(() => pc!.run(j!, stopAfter(3)), /stopped/);
    const other = checkpointOf(j!);
    writeFileSync(jobCheckpointPath(j!), encodeExact({ ...other, chain: { ...other.chain, draws: 7 } }) + "\n");
    assert.throws(() => pc!.run(j!), (e: Error) => e.name === "GridJobError" && /checkpoints.*: the checkpoint is of a chain with draws 7, this chain has 6/.test(e.message));
  } finally {
    s.cleanup();
  }
});

test("gpmcmc grid run killed (SIGKILL) in the middle of a parametric-chain job, run again: the results of the grid never killed", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    const base = { grid: "logisticRegression", kind: "parametric-chain", fixed: { draws: 300, burnIn: 50, thin: 1, start: "zero" }, axes: { data: ["heart_statlog"], sampler: ["rmhmc"], run: [0] } };
    const killed: GridSpec = { ...base, out: "killed", checkpointEvery: 10 };
    const whole: GridSpec = { ...base, out: "whole", checkpointEvery: 0 };
    await runGridLocally(join(s.dir, "whole"), jobsOf(whole, s.dir), { parallel: 1 });
    await runGridKilledOnce(s.dir, killed, 60_000);
    const read = (sp: GridSpec) => {
      const jobs = jobsOf(sp, s.dir);
      return readJobResults<AnyResult>(join(s.dir, sp.out), jobs).map((r, i) => ({ ...figures(jobs[i]!, r!), resumed: r!.resumed }));
    };
    const a = read(killed);
    const b = read(whole);
    assert.ok(a.some((r) => r.resumed), "some job resumed from its checkpoint");
    assert.deepEqual(a.map(({ resumed: _r, ...x }) => x), b.map(({ resumed: _r, ...x }) => x));
  } finally {
    s.cleanup();
  }
});
