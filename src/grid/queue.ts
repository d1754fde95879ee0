/**
 * Grids on BullMQ over Redis (the queue engine is BullMQ's; we write the jobs, not the queue):
 * `submitGrid` puts each job on the queue "gpmcmc-grid" under its id (BullMQ adds a job whose id
 * is already there once, so a grid submitted twice runs each job once), `awaitGrid` waits for
 * them and stores each result in the grid's results directory, and `startQueueWorker` pulls and
 * runs jobs, each on a worker thread of the pool, so the worker's event loop stays free to renew
 * the job's lock. A worker that dies (SIGKILL, a lost machine) stops renewing its lock; once
 * the lock expires BullMQ's stalled-job check, run by the other workers, puts the job back in
 * the queue, and the next worker to take it resumes it from the job's checkpoint when the
 * checkpoint directory is shared (the grid's output directory on a shared file system).
 */
import { hostname } from "node:os";
import { Queue, QueueEvents, UnrecoverableError, WaitingError, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { runTasks, StopFlag } from "../parallel/pool.js";
import { decodeExact, encodeExact } from "../run/checkpoint.js";
import { OutputError } from "../io/errors.js";
import { GridJobError, gridJobErrorOf, queuedReason } from "./jobError.js";
import type { GridJob } from "./spec.js";
import { readJobResult, writeJobResult } from "./store.js";

export const QUEUE_NAME = "gpmcmc-grid";

/** host and port of a redis://HOST:PORT URL (OptionError-free: the CLI names the option). */
export function parseRedisUrl(url: string): { host: string; port: number; db?: number } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RangeError(`not a URL: ${JSON.stringify(url)} (expected redis://HOST:PORT)`);
  }
  if (u.protocol !== "redis:") throw new RangeError(`${JSON.stringify(url)} is not a redis:// URL (expected redis://HOST:PORT)`);
  const port = u.port === "" ? 6379 : Number(u.port);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  if (db !== undefined && !Number.isInteger(db)) throw new RangeError(`${JSON.stringify(url)}: the database after the port must be a number`);
  return { host: u.hostname, port, ...(db !== undefined ? { db } : {}) };
}

/** A new connection (BullMQ needs maxRetriesPerRequest: null on the connections of workers). */
export function redisClient(url: string): Redis {
  return new Redis({ ...parseRedisUrl(url), maxRetriesPerRequest: null });
}

/** Redis cannot be reached at the URL given: the user's to fix (the URL, the server, the network), one line. */
export class RedisUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RedisUnreachableError";
  }
}

/** How long a first connection to Redis may take before the command gives up. */
export const CONNECT_TIMEOUT_SECONDS = 5;

/**
 * Checks that Redis at `url` answers a PING within `timeoutSeconds`, on a connection that does not
 * retry, before the queue's connections (which retry for ever, as a worker must when Redis
 * restarts) are made; throws RedisUnreachableError saying why not.
 */
