/**
 * Linear-algebra benchmark: Cholesky (dpotrf L, n^3/3 flops), triangular solve with n
 * right-hand sides (dtrsm L,L,N,N, n^3 flops) and the symmetric product A'A (dsyrk L,T, n^3
 * flops), on the native backend with 1 and 2 OpenBLAS threads, on the js backend, and through
 * OpenBLAS called directly from C (bench/blas_direct.c, the yardstick for the addon's
 * overhead). Each figure is the fastest repetition: on a shared machine the other processes can
 * only slow a repetition down, so the fastest one is the best estimate of the uncontended time
 * (the median is kept in the --json output). Native and C are measured alternately, `rounds`
 * times each, so a burst of load from elsewhere hits both alike.
 *
 * Also: the time of small factorisations and matrix-vector products on both backends, where the
 * per-call cost of the addon decides which is faster (the high-level API keeps n < 32 in js).
 *
 * Usage: npm run bench -- linalg [--sizes 100,400,767,1500] [--threads 1,2] [--budget 0.15] [--rounds 4] [--no-js] [--no-crossover] [--json FILE]
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { jsBackend, loadNativeBackend, nativeUnavailableReason } from "../src/linalg/index.js";
import type { LinalgBackend } from "../src/linalg/index.js";

type Op = "potrf" | "trsm" | "syrk";
const OPS: Op[] = ["potrf", "trsm", "syrk"];
const flops = (op: Op, n: number) => (op === "potrf" ? n ** 3 / 3 : n ** 3);

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const sizes = option("sizes", "100,400,767,1500").split(",").map(Number);
const threadCounts = option("threads", "1,2").split(",").map(Number);
const budget = Number(option("budget", "0.15"));
const rounds = Number(option("rounds", "4"));
const withJs = !process.argv.includes("--no-js");
const jsonOut = option("json", "");

const root = fileURLToPath(new URL("../../", import.meta.url)); // dist/bench -> package root
const cBinary = `${root}bench/blas_direct`;

/** The matrices blas_direct.c builds: SE kernel + 0.1 I, its lower factor, LCG entries. */
function inputs(n: number) {
  const spd = new Float64Array(n * n);
  const rhs = new Float64Array(n * n);
  const x = new Float64Array(n * n);
  let s = 12345;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296 - 0.5;
  };
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const d = (i - j) / (0.1 * n);
      spd[i + j * n] = Math.exp(-0.5 * d * d) + (i === j ? 0.1 : 0);
      rhs[i + j * n] = next();
      x[i + j * n] = next();
    }
  }
  const lower = spd.slice();
  if ((native ?? jsBackend).potrf("L", n, lower, n) !== 0) throw new Error("benchmark matrix is not SPD");
  for (let j = 0; j < n; j++) lower.fill(0, j * n, j * n + j);
  return { spd, rhs, x, lower, work: new Float64Array(n * n), work2: new Float64Array(n * n) };
}

/** Seconds of one operation: warm-up, then >= 3 reps (1 if a call exceeds the budget) until the budget is spent. */
function timeOp(be: LinalgBackend, op: Op, n: number, m: ReturnType<typeof inputs>, budgetS: number): { best: number; median: number; reps: number } {
  const prepare = () => {
    if (op === "potrf") m.work.set(m.spd);
    else if (op === "trsm") m.work.set(m.rhs);
  };
  const compute = () => {
    if (op === "potrf") {
      if (be.potrf("L", n, m.work, n) !== 0) throw new Error("potrf failed");
    } else if (op === "trsm") be.trsm("L", "L", "N", "N", n, n, 1, m.lower, n, m.work, n);
    else be.syrk("L", "T", n, n, 1, m.x, n, 0, m.work2, n);
  };
  const times: number[] = [];
  let spent = 0;
  prepare();
  const w0 = performance.now();
  compute();
  const warm = (performance.now() - w0) / 1e3;
  // A single call longer than the budget (js at large n): that call is the measurement.
  if (warm > budgetS) return { best: warm, median: warm, reps: 1 };
  while (times.length < 200 && (times.length < 3 || spent < budgetS)) {
    prepare();
    const t0 = performance.now();
    compute();
    const t = (performance.now() - t0) / 1e3;
    times.push(t);
    spent += t;
  }
  times.sort((a, b) => a - b);
  const k = times.length;
  return { best: times[0], median: k % 2 ? times[k >> 1] : (times[k / 2 - 1] + times[k / 2]) / 2, reps: k };
}

function timeC(n: number, threads: number): Record<Op, { best: number; median: number }> | undefined {
  if (!existsSync(cBinary)) return undefined;
  const r = spawnSync(cBinary, [String(n), String(threads), String(budget)], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`blas_direct failed: ${r.stderr}`);
  const out = {} as Record<Op, { best: number; median: number }>;
  for (const line of r.stdout.trim().split("\n")) {
    const [op, best, median] = line.split(" ");
    out[op as Op] = { best: Number(best), median: Number(median) };
  }
  return out;
}

