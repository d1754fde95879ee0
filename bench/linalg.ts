/**
 * Linear-algebra benchmark: Cholesky (dpotrf L, n^3/3 flops), triangular solve with n
 * right-hand sides (dtrsm L,L,N,N, n^3 flops) and the symmetric product A'A (dsyrk L,T, n^3
 * flops), on the native backend with 1 and 2 OpenBLAS threads, on the js backend, and through
 * OpenBLAS called directly from C (bench/blasDirect.c, the yardstick for the addon's
 * overhead).
 *
 * Native and C calls alternate one by one (the C program serves single calls over a pipe), so
 * load from other processes on a shared machine falls on both alike. Each figure is the
 * fastest call: other processes can only slow a call down, so the fastest is the best estimate
 * of the uncontended time (medians are kept in the --json output).
 *
 * Also: the time of small factorisations and matrix-vector products on both backends, where the
 * per-call cost of the addon decides which is faster (the high-level API keeps n < 16 in js).
 *
 * Usage: npm run bench -- linalg [--sizes 100,400,767,1500] [--threads 1,2] [--budget 0.6] [--no-js] [--no-crossover] [--json FILE]
 */
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
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
/** Seconds of calls per measurement (per side for native vs C); at least MIN_CALLS calls. */
const budget = Number(option("budget", "0.6"));
const MIN_CALLS = 5;
const withJs = !process.argv.includes("--no-js");
const jsonOut = option("json", "");

const root = fileURLToPath(new URL("../../", import.meta.url)); // dist/bench -> package root
const cBinary = `${root}bench/blasDirect`;
const native = loadNativeBackend();

/** The matrices blasDirect.c builds: SE kernel + 0.1 I, its lower factor, LCG entries. */
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
type Inputs = ReturnType<typeof inputs>;

/** One call through a backend, with fresh input copied in outside the timer; seconds. */
function callOnce(be: LinalgBackend, op: Op, n: number, m: Inputs): number {
  if (op === "potrf") m.work.set(m.spd);
  else if (op === "trsm") m.work.set(m.rhs);
  const t0 = performance.now();
  if (op === "potrf") {
    if (be.potrf("L", n, m.work, n) !== 0) throw new Error("potrf failed");
  } else if (op === "trsm") be.trsm("L", "L", "N", "N", n, n, 1, m.lower, n, m.work, n);
  else be.syrk("L", "T", n, n, 1, m.x, n, 0, m.work2, n);
  return (performance.now() - t0) / 1e3;
}

/** bench/blasDirect run as a server: one call per request, its time as the answer. */
class CServer {
  private readonly proc: ChildProcessWithoutNullStreams;
  private buffer = "";
  private readonly waiting: { resolve: (t: number) => void; reject: (e: Error) => void }[] = [];

  constructor(n: number, threads: number) {
    this.proc = spawn(cBinary, [String(n), String(threads)]);
    this.proc.stdout.setEncoding("utf8");
    this.proc.stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      let i: number;
      while ((i = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, i);
        this.buffer = this.buffer.slice(i + 1);
        this.waiting.shift()?.resolve(Number(line));
      }
    });
    let stderr = "";
    this.proc.stderr.on("data", (d) => (stderr += String(d)));
    this.proc.on("exit", (code) => {
      for (const w of this.waiting.splice(0)) w.reject(new Error(`blasDirect exited (${code}): ${stderr}`));
    });
  }

  call(op: Op): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.proc.stdin.write(op + "\n");
    });
  }

  close(): void {
    this.proc.stdin.end();
  }
}

interface Stat { best: number; median: number; calls: number }
function stat(times: number[]): Stat | undefined {
  if (times.length === 0) return undefined;
  const t = [...times].sort((a, b) => a - b);
  const k = t.length;
  return { best: t[0], median: k % 2 ? t[k >> 1] : (t[k / 2 - 1] + t[k / 2]) / 2, calls: k };
}

/** Alternating native and C calls of one operation, after one warm-up call of each. */
async function measurePair(op: Op, n: number, m: Inputs, c: CServer | undefined): Promise<{ native?: Stat; c?: Stat }> {
  const tn: number[] = [];
  const tc: number[] = [];
  if (native) callOnce(native, op, n, m);
  if (c) await c.call(op);
  let spent = 0;
  while (tn.length < 500 && (tn.length < MIN_CALLS || spent < budget)) {
    if (native) tn.push(callOnce(native, op, n, m));
    if (c) tc.push(await c.call(op));
    spent += Math.max(tn[tn.length - 1] ?? 0, tc[tc.length - 1] ?? 0);
  }
  return { native: stat(tn), c: stat(tc) };
}

/** js: serial, measured once per n; one call when a call alone exceeds the budget (large n). */
function measureJs(op: Op, n: number, m: Inputs): Stat {
  // At least a second: js calls are not interleaved with anything, so more of them are needed
  // for the fastest to be an uncontended one.
  const jsBudget = Math.max(budget, 1);
  const first = callOnce(jsBackend, op, n, m);
  if (first > jsBudget) return { best: first, median: first, calls: 1 };
  const times: number[] = [];
  let spent = 0;
  while (times.length < 200 && (times.length < 3 || spent < jsBudget)) {
    times.push(callOnce(jsBackend, op, n, m));
    spent += times[times.length - 1];
  }
  return stat(times)!;
}

