/**
 * `gpmcmc grid run|status|collect SPEC.json` and `gpmcmc worker`: experiment grids (src/grid).
 * By default `grid run` runs the jobs on a pool of worker threads here; with --queue
 * redis://HOST:PORT it puts them on a BullMQ queue and waits while `gpmcmc worker --queue ...`
 * processes, on any number of machines, run them. Results land in the spec's output directory
 * either way; `collect` prints them as one table, `status` says how far the grid is.
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { writeFileAtomic } from "../io/atomic.js";
import { DataError, OutputError } from "../io/errors.js";
import { makeDirs } from "../io/makeDirs.js";
import { StopFlag } from "../parallel/pool.js";
import { runGridLocally } from "../grid/localRunner.js";
import { awaitGrid, gridStates, parseRedisUrl, RedisUnreachableError, startQueueWorker, submitGrid } from "../grid/queue.js";
import type { GridJobResult } from "../grid/simulatedChainJob.js";
import "../grid/simulatedChainJob.js"; // registers its job kind
import "../grid/hyperChainJob.js"; // registers its job kind
import "../grid/parametricChainJob.js"; // registers its job kind
import "../grid/volatilityRunJob.js"; // registers its job kind
import "../grid/fitzhughNagumoRunJob.js"; // registers its job kind
import "../grid/coxProcessRunJob.js"; // registers its job kind
import { gridJobs, readGridSpec, type GridJob } from "../grid/spec.js";
import { readJobResults } from "../grid/store.js";
import { collectGridDraws } from "../grid/collectDraws.js";
import { registerUserError } from "./errors.js";
import { checkGridDrawsFit } from "./memoryBudget.js";
import { exclusive, OptionError, parsePath, parsePositiveInteger, parsePositiveNumber } from "./options.js";

registerUserError(RedisUnreachableError);

/** How long a worker takes at most to stop on SIGINT or SIGTERM. */
const STOP_MS = 1000;

function queueUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    parseRedisUrl(raw);
  } catch (e) {
    throw new OptionError("--queue", (e as Error).message);
  }
  return raw;
}

/** The results table's columns: the cell's axes, then the job's figures. */
export function resultRows(jobs: readonly GridJob[], results: readonly (GridJobResult | undefined)[]): string[][] {
  // (a "hyper-chain" job's result has no tuned value or chain summary: those columns stay empty)
  const axes = jobs.length > 0 ? Object.keys(jobs[0].cell) : [];
  const header = [...axes, "min_ess", "acceptance_rate", "tuned", "sampling_seconds", "gradient_calls", "resumed", "job"];
  const rows = jobs.map((j, i) => {
    const r = results[i];
    if (!r) return [...axes.map((a) => String(j.cell[a])), "", "", "", "", "", "", j.id];
    return [...axes.map((a) => String(j.cell[a])), String(r.minEss), String(r.acceptanceRate), String(r.tunedValue ?? ""), r.seconds.sampling.toFixed(3), String(r.summary?.gradientCalls ?? ""), String(r.resumed), j.id];
  });
  return [header, ...rows];
}

/** Whether a directory holds no file, only (possibly) directories that hold none, as a job refused at its start leaves its draws/ and checkpoints/. */
function holdsNoFile(dir: string): boolean {
  return readdirSync(dir, { withFileTypes: true }).every((e) => e.isDirectory() && holdsNoFile(join(dir, e.name)));
}

/** Removes the directories makeDirs made, deepest first, where they still hold no file (a run refused before any job wrote). */
function removeEmptyDirs(made: readonly string[]): void {
  for (const d of [...made].reverse()) {
    try {
      if (holdsNoFile(d)) rmSync(d, { recursive: true });
    } catch {
      // not ours to clean any more
    }
  }
}

/** grid run's jobs, here or on the queue at `url`, once the output directory is made. */
async function runGridJobsHere(specPath: string, o: RunOpts, g: ReturnType<typeof readGridSpec>, jobs: readonly GridJob[], url: string | undefined, parallel: number | undefined): Promise<void> {
  let done = 0;
  const onJob = (j: GridJob) => {
    done++;
    if (!o.quiet) process.stderr.write(`grid: ${done} done: ${j.identity}\n`);
  };
  const t0 = performance.now();
  if (url === undefined) {
    const stop = new StopFlag();
    for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => stop.request());
    let r;
    try {
      r = await runGridLocally(g.outDir, jobs, { parallel, stop, onJob });
    } catch (e) {
      if (!stop.requested) throw e;
      // the running jobs stopped at a transition (and checkpointed, with checkpointEvery)
      process.stderr.write(`gpmcmc: grid stopped: ${done} of ${jobs.length} jobs done this time; grid run ${specPath} again runs the rest\n`);
      process.exitCode = 130;
      return;
    }
    process.stdout.write(`grid ${g.spec.grid}: ${jobs.length} jobs, ${r.ran} run here, ${r.skipped} already done; ${((performance.now() - t0) / 1000).toFixed(2)} s; results in ${g.outDir}\n`);
  } else {
    await submitGrid(url, jobs);
    await awaitGrid(url, g.outDir, jobs, onJob);
    process.stdout.write(`grid ${g.spec.grid}: ${jobs.length} jobs on ${url}, ${done} finished while waiting; ${((performance.now() - t0) / 1000).toFixed(2)} s; results in ${g.outDir}\n`);
  }
}

