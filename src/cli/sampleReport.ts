/** What the sample command's two kinds of GP run (fixed and sampled hyperparameters) print and record alike. */
import type { OutputDir } from "../io/atomic.js";
import type { StopFlag } from "../parallel/pool.js";

/** A figure for the text summary: whole above 100, else `digits` significant digits; "n/a" when absent. */
export function fmt(x: number | null, digits = 3): string {
  if (x === null || !Number.isFinite(x)) return "n/a";
  return Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(digits);
}

/** The training data as summary.json records it, so that `gpmcmc predict` can check and rebuild it. */
export function dataRecord(data: { path: string; n: number; d: number; inputNames: string[] }, sha256: string, exposureColumn?: string) {
  return { file: data.path, n: data.n, d: data.d, sha256, inputNames: data.inputNames, ...(exposureColumn !== undefined ? { exposureColumn } : {}) };
}

/** Writes summary.json and closes the directory (marked complete or not), then prints the report. */
export function publishReport<R extends { complete: boolean }>(report: R, out: OutputDir | undefined, json: boolean, format: (r: R) => string, print: (text: string) => void): R {
  if (out) {
    out.writeJson("summary.json", report);
    out.finish(report.complete);
  }
  print(json ? JSON.stringify(report) + "\n" : format(report));
  return report;
}

/**
 * Ctrl-C for a run: the first SIGINT sets `stop` (each chain ends at its next transition and its
 * draws so far are written, marked incomplete), the second runs `onAbort` and exits at once with
 * 130 (the output directory stays marked incomplete). With `sigterm` (the message to print),
 * SIGTERM stops the run as the first SIGINT does; `sigint` is the first SIGINT's message (default:
 * a sample run's). Returns what removes the handlers.
 */
export function handleInterrupts(stop: StopFlag, stderr: (text: string) => void, options: { onAbort?: () => void; sigterm?: string; sigint?: string } = {}): () => void {
  const onSigint = () => {
    if (stop.requested) {
      stderr("gpmcmc: aborted; the output directory is marked incomplete\n");
      options.onAbort?.();
      process.exit(130);
    }
    stop.request();
    stderr(options.sigint ?? "gpmcmc: stopping: the draws so far will be kept (Ctrl-C again to abort)\n");
  };
  const onTerm = () => {
    stop.request();
    stderr(options.sigterm ?? "");
  };
  process.on("SIGINT", onSigint);
  if (options.sigterm !== undefined) process.on("SIGTERM", onTerm);
  return () => {
    process.off("SIGINT", onSigint);
    if (options.sigterm !== undefined) process.off("SIGTERM", onTerm);
  };
}