const cpuModel = (() => {
  try {
    const m = /^model name\s*:\s*(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    return m ? m[1] : cpus()[0]?.model ?? "unknown";
  } catch {
    return cpus()[0]?.model ?? "unknown";
  }
})();
const haveC = existsSync(cBinary);

console.log(`# linalg benchmark, ${new Date().toISOString().slice(0, 10)}`);
console.log(`# CPU: ${cpuModel}, ${cpus().length} cores; node ${process.version}; load average at start ${loadavg()[0].toFixed(2)} (other processes share these cores)`);
console.log(native ? `# native: ${native.describe().config}` : `# native: unavailable (${nativeUnavailableReason()})`);
console.log(haveC ? "# C reference: bench/blasDirect" : "# C reference: unavailable (bench/blasDirect not built)");
console.log(`# time: fastest call (native and C alternating, >= ${MIN_CALLS} calls and ${budget} s each; js >= 1 s of calls, one call at n = 1500); ` +
  "GFLOP/s from potrf n^3/3, trsm n^3, syrk n^3");
console.log("");

interface Row { n: number; op: Op; threads: number; native?: Stat; c?: Stat; js?: Stat }
const rows: Row[] = [];
const fmtT = (s?: Stat) => (s === undefined ? "-" : s.best < 0.1 ? `${(s.best * 1e3).toFixed(3)} ms` : `${(s.best * 1e3).toFixed(1)} ms`);
const fmtG = (op: Op, n: number, s?: Stat) => (s === undefined ? "-" : (flops(op, n) / s.best / 1e9).toFixed(2));
const fmtR = (a?: Stat, b?: Stat) => (a === undefined || b === undefined ? "-" : (a.best / b.best).toFixed(3));

console.log("| n | op | threads | native time | native GFLOP/s | C time | C GFLOP/s | native/C time | js time | js GFLOP/s | js/native time |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
const initialThreads = native?.getThreads();
for (const n of sizes) {
  const m = inputs(n);
  // The same js figure stands beside each thread count: js is serial.
  const js: Partial<Record<Op, Stat>> = {};
  if (withJs) for (const op of OPS) js[op] = measureJs(op, n, m);
  for (const threads of threadCounts) {
    native?.setThreads(threads);
    const c = haveC ? new CServer(n, threads) : undefined;
    for (const op of OPS) {
      const r = await measurePair(op, n, m, c);
      const row: Row = { n, op, threads, native: r.native, c: r.c, js: js[op] };
      rows.push(row);
      console.log(`| ${n} | ${op} | ${threads} | ${fmtT(row.native)} | ${fmtG(op, n, row.native)} | ${fmtT(row.c)} | ${fmtG(op, n, row.c)} | ` +
        `${fmtR(row.native, row.c)} | ${fmtT(row.js)} | ${fmtG(op, n, row.js)} | ${fmtR(row.js, row.native)} |`);
    }
    c?.close();
  }
}

// Where the native call overhead stops mattering: small Cholesky factorisations and
// matrix-vector products on both backends (the high-level API keeps n < SMALL_ORDER in js).
const crossover: { n: number; op: string; native: number; js: number }[] = [];
if (native && withJs && !process.argv.includes("--no-crossover")) {
  native.setThreads(1);
  console.log("");
  console.log("| n | op | native time per call | js time per call | js/native time |");
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
      // Mean over a batch of ~20 ms (the copy in potrf is included on both sides alike);
      // the best of 5 batches.
      const per = (be: LinalgBackend) => {
        let calls = 1;
        let best = Infinity;
        for (let batch = 0; batch < 5;) {
          const t0 = performance.now();
          for (let i = 0; i < calls; i++) f(be);
          const t = (performance.now() - t0) / 1e3;
          if (t < 0.02) {
            calls *= 4;
            continue;
          }
          best = Math.min(best, t / calls);
          batch++;
        }
        return best;
      };
      const row = { n, op, native: per(native), js: per(jsBackend) };
      crossover.push(row);
      console.log(`| ${n} | ${op} | ${(row.native * 1e6).toFixed(2)} us | ${(row.js * 1e6).toFixed(2)} us | ${(row.js / row.native).toFixed(2)} |`);
    }
  }
}
if (native && initialThreads !== undefined) native.setThreads(initialThreads);

console.log("");
console.log(`# load average at end ${loadavg()[0].toFixed(2)}`);
console.log("native/C time: 1.00 means the addon adds nothing to OpenBLAS called from C (target: <= 1.10).");
console.log("js/native time: how many times slower the pure TypeScript backend is.");
if (jsonOut) {
  writeFileSync(jsonOut, JSON.stringify({ date: new Date().toISOString(), cpu: cpuModel, cores: cpus().length, node: process.version,
    openblas: native?.describe().config, budget, rows, crossover }, null, 2) + "\n");
}
