/** What the sample command's two kinds of GP run (fixed and sampled hyperparameters) print and record alike. */
import type { OutputDir } from "../io/atomic.js";

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
