/**
 * Grid jobs run as the checkpoint tests need them: a spec's jobs under a directory, a context that
 * stops a job after some transitions, and a `gpmcmc grid run` killed with SIGKILL once a job's
 * checkpoint is on disk, then run again to its end (what a grid whose worker died mid-job goes
 * through).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gridJobs, type GridJob, type GridSpec } from "../../src/grid/spec.js";
import type { TaskContext } from "../../src/parallel/tasks.js";
import { REPO_ROOT } from "../fixtures.js";

const MAIN = join(REPO_ROOT, "dist", "src", "cli", "main.js");

/** The jobs of `s` with its spec file in `dir`. */
export function jobsOf(s: GridSpec, dir: string): GridJob[] {
  return gridJobs({ spec: s, path: join(dir, "spec.json"), outDir: join(dir, s.out) });
}

/** A context that asks the job to stop before the `after`-th transition of this attempt (after `after` - 1 of them). */
export function stopAfter(after: number): TaskContext {
  let calls = 0;
  return { index: 0, progress: () => {}, stopRequested: () => ++calls === after };
}

/** Writes `spec` to DIR/killed.json, runs it, kills the run (SIGKILL) at its first checkpoint, runs it again; polls up to `waitMs`. */
export async function runGridKilledOnce(dir: string, spec: GridSpec, waitMs = 30_000): Promise<void> {
  const path = join(dir, "killed.json");
  writeFileSync(path, JSON.stringify(spec));
  const child = spawn(process.execPath, [MAIN, "grid", "run", path, "--parallel", "1", "--quiet"], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const checkpoints = join(dir, spec.out, "checkpoints");
  let seen = false;
  for (let i = 0; i < waitMs / 25 && !seen; i++) {
    await new Promise((r) => setTimeout(r, 25));
    seen = existsSync(checkpoints) && readdirSync(checkpoints).some((f) => f.endsWith(".json"));
  }
  assert.ok(seen, "no checkpoint appeared");
  child.kill("SIGKILL");
  await exited;
  const again = spawn(process.execPath, [MAIN, "grid", "run", path, "--parallel", "1", "--quiet"], { stdio: "ignore" });
  assert.equal(await new Promise((resolve) => again.on("exit", resolve)), 0);
}
