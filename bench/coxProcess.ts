/**
 * The cost of one leapfrog step of RMHMC on the log-Gaussian Cox process (constant metric,
 * models/coxProcess/samplers.ts) as the grid grows: n x n grids, N = n^2 cells, n = 16, 32, 64, 128 by default,
 * for both grid covariances:
 *
 * - euclidean (the paper's, the default model): a step is one gradient in the whitened torus
 *   coordinates (x = mu + R C^1/2 nu and C^1/2 R' (y - m e^x): two FFT pairs on the M x M torus,
 *   M = 2n) and one G^-1 p (one FFT pair): O(N log N), on 4N coordinates.
 * - separable: one gradient (Sigma^-1 (x - mu) through the Kronecker rotations) and one G^-1 p
 *   (the same), growing as N^1.5 (two n x n x n products per rotation, four rotations).
 *
 * Baseline in the same run: the same step with dense N x N algebra, i.e. the two N x N
 * matrix-vector products (Sigma^-1 r and G^-1 p; timed as two gemv with the dense Sigma^-1, which
 * costs what any dense N x N matrix costs) plus the same elementwise work, for the grids whose
 * dense matrix fits (--dense-sides, default 16,32,64: at n = 128 the matrix alone is 2.1 GB).
 *
 * Each figure is the median over --reps blocks of steps (each block at least --block-ms of wall
 * time), wall and CPU time (BLAS on one thread); the growth exponent is the least-squares slope of
 * log time against log N.
 *
 *   npm run bench -- coxProcess [--sides 16,32,64,128] [--dense-sides 16,32,64] [--reps 5] [--block-ms 200] [--json]
 */
import { backendFor } from "../src/linalg/cholesky.js";
import { getBackend } from "../src/linalg/backend.js";
import { paperHyperparameters, type CoxProcessModel } from "../src/models/coxProcess/coxProcess.js";
import { denseGridPrecision } from "../src/models/coxProcess/christensen.js";
import { coxFieldModel, type CoxModel } from "../src/models/coxProcess/fieldModel.js";
import type { GridDistance } from "../src/models/coxProcess/gridCovariance.js";
import { simulateCoxProcess } from "../src/models/coxProcess/simulate.js";
import { Rng } from "../src/random/rng.js";
import { coxProcessSampler } from "../src/models/coxProcess/samplers.js";
import type { HmcKernel, HmcState } from "../src/samplers/kernels/hmc.js";

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** Median wall and CPU milliseconds per call of `f(k)` doing k steps, over reps blocks of at least blockMs. */
function timePerStep(f: (steps: number) => void, reps: number, blockMs: number): Timing {
  let k = 1;
  for (;;) {
    const t0 = performance.now();
    f(k);
    if (performance.now() - t0 >= blockMs / 4 || k >= 1 << 20) break;
    k *= 2;
  }
  k *= 4;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < reps; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    f(k);
    wall.push((performance.now() - t0) / k);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000 / k);
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

function slope(points: { n: number; ms: number }[]): number {
  const xs = points.map((p) => Math.log(p.n));
  const ys = points.map((p) => Math.log(p.ms));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  return sxy / sxx;
}

function modelOf(side: number, covariance: GridDistance): CoxModel {
  const hyper = paperHyperparameters();
  return coxFieldModel(side, simulateCoxProcess(side, hyper, 7, undefined, covariance).counts, hyper, covariance);
}

function structuredStep(model: CoxModel): (k: number) => void {
  const s = coxProcessSampler(model, "rmhmc", { stepSize: 1e-3, leapfrogSteps: 1 });
  const kernel = s.kernel as unknown as HmcKernel;
  const state: HmcState = kernel.init(s.init);
  const p = new Float64Array(model.dim);
  kernel.mass.sampleMomentum(new Rng(1), p);
  return (k) => void kernel.integrate(state, p, k);
}

/** The dense step: x += e G^-1 p (one gemv), dL/dx with Sigma^-1 r (one gemv), p += e dL/dx. */
function denseStep(model: CoxProcessModel): (k: number) => void {
  const n = model.dim;
  const a = denseGridPrecision(model).data;
  const be = backendFor(n);
  const x = new Float64Array(n).fill(model.hyper.mu);
  const p = new Rng(2).fillNormal(new Float64Array(n));
  const v = new Float64Array(n);
  const r = new Float64Array(n);
  const g = new Float64Array(n);
  const y = model.counts;
  const m = model.cellArea;
  const mu = model.hyper.mu;
  const eps = 1e-6;
  return (k) => {
    for (let s = 0; s < k; s++) {
      be.gemv("N", n, n, 1, a, n, p, 0, v);
      for (let i = 0; i < n; i++) {
        x[i] += eps * v[i];
        r[i] = x[i] - mu;
      }
      be.gemv("N", n, n, 1, a, n, r, 0, g);
      let lp = 0;
      for (let i = 0; i < n; i++) {
        const e = m * Math.exp(x[i]);
        lp += y[i] * x[i] - e - 0.5 * r[i] * g[i];
        p[i] += eps * (y[i] - e - g[i]);
      }
      if (!Number.isFinite(lp)) throw new Error("dense step diverged");
    }
  };
}

