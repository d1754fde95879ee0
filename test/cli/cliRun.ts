/**
 * The built `gpmcmc` run as a child process, as the CLI tests run it: from the repository root,
 * from anywhere with GPMCMC_DEBUG unset (so that errors are the one line users see), or with the
 * js backend's start-up notice taken out of stderr.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "../fixtures.js";

export const CLI = join(REPO_ROOT, "dist", "src", "cli", "main.js");

/** `gpmcmc ARGS...` in the repository root. */
export function cliInRepo(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd: REPO_ROOT });
}

/** `gpmcmc ARGS...` with GPMCMC_DEBUG unset: errors without their stack traces. */
export function cliWithoutDebug(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, GPMCMC_DEBUG: "" } });
}

/** `gpmcmc ARGS` in the repository root: exit code, stdout, and stderr without the js backend's notice. */
export function cliOutcome(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = cliInRepo(...args);
  const stderr = r.stderr.replace(/^gpmcmc: using the pure TypeScript linear-algebra backend.*\n/m, "");
  return { code: r.status, stdout: r.stdout, stderr };
}
