/**
 * A grid job that cannot run as its spec describes it (an unknown sampler, a setting out of
 * range, a grid named so that the seeds would not follow the identity): the spec is at fault,
 * not the program, so the command reports one line naming the job and exits 2. Registered with
 * the pool so that it keeps its class when a worker thread throws it.
 */
import { registerErrorType } from "../parallel/errors.js";

export class GridJobError extends Error {
  constructor(identity: string, reason: string) {
    super(`grid job "${identity}": ${reason}`);
    this.name = "GridJobError";
  }
}

registerErrorType(GridJobError);
