/**
 * The message a long task sends with each checkpoint of its state (a chain's, an annealing
 * run's): the thread that started the run writes it, so that an abort of that thread
 * (process.exit) never cuts a write half-way, and a task's other messages (progress) are told
 * apart from it by its one field.
 */

export interface CheckpointMessage<C = unknown> {
  checkpoint: C;
}

export function isCheckpointMessage(m: unknown): m is CheckpointMessage {
  return typeof m === "object" && m !== null && "checkpoint" in m;
}
