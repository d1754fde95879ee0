/**
 * A grid job that cannot run as its spec describes it (an unknown sampler, a setting out of
 * range, a grid named so that the seeds would not follow the identity): the spec is at fault,
 * not the program, so the command reports one line naming the job and exits 2. Registered with
 * the pool so that it keeps its class when a worker thread throws it. On a BullMQ queue, which
 * keeps only an error's message, a worker fails such a job for good (no retry: the spec would
 * fail again) with its message marked, and the submitting command rebuilds the error from it,
 * so that `grid run --queue` reports the same line and exit code as the local pool.
 */
import { registerErrorType } from "../parallel/errors.js";
import type { GridJob } from "./spec.js";

export class GridJobError extends Error {
  constructor(identity: string, reason: string) {
    super(`grid job "${identity}": ${reason}`);
    this.name = "GridJobError";
  }
}

registerErrorType(GridJobError);

/** What starts the reason of a queued job that failed with a GridJobError. */
const QUEUED_MARK = "GridJobError: ";

/** The failure reason a queue worker gives a job that threw `e`. */
export function queuedReason(e: GridJobError): string {
  return QUEUED_MARK + e.message;
}

/** The GridJobError a queued job of `identity` failed with, when its reason says so (else undefined). */
export function gridJobErrorOf(identity: string, reason: string): GridJobError | undefined {
  const head = `${QUEUED_MARK}grid job "${identity}": `;
  return reason.startsWith(head) ? new GridJobError(identity, reason.slice(head.length)) : undefined;
}

/** The job's fixed setting `key`, an integer >= min, or the GridJobError that names it. */
export function fixedInteger(job: GridJob, key: string, min: number): number {
  const v = job.fixed[key];
  if (!Number.isInteger(v) || (v as number) < min) refuseJob(job, `fixed setting ${key} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return v as number;
}

/** Refuses the job: its spec cannot describe it, for the reason given. */
export function refuseJob(job: GridJob, reason: string): never {
  throw new GridJobError(job.identity, reason);
}