const native = loadNativeBackend();
const cpuModel = (() => {
  try {
    const m = /^model name\s*:\s*(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    return m ? m[1] : cpus()[0]?.model ?? "unknown";
  } catch {
    return cpus()[0]?.model ?? "unknown";
  }
})();

console.log(`# linalg benchmark, ${new Date().toISOString().slice(0, 10)}`);
console.log(`# CPU: ${cpuModel}, ${cpus().length} cores; node ${process.version}; load average at start ${loadavg()[0].toFixed(2)} (other processes share these cores)`);
console.log(native ? `# native: ${native.describe().config}` : `# native: unavailable (${nativeUnavailableReason()})`);
console.log(existsSync(cBinary) ? "# C reference: bench/blas_direct" : "# C reference: unavailable (bench/blas_direct not built)");
console.log(`# time: fastest repetition over ${rounds} rounds of >= 3 (${budget} s each; js: one round of >= 1 s, one call at large n); GFLOP/s from potrf n^3/3, trsm n^3, syrk n^3`);
console.log("");

interface Row {
  n: number; op: Op; threads: number; native?: number; c?: number; js?: number;
  nativeMedian?: number; cMedian?: number; jsMedian?: number;
}
const rows: Row[] = [];
const fmtT = (s?: number) => (s === undefined ? "-" : s < 0.1 ? `${(s * 1e3).toFixed(3)} ms` : `${(s * 1e3).toFixed(1)} ms`);
const fmtG = (op: Op, n: number, s?: number) => (s === undefined ? "-" : (flops(op, n) / s / 1e9).toFixed(2));
const fmtR = (a?: number, b?: number) => (a === undefined || b === undefined ? "-" : (a / b).toFixed(3));

console.log("| n | op | threads | native time | native GFLOP/s | C time | C GFLOP/s | native/C time | js time | js GFLOP/s | js/native time |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
const initialThreads = native?.getThreads();
for (const n of sizes) {
  const m = inputs(n);
  // js is serial: measured once per n (the same figure stands beside each thread count).
  const js: Partial<Record<Op, { best: number; median: number }>> = {};
  if (withJs) {
    // One round for js: at large n one call is already seconds.
    for (const op of OPS) js[op] = timeOp(jsBackend, op, n, m, Math.max(budget, 1));
  }
  for (const threads of threadCounts) {
    const nat: Partial<Record<Op, { best: number; median: number }>> = {};
    let c: Partial<Record<Op, { best: number; median: number }>> | undefined;
    const better = (a: { best: number; median: number } | undefined, b: { best: number; median: number }) =>
      ({ best: Math.min(a?.best ?? Infinity, b.best), median: Math.min(a?.median ?? Infinity, b.median) });
    for (let round = 0; round < rounds; round++) {
      if (native) {
        native.setThreads(threads);
        for (const op of OPS) {
          nat[op] = better(nat[op], timeOp(native, op, n, m, budget));
        }
      }
      const ct = timeC(n, threads);
      if (ct) {
        c ??= {};
        for (const op of OPS) c[op] = better(c[op], ct[op]);
      }
    }
    for (const op of OPS) {
      const row: Row = {
        n, op, threads, native: nat[op]?.best, c: c?.[op]?.best, js: js[op]?.best,
        nativeMedian: nat[op]?.median, cMedian: c?.[op]?.median, jsMedian: js[op]?.median,
      };
      rows.push(row);
      console.log(`| ${n} | ${op} | ${threads} | ${fmtT(row.native)} | ${fmtG(op, n, row.native)} | ${fmtT(row.c)} | ${fmtG(op, n, row.c)} | ` +
        `${fmtR(row.native, row.c)} | ${fmtT(row.js)} | ${fmtG(op, n, row.js)} | ${fmtR(row.js, row.native)} |`);
    }
  }
}
if (native && initialThreads !== undefined) native.setThreads(initialThreads);

// Where the native call overhead stops mattering: small Cholesky factorisations and
// matrix-vector products on both backends (the high-level API keeps n < SMALL_ORDER in js).
const crossover: { n: number; op: string; native?: number; js: number }[] = [];
if (native && withJs && !process.argv.includes("--no-crossover")) {
  native.setThreads(1);
  console.log("");
  console.log("| n | op | native time | js time | js/native time |");
  console.log("|---|---|---|---|---|");
  for (const n of [2, 4, 8, 16, 32, 64, 128]) {
    const m = inputs(n);
    const xv = m.x.subarray(0, n);
    const yv = m.work2.subarray(0, n);
    const cases: [string, (be: LinalgBackend) => void][] = [
      ["potrf", (be) => {
        m.work.set(m.spd);
        be.potrf("L", n, m.work, n);
      }],
      ["gemv", (be) => be.gemv("N", n, n, 1, m.spd, n, xv, 0, yv)],
    ];
    for (const [op, f] of cases) {
      const per = (be: LinalgBackend) => {
        // Enough calls for ~20 ms; the copy in potrf is included on both sides alike.
        let calls = 1;
        for (;;) {
          const t0 = performance.now();
          for (let i = 0; i < calls; i++) f(be);
          const t = (performance.now() - t0) / 1e3;
          if (t > 0.02) return t / calls;
          calls *= 4;
        }
      };
      const row = { n, op, native: per(native), js: per(jsBackend) };
      crossover.push(row);
      console.log(`| ${n} | ${op} | ${(row.native * 1e6).toFixed(2)} us | ${(row.js * 1e6).toFixed(2)} us | ${(row.js / row.native).toFixed(2)} |`);
    }
  }
  if (initialThreads !== undefined) native.setThreads(initialThreads);
}

console.log("");
console.log(`# load average at end ${loadavg()[0].toFixed(2)}`);
console.log("native/C time: 1.00 means the addon adds nothing to OpenBLAS called from C (target: <= 1.10).");
console.log("js/native time: how many times slower the pure TypeScript backend is.");
if (jsonOut) {
  writeFileSync(jsonOut, JSON.stringify({ date: new Date().toISOString(), cpu: cpuModel, cores: cpus().length, node: process.version,
    openblas: native?.describe().config, budget, rounds, rows, crossover }, null, 2) + "\n");
}