interface RunOpts { parallel?: string; queue?: string; quiet?: boolean }

export function registerGridCommands(program: Command): void {
  const grid = program.command("grid").description("run an experiment grid (jobs: data set x model x sampler x chain, seeds from each job's identity) on worker threads here or on a BullMQ queue");
  // without a subcommand: one line, as every other usage error (Commander would print the help as an error)
  grid.allowExcessArguments(true).action((_options: unknown, command: Command) => {
    const given = command.args[0];
    throw new OptionError("grid", given === undefined ? "needs a subcommand: run, status or collect (gpmcmc grid --help describes them)" : `unknown subcommand ${JSON.stringify(given)} (known: run, status, collect)`);
  });
  grid
    .command("run <spec>")
    .description("run the jobs of SPEC.json that have no result yet (on worker threads here, or with --queue on `gpmcmc worker` processes)")
    .option("--parallel <p>", "worker threads here (default: the number of cores)")
    .option("--queue <url>", "put the jobs on the BullMQ queue at redis://HOST:PORT and wait for workers to run them")
    .option("--quiet", "no line per finished job on stderr")
    .action(async (specPath: string, o: RunOpts) => {
      const parallel = o.parallel === undefined ? undefined : parsePositiveInteger("--parallel", o.parallel);
      const url = queueUrl(o.queue);
      if (url !== undefined && parallel !== undefined) throw new OptionError("--parallel", "applies to a local run; with --queue each worker sets its own --concurrency");
      const g = readGridSpec(parsePath("SPEC", specPath));
      const jobs = gridJobs(g);
      for (const j of jobs) {
        const draws = j.fixed.draws ?? j.cell.draws;
        if (typeof draws === "number") checkGridDrawsFit(g.path, draws);
      }
      // before any job runs: a directory the file system refuses is one line naming it, not a failure in every job
      const made = makeDirs(g.outDir);
      try {
        await runGridJobsHere(specPath, o, g, jobs, url, parallel);
      } catch (e) {
        removeEmptyDirs(made);
        throw e;
      }
    });
  grid
    .command("status <spec>")
    .description("how many jobs of SPEC.json have results (and, with --queue, their states on the queue)")
    .option("--queue <url>", "also ask the BullMQ queue at redis://HOST:PORT")
    .option("--json", "print one JSON object")
    .action(async (specPath: string, o: { queue?: string; json?: boolean }) => {
      const url = queueUrl(o.queue);
      const g = readGridSpec(parsePath("SPEC", specPath));
      const jobs = gridJobs(g);
      const done = readJobResults(g.outDir, jobs).filter((r) => r !== undefined).length;
      const queue = url === undefined ? undefined : await gridStates(url, jobs);
      const status = { grid: g.spec.grid, jobs: jobs.length, done, ...(queue ? { queue } : {}) };
      process.stdout.write(o.json ? JSON.stringify(status) + "\n"
        : `grid ${status.grid}: ${done} of ${jobs.length} jobs done${queue ? `; on the queue: ${Object.entries(queue).map(([k, v]) => `${v} ${k}`).join(", ")}` : ""}\n`);
    });
  grid
    .command("collect <spec>")
    .description("the results of SPEC.json's jobs as one CSV table (one row per job, in the spec's order); with --draws DIR, each finished job's draws as a run directory that diagnose and report read")
    .option("--out <file>", "write the table to a file instead of stdout")
    .option("--json", "print the results as one JSON array instead")
    .option("--draws <dir>", "write each finished job's draws into <dir> instead of printing the table (--out still writes it): a directory per cell, named after it, holding draws_1.csv in the layout gpmcmc sample writes and job.json, for gpmcmc diagnose and gpmcmc report")
    .option("--overwrite", "with --draws: replace what an earlier collect (or another gpmcmc command) wrote into <dir>")
    .option("--force", "with --draws: write into an existing directory that is not empty and not gpmcmc's (its other entries are kept)")
    .action((specPath: string, o: { out?: string; json?: boolean; draws?: string; overwrite?: boolean; force?: boolean }) => {
      if (o.draws === undefined) {
        for (const [flag, given] of [["--overwrite", o.overwrite], ["--force", o.force]] as const) {
          if (given) throw new OptionError(flag, "applies only with --draws DIR (it says what to do with an existing DIR)");
        }
      }
      exclusive({ "--draws": o.draws, "--json": o.json });
      const drawsDir = o.draws === undefined ? undefined : parsePath("--draws", o.draws);
      const g = readGridSpec(parsePath("SPEC", specPath));
      const jobs = gridJobs(g);
      const results = readJobResults<GridJobResult>(g.outDir, jobs);
      const missing = results.filter((r) => r === undefined).length;
      // nothing to collect: a table of empty rows would pass for results
      if (missing === jobs.length) throw new DataError({ file: specPath }, `no job of grid ${JSON.stringify(g.spec.grid)} has finished yet (0 of ${jobs.length}); gpmcmc grid run ${specPath} runs them`);
      const text = o.json ? JSON.stringify(results.map((r, i) => r ?? { id: jobs[i].id, identity: jobs[i].identity, missing: true })) + "\n"
        : resultRows(jobs, results).map((r) => r.join(",")).join("\n") + "\n";
      if (drawsDir !== undefined) {
        const c = collectGridDraws(g, jobs, results, drawsDir, { overwrite: o.overwrite, force: o.force });
        process.stdout.write(`wrote the draws of ${c.cells.length} job${c.cells.length === 1 ? "" : "s"} into ${drawsDir}, a directory per cell (gpmcmc diagnose ${join(drawsDir, c.cells[0].name)} reads the first)\n`);
        if (c.withoutDraws.length > 0) process.stderr.write(`gpmcmc: ${c.withoutDraws.length} finished job${c.withoutDraws.length === 1 ? "" : "s"} kept no draws (${g.spec.kind})\n`);
      }
      if (o.out !== undefined) writeFileAtomic(parsePath("--out", o.out), text);
      else if (drawsDir === undefined) process.stdout.write(text);
      if (missing > 0) process.stderr.write(`gpmcmc: ${missing} of ${jobs.length} jobs have no result yet (gpmcmc grid run ${specPath})\n`);
    });

  program
    .command("worker")
    .description("run grid jobs from the BullMQ queue at --queue until stopped (Ctrl-C or SIGTERM: within a second; the running jobs stop at a checkpoint and go back on the queue for another worker to resume)")
    .requiredOption("--queue <url>", "the queue's Redis, redis://HOST:PORT")
    .option("--concurrency <c>", "jobs run at once, each on its own thread", "1")
    .option("--lock-seconds <s>", "how long a job's lock lasts unrenewed: a dead worker's job goes to another after this", "30")
    .option("--quiet", "no line per job on stderr")
    .action(async (o: { queue: string; concurrency: string; lockSeconds: string; quiet?: boolean }) => {
      const url = queueUrl(o.queue)!;
      const concurrency = parsePositiveInteger("--concurrency", o.concurrency);
      const lockSeconds = parsePositiveNumber("--lock-seconds", o.lockSeconds);
      const say = (l: string) => void process.stderr.write(`worker ${process.pid}: ${l}\n`);
      // SIGINT, SIGTERM: stop within a second, whatever Redis does; a running job goes back on
      // the queue (or, where that cannot be done in time, to another worker once its lock expires)
      let w: { close: () => Promise<void> } | undefined;
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        setTimeout(() => process.exit(0), STOP_MS).unref();
        if (w === undefined) process.exit(0);
        if (!o.quiet) say(`${signal}: stopping; a running job goes back on the queue, to be resumed from its checkpoint`);
        void w.close().then(() => process.exit(0), () => process.exit(0));
      };
      process.on("SIGINT", () => stop("SIGINT"));
      process.on("SIGTERM", () => stop("SIGTERM"));
      // a job's directory this machine cannot make (its job back on the queue): one line, exit 2
      let refuse: (e: Error) => void = () => {};
      const refused = new Promise<never>((_, reject) => (refuse = reject));
      const onOutputError = (e: Error) => void w!.close().then(() => refuse(e), () => refuse(e));
      w = await startQueueWorker(url, { concurrency, lockSeconds, onEvent: o.quiet ? undefined : say, onOutputError });
      say(`waiting for jobs on ${url}`);
      await refused; // until stopped, or refused
    });
}
