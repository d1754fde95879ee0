/**
 * A `gpmcmc sample` child process run to its end, interrupted once (SIGINT) half a second after
 * each of its chains has printed a progress line (`--progress`), if asked: its exit code and
 * what it printed. The Ctrl-C tests of fixed and sampled hyperparameters share it.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";

export async function runInterruptedOnce(child: ChildProcessWithoutNullStreams, chains: number, interrupt = true): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stderr = "";
  let stdout = "";
  const seen = new Set<string>();
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  let sent = false;
  const code = await new Promise<number | null>((resolve) => {
    child.stderr.on("data", (b: Buffer) => {
      stderr += b.toString();
      for (const m of stderr.matchAll(/^chain (\d+): \d+\/\d+ /gm)) seen.add(m[1]!);
      // every chain has reported (its first report comes at the end of burn-in): let them
      // sample a little, then interrupt once
      if (interrupt && seen.size === chains && !sent) {
        sent = true;
        setTimeout(() => child.kill("SIGINT"), 500);
      }
    });
    child.on("exit", (c) => resolve(c));
  });
  return { code, stdout, stderr };
}