function main(): void {
  const sides = option("--sides", "16,32,64,128").split(",").map(Number);
  const denseSides = option("--dense-sides", "16,32,64").split(",").filter((s) => s !== "").map(Number);
  const reps = Number(option("--reps", "5"));
  const blockMs = Number(option("--block-ms", "200"));
  getBackend().setThreads(1);
  const rows: { side: number; cells: number; torus: number; euclidean: Timing; structured: Timing; dense: Timing | null }[] = [];
  for (const side of sides) {
    const euclideanModel = modelOf(side, "euclidean");
    if (euclideanModel.covariance !== "euclidean") throw new Error("expected the Euclidean model");
    const euclidean = timePerStep(structuredStep(euclideanModel), reps, blockMs);
    const model = modelOf(side, "separable") as CoxProcessModel;
    const structured = timePerStep(structuredStep(model), reps, blockMs);
    const dense = denseSides.includes(side) ? timePerStep(denseStep(model), reps, blockMs) : null;
    rows.push({ side, cells: model.dim, torus: euclideanModel.grid.torus, euclidean, structured, dense });
    process.stderr.write(`n = ${side}: euclidean (FFT) ${euclidean.wallMs.toFixed(4)} ms (CPU ${euclidean.cpuMs.toFixed(4)}), separable (Kronecker) ${structured.wallMs.toFixed(4)} ms (CPU ${structured.cpuMs.toFixed(4)}), dense ${dense ? `${dense.wallMs.toFixed(3)} ms (CPU ${dense.cpuMs.toFixed(3)})` : "-"}\n`);
  }
  const fit = (key: "euclidean" | "structured" | "dense", what: "wallMs" | "cpuMs") => {
    const pts = rows.filter((r) => r[key] !== null).map((r) => ({ n: r.cells, ms: r[key]![what] }));
    return pts.length >= 2 ? slope(pts) : null;
  };
  const result = {
    benchmark: "log-Gaussian Cox process: one RMHMC leapfrog step (constant metric), the Euclidean covariance by FFT and the separable one by Kronecker algebra, against dense",
    backend: getBackend().describe(),
    node: process.version,
    rows: rows.map((r) => ({ ...r, euclideanOverKroneckerCpu: r.euclidean.cpuMs / r.structured.cpuMs, denseOverStructuredCpu: r.dense ? r.dense.cpuMs / r.structured.cpuMs : null })),
    growthExponentInN: { euclideanWall: fit("euclidean", "wallMs"), euclideanCpu: fit("euclidean", "cpuMs"), structuredWall: fit("structured", "wallMs"), structuredCpu: fit("structured", "cpuMs"), denseWall: fit("dense", "wallMs"), denseCpu: fit("dense", "cpuMs") },
  };
  if (process.argv.includes("--json")) {
    process.stdout.write(JSON.stringify(result, null, 1) + "\n");
    return;
  }
  const f = (x: number) => (x >= 10 ? x.toFixed(1) : x >= 0.1 ? x.toFixed(3) : x.toPrecision(3));
  const lines = ["| grid | N | torus | Euclidean (FFT) step, wall ms | CPU ms | separable (Kronecker) step, wall ms | CPU ms | FFT / Kronecker (CPU) | dense step, wall ms | CPU ms | dense / Kronecker (CPU) |", "|---|---|---|---|---|---|---|---|---|---|---|"];
  for (const r of result.rows) lines.push(`| ${r.side} x ${r.side} | ${r.cells} | ${r.torus} x ${r.torus} | ${f(r.euclidean.wallMs)} | ${f(r.euclidean.cpuMs)} | ${f(r.structured.wallMs)} | ${f(r.structured.cpuMs)} | ${f(r.euclideanOverKroneckerCpu)} | ${r.dense ? f(r.dense.wallMs) : "-"} | ${r.dense ? f(r.dense.cpuMs) : "-"} | ${r.denseOverStructuredCpu ? f(r.denseOverStructuredCpu) : "-"} |`);
  const g = result.growthExponentInN;
  lines.push("", `growth exponent in N (least squares on log-log): Euclidean FFT ${g.euclideanCpu?.toFixed(2)} (CPU), ${g.euclideanWall?.toFixed(2)} (wall); Kronecker ${g.structuredCpu?.toFixed(2)} (CPU), ${g.structuredWall?.toFixed(2)} (wall); dense ${g.denseCpu?.toFixed(2) ?? "-"} (CPU), ${g.denseWall?.toFixed(2) ?? "-"} (wall)`);
  process.stdout.write(lines.join("\n") + "\n");
}

main();