export async function checkRedisReachable(url: string, timeoutSeconds = CONNECT_TIMEOUT_SECONDS): Promise<void> {
  const ms = timeoutSeconds * 1000;
  const client = new Redis({ ...parseRedisUrl(url), lazyConnect: true, connectTimeout: ms, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  let cause: Error | undefined; // the socket's error: connect() itself rejects with "Connection is closed."
  client.on("error", (e: Error) => (cause ??= e));
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutSeconds} s`)), ms))),
    ]);
  } catch (e) {
    const why = (cause ?? (e instanceof Error ? e : undefined))?.message ?? String(e);
    throw new RedisUnreachableError(`cannot reach Redis at ${url}: ${why === "" ? "the connection failed" : why}`);
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

/**
 * An 'error' listener for the queue's connections (which retry while Redis is away): one line
 * through `say` at most every 30 s, instead of BullMQ's printing each failed attempt's error object.
 */
function connectionErrors(url: string, say: (line: string) => void): (e: Error) => void {
  let last = -Infinity;
  return (e) => {
    const now = performance.now();
    if (now - last < 30_000) return;
    last = now;
    say(`Redis at ${url}: ${e.message} (retrying)`);
  };
}

const stderrLine = (line: string) => void process.stderr.write(`gpmcmc: ${line}\n`);

/** Runs `use` with a queue on its own connection, then closes both (BullMQ leaves a connection it was given open). */
async function withQueue<T>(url: string, use: (queue: Queue) => Promise<T>): Promise<T> {
  await checkRedisReachable(url);
  const connection = redisClient(url);
  const queue = new Queue(QUEUE_NAME, { connection });
  queue.on("error", connectionErrors(url, stderrLine));
  try {
    return await use(queue);
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/** Puts the jobs on the queue (those already there, waiting, running or done, are left as they are). */
export async function submitGrid(url: string, jobs: readonly GridJob[]): Promise<void> {
  await withQueue(url, (queue) => queue.addBulk(jobs.map((j) => ({
    name: j.kind, data: j,
    // attempts: a job that throws is tried again; one whose worker died comes back through the stalled check.
    opts: { jobId: j.id, attempts: 3, removeOnComplete: false, removeOnFail: false },
  }))));
}

/** How many of the jobs are in each state on the queue (absent: not submitted). */
export async function gridStates(url: string, jobs: readonly GridJob[]): Promise<Record<string, number>> {
  return withQueue(url, async (queue) => {
    const counts: Record<string, number> = {};
    for (const j of jobs) {
      const job = await queue.getJob(j.id);
      const state = job ? await job.getState() : "absent";
      counts[state] = (counts[state] ?? 0) + 1;
    }
    return counts;
  });
}

/**
 * Waits until every job has finished, storing each result under outDir as it comes; throws
 * when a job failed for good (its error named). Results travel as encodeExact text (NaN and
 * infinities kept, which BullMQ's JSON would turn into null).
 */
export async function awaitGrid(url: string, outDir: string, jobs: readonly GridJob[], onJob?: (job: GridJob, result: unknown) => void): Promise<void> {
  const byId = new Map(jobs.filter((j) => readJobResult(outDir, j.id) === undefined).map((j) => [j.id, j]));
  if (byId.size === 0) return;
  await checkRedisReachable(url);
  const eventsConnection = redisClient(url);
  const events = new QueueEvents(QUEUE_NAME, { connection: eventsConnection });
  events.on("error", connectionErrors(url, stderrLine));
  try {
    await events.waitUntilReady();
    await withQueue(url, (queue) => new Promise<void>((resolve, reject) => {
      const done = (id: string, encoded: unknown) => {
        const j = byId.get(id);
        if (!j) return;
        byId.delete(id);
        try {
          const result = decodeResult(encoded);
          writeJobResult(outDir, id, result);
          onJob?.(j, result);
        } catch (e) {
          reject(e);
        }
        if (byId.size === 0) resolve();
      };
      // a job its spec cannot describe is reported as on the local pool (jobError.ts); any other failure as one
      const failed = (id: string, reason: string) => {
        const identity = byId.get(id)?.identity;
        reject((identity !== undefined ? gridJobErrorOf(identity, reason) : undefined) ?? new Error(`grid job ${identity ?? id} failed: ${reason}`));
      };
      events.on("completed", ({ jobId, returnvalue }) => done(jobId, returnvalue));
      events.on("failed", ({ jobId, failedReason }) => {
        if (!byId.has(jobId)) return;
        // failed for good only when no attempt is left
        void queue.getJob(jobId).then(async (job) => {
          if (job && (await job.getState()) === "failed") failed(jobId, failedReason);
        }, reject);
      });
      // jobs that ended before we listened
      void (async () => {
        for (const id of [...byId.keys()]) {
          const job = await queue.getJob(id);
          if (!job) continue;
          const state = await job.getState();
          if (state === "completed") done(id, job.returnvalue);
          else if (state === "failed") failed(id, job.failedReason);
        }
      })().catch(reject);
    }));
  } finally {
    await events.close();
    eventsConnection.disconnect();
  }
}

/** A result as a worker returned it (encodeExact text), whether BullMQ hands it over as that text or as JSON of it. */
function decodeResult(value: unknown): unknown {
  let v = value;
  for (let i = 0; i < 2 && typeof v === "string"; i++) v = decodeExact(v);
  if (typeof v !== "object" || v === null) throw new Error(`a grid job returned ${JSON.stringify(value)?.slice(0, 80)}, not a result`);
  return v;
}

export interface QueueWorkerOptions {
  /** Jobs run at once, each on its own thread (default 1). */
  concurrency?: number;
  /** Seconds a job's lock lasts without renewal: how soon a dead worker's job is taken up again (default 30, BullMQ's). */
  lockSeconds?: number;
  onEvent?: (line: string) => void;
  /**
   * Told when a job's directories cannot be made on this machine (makeDirs' OutputError: under
   * /proc, read-only, a file in the way): the job goes back on the queue, for a worker that can,
   * and the caller stops this one (else it would take the job again).
   */
  onOutputError?: (e: OutputError) => void;
}

/**
 * Starts pulling jobs, once Redis answers (else RedisUnreachableError); resolves with a function
 * that stops the worker: it takes no new job, asks the running ones to stop at their next
 * transition (a job checkpoints when stopped, with checkpointEvery), puts them back on the queue
 * (not counted as a failed attempt) for another worker to resume, and closes its connections.
 */
export async function startQueueWorker(url: string, options: QueueWorkerOptions = {}): Promise<{ close: () => Promise<void> }> {
  await checkRedisReachable(url);
  const lockDuration = Math.round((options.lockSeconds ?? 30) * 1000);
  const say = options.onEvent ?? (() => {});
  const stop = new StopFlag();
  const connection = redisClient(url);
  const worker = new Worker(QUEUE_NAME, async (job: Job<GridJob>, token?: string) => {
    say(`job ${job.id} started: ${job.data.identity}`);
    let result: unknown;
    try {
      [result] = await runTasks([{ kind: job.data.kind, input: job.data }], { parallel: 1, stop });
    } catch (e) {
      // the spec is at fault: another attempt would fail the same way
      if (e instanceof GridJobError) throw new UnrecoverableError(queuedReason(e));
      if (e instanceof OutputError) {
        await job.moveToWait(token);
        options.onOutputError?.(e);
        throw new WaitingError();
      }
      if (stop.requested) {
        // stopped (SIGTERM, Ctrl-C): back on the queue for another worker, which resumes its checkpoint
        await job.moveToWait(token);
        say(`job ${job.id} stopped: back on the queue`);
        throw new WaitingError();
      }
      throw e;
    }
    say(`job ${job.id} done`);
    return encodeExact(result);
  }, {
    connection,
    concurrency: options.concurrency ?? 1,
    lockDuration,
    stalledInterval: Math.max(500, Math.round(lockDuration / 2)),
    maxStalledCount: 3,
    name: `${hostname()}:${process.pid}`,
  });
  worker.on("failed", (job, err) => {
    if (!(err instanceof WaitingError)) say(`job ${job?.id} failed: ${err.message}`);
  });
  worker.on("error", connectionErrors(url, say));
  return {
    close: async () => {
      const closing = worker.close(); // takes no new job
      stop.request();
      await closing;
      connection.disconnect();
    },
  };
}
