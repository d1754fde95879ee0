// Parallel EP on USPS 3 vs 5 at the note's setting (n = 1214, log lengthscale 4.85, log signal sd
// 5.1, probit), one BLAS thread, in CPU seconds of this process (process.cpuUsage; data reading and
// forming K excluded), three tables:
//  1. EP itself, this checkout against another built checkout (--base DIR, imported into this
//     process and run alternately with this one, round by round), by schedule; the median over the
//     rounds of the per-round ratio base / this;
//  2. sweep by sweep, the residual, log Z_EP's distance from its fixed-point value (a run to
//     residual 1e-9) and the error estimate the accelerated schedule stops on;
//  3. the BLAS calls a sweep makes at n = 1214, timed alone in the same process, with their
//     GFLOP/s and the sweep time they predict;
//  4. with --base, one posterior recomputation of a parallel sweep at the converged sites split
//     into its parts, the base's pieces against this checkout's, alternating (median of 9).
//   npm run bench -- epSweeps [--base /tmp/epbase] [--rounds 3]
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { expectationPropagation, type EpOptions, type EpResult } from "../src/approx/ep.js";
import { priorPosterior, sequentialSweep, sweepWork } from "../src/approx/epCore.js";
import type { EpSites } from "../src/likelihoods/epSites.js";
import { setBackend } from "../src/linalg/backend.js";
import { cholesky } from "../src/linalg/cholesky.js";
import { Matrix } from "../src/linalg/matrix.js";
import { invertLowerTriangularInPlace } from "../src/linalg/triangular.js";
import type { LinalgBackend } from "../src/linalg/types.js";
import { choleskyIdentityPlusScaled, solveScaledRows } from "../src/targets/woodbury.js";
import { fillIdentityPlusScaledTimes, invertFactor, woodburyInverseDiagonalFromInverse } from "../src/targets/woodburyFromInverseFactor.js";
import { arg } from "./benchArgs.js";
import { cpuSeconds as cpu, GPSTUFF_LOGZ, uspsNoteSetting } from "./uspsNoteSetting.js";

const rounds = Number(arg("--rounds", "3"));
const baseDir = arg("--base", "");
const { be, n, k, sites } = uspsNoteSetting();
const quiet = { onWarning: () => {} };

type Ep = (k: Matrix, sites: EpSites, options: EpOptions) => EpResult;
let baseEp: Ep | undefined;
let baseDist = "";
if (baseDir !== "") {
  const file = join(resolve(baseDir), "dist/src/approx/ep.js");
  if (!existsSync(file)) {
    console.error(`epSweeps: --base ${baseDir} has no dist/src/approx/ep.js (build it first)`);
    process.exit(2);
  }
  baseEp = ((await import(pathToFileURL(file).href)) as { expectationPropagation: Ep }).expectationPropagation;
  baseDist = join(resolve(baseDir), "dist/src");
}

function timed<T>(f: () => T): { seconds: number; value: T } {
  const t0 = cpu();
  const value = f();
  return { seconds: cpu() - t0, value };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x: number, d = 3) => x.toFixed(d);

console.log(`${be.describe().library}, ${be.getThreads()} BLAS thread; node ${process.version}; n = ${n}; ${rounds} rounds, CPU seconds of this process`);
console.log("");

// 1. This checkout against the base, alternating within each round; how far the results are
// from the base's: log Z_EP relative, sites as max |d tau~_i|, |d nu~_i| over the largest |tau~|, |nu~|.
const agreement: string[] = [];
function siteDistance(a: EpResult, b: EpResult): number {
  let d = 0;
  for (const [x, y] of [[a.siteTau, b.siteTau], [a.siteNu, b.siteNu]]) {
    let diff = 0;
    let size = 0;
    for (let i = 0; i < n; i++) {
      diff = Math.max(diff, Math.abs(x[i] - y[i]));
      size = Math.max(size, Math.abs(y[i]));
    }
    d = Math.max(d, diff / size);
  }
  return d;
}
const runs: [string, EpOptions, EpOptions | undefined][] = [
  ["parallel (default: Anderson)", { schedule: "parallel" }, { schedule: "parallel" }],
  ["parallel, --logz-tolerance 1e-6", { schedule: "parallel", logZTolerance: 1e-6 }, undefined],
  ["parallel, the base's tolerances (--tolerance 1e-6; log Z test on the change)", { schedule: "parallel", siteTolerance: 1e-6 }, undefined],
  ["sequential", { schedule: "sequential" }, { schedule: "sequential" }],
];
console.log("| EP run | sweeps | CPU s (median) | fastest | per sweep (ms) | log Z_EP | - GPstuff's | base sweeps | base CPU s (median) | base / this (median of rounds) |");
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const [name, options, baseOptions] of runs) {
  const mine: number[] = [];
  const theirs: number[] = [];
  const ratios: number[] = [];
  let r: EpResult | undefined;
  let rb: EpResult | undefined;
  for (let round = 0; round < rounds; round++) {
    const a = timed(() => expectationPropagation(k, sites, { ...options, ...quiet }));
    mine.push(a.seconds);
    r = a.value;
    if (baseEp && baseOptions) {
      const b = timed(() => baseEp!(k, sites, { ...baseOptions, ...quiet }));
      theirs.push(b.seconds);
      ratios.push(b.seconds / a.seconds);
      rb = b.value;
    }
  }
  const baseCols = rb ? `${rb.sweeps} | ${fmt(median(theirs))} | ${ratios.length ? fmt(median(ratios), 2) : "-"}` : "- | - | -";
  if (rb) agreement.push(`${name}: log Z_EP ${(Math.abs(r!.logZ - rb.logZ) / Math.abs(rb.logZ)).toExponential(1)} relative; sites ${siteDistance(r!, rb).toExponential(1)} of the largest`);
  const perSweep = (1000 * median(mine)) / r!.sweeps;
  console.log(`| ${name} | ${r!.sweeps} | ${fmt(median(mine))} | ${fmt(Math.min(...mine))} | ${perSweep.toFixed(1)} | ${r!.logZ.toFixed(9)} | ${(r!.logZ - GPSTUFF_LOGZ).toExponential(1)} | ${baseCols} |`);
}

if (agreement.length > 0) {
  console.log("");
  console.log(`against the base: ${agreement.join("; ")}`);
}

// 2. Sweep by sweep: each row is the default run stopped after that many sweeps (deterministic,
// so each is the prefix of the next); the reference is the fixed point to residual 1e-9.
const star = expectationPropagation(k, sites, { schedule: "parallel", siteTolerance: 1e-9, logZTolerance: 1e-12, maxSweeps: 30, ...quiet });
console.log("");
console.log(`reference: ${star.sweeps} sweeps, residual ${star.siteChange.toExponential(1)}, log Z_EP ${star.logZ.toFixed(10)} (${(star.logZ - GPSTUFF_LOGZ).toExponential(1)} from GPstuff's)`);
console.log("");
console.log("| sweeps (1 sequential + parallel) | residual r | log Z_EP - reference | estimated error (stopping test) | stops here by default |");
console.log("|---|---|---|---|---|");
const defaultSweeps = expectationPropagation(k, sites, { schedule: "parallel", ...quiet }).sweeps;
for (let m = 2; m <= 11; m++) {
  const r = expectationPropagation(k, sites, { schedule: "parallel", maxSweeps: m, siteTolerance: 0, logZTolerance: 0, ...quiet });
  console.log(`| ${m} | ${r.siteChange.toExponential(1)} | ${(r.logZ - star.logZ).toExponential(1)} | ${r.logZError.toExponential(1)} | ${m === defaultSweeps ? "yes" : ""} |`);
}

// 3. A sweep's BLAS calls at the converged sites, timed alone (fastest of 5).
function fastest(f: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 5; i++) best = Math.min(best, timed(f).seconds);
  return best;
}
const s = star.sqrtSiteTau;
const b = new Matrix(n, n);
const tChol = fastest(() => choleskyIdentityPlusScaled(k, s, "B", { skipFiniteCheck: true, into: b }));
const inv = new Float64Array(n * n);
const tInv = fastest(() => {
  inv.set(b.data);
  invertLowerTriangularInPlace(n, inv, n);
});
// the same inverse by recursive triangular solves (what a backend without dtrtri does)
const withoutTrtri: LinalgBackend = { ...be, trtri: undefined };
setBackend(withoutTrtri);
const tInvRecursive = fastest(() => {
  inv.set(b.data);
  invertLowerTriangularInPlace(n, inv, n);
});
setBackend(be);
const v = new Float64Array(n * n);
const tTrsm = fastest(() => solveScaledRows(k.data, s, b.data, n, v));
const tSeq = fastest(() => {
  const post = priorPosterior(k);
  sequentialSweep(post, new Float64Array(n), new Float64Array(n), sites, 1, { logZ: 0, mean: 0, variance: 0 });
});
const gf = (flops: number, seconds: number) => (flops / seconds / 1e9).toFixed(1);
const n3 = n ** 3;
console.log("");
console.log(`| BLAS call at n = ${n} | flops | CPU ms | GFLOP/s |`);
console.log("|---|---|---|---|");
console.log(`| fill B + potrf | n^3/3 = ${(n3 / 3 / 1e9).toFixed(2)} G | ${(1000 * tChol).toFixed(1)} | ${gf(n3 / 3, tChol)} |`);
console.log(`| copy L + triangular inverse (dtrtri) | n^3/3 = ${(n3 / 3 / 1e9).toFixed(2)} G | ${(1000 * tInv).toFixed(1)} | ${gf(n3 / 3, tInv)} |`);
console.log(`| copy L + triangular inverse by recursive trsm (a backend without dtrtri) | n^3/3 = ${(n3 / 3 / 1e9).toFixed(2)} G | ${(1000 * tInvRecursive).toFixed(1)} | ${gf(n3 / 3, tInvRecursive)} |`);
console.log(`| this sweep's two calls (potrf + inverse) | 2/3 n^3 = ${((2 / 3) * n3 / 1e9).toFixed(2)} G | ${(1000 * (tChol + tInv)).toFixed(1)} | ${gf((2 / 3) * n3, tChol + tInv)} |`);
console.log(`| the base's sweep: potrf + scale rows + trsm (V) | 4/3 n^3 = ${((4 / 3) * n3 / 1e9).toFixed(2)} G | ${(1000 * (tChol + tTrsm)).toFixed(1)} | ${gf((4 / 3) * n3, tChol + tTrsm)} |`);
console.log(`| sequential sweep from the prior (lower triangle, blocked gemm) | n^3 = ${(n3 / 1e9).toFixed(2)} G | ${(1000 * tSeq).toFixed(1)} | ${gf(n3, tSeq)} |`);

// 4. One recomputation of the posterior split into its parts, the base's pieces against this
// checkout's (the base's module functions imported from its dist/), alternating, median of 9.
if (baseDist !== "") {
  const imp = async (f: string) => (await import(pathToFileURL(join(baseDist, f)).href)) as Record<string, (...a: unknown[]) => unknown>;
  const bw = await imp("targets/woodbury.js");
  const bf = await imp("targets/woodburyFromInverseFactor.js");
  const bc = await imp("linalg/cholesky.js");
  const nu = star.siteNu;
  const parts = (names: string[], steps: (() => void)[]) => {
    const times = names.map(() => [] as number[]);
    return { names, steps, times };
  };
  const bb = new Matrix(n, n);
  const binv = new Float64Array(n * n);
  const bdiag = new Float64Array(n);
  const bmean = new Float64Array(n);
  const base = parts(["fill B", "potrf", "copy L + dtrtri", "diag(Sigma)", "mean (2 symv + 2 trsv)"], [
    () => bw.fillIdentityPlusScaled(k.data, s, n, bb.data),
    () => bc.cholesky(bb, { inPlace: true, what: "B", skipFiniteCheck: true }),
    () => bf.invertFactor(bb.data, n, binv),
    () => bf.woodburyInverseDiagonalFromInverse(k.data, s, bb.data, binv, n, bdiag),
    () => bw.applyWoodburyInverse(k.data, s, bb.data, n, nu, bmean, new Float64Array(n), new Float64Array(n)),
  ]);
  const w = sweepWork(n);
  const diag = new Float64Array(n);
  const mean = new Float64Array(n);
  const mine = parts(["fill B + K nu", "potrf", "copy L (+ row sums, L^-1 y) + dtrtri", "diag(Sigma) (+ L^-T y)", "mean (1 symv)"], [
    () => fillIdentityPlusScaledTimes(k.data, s, nu, n, w.b.data, w.cv),
    () => cholesky(w.b, { inPlace: true, what: "B", skipFiniteCheck: true }),
    () => {
      for (let i = 0; i < n; i++) w.y[i] = s[i] * w.cv[i];
      invertFactor(w.b.data, n, w.inverse, w.rowSquares, w.y);
    },
    () => woodburyInverseDiagonalFromInverse(k.data, s, w.b.data, w.inverse, w.rowSquares, n, diag, w.y),
    () => {
      for (let i = 0; i < n; i++) w.y[i] *= s[i];
      mean.set(w.cv);
      be.symv("L", n, -1, k.data, n, w.y, 1, mean);
    },
  ]);
  for (let rep = 0; rep < 9; rep++) {
    for (const p of [base, mine]) {
      p.steps.forEach((step, i) => p.times[i].push(timed(step).seconds));
    }
  }
  let worst = 0;
  for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(diag[i] - bdiag[i]) / k.data[i * (n + 1)], Math.abs(mean[i] - bmean[i]) / Math.abs(bmean[i]));
  const ms = (xs: number[]) => (1000 * median(xs)).toFixed(2);
  const total = (p: typeof base) => p.times[0].map((_, r) => p.times.reduce((a, t) => a + t[r], 0));
  console.log("");
  console.log(`One recomputation at the converged sites, by part (CPU ms, median of 9, alternating; diag and mean agree with the base's to ${worst.toExponential(1)}: diag relative to K_jj, mean relative to itself):`);
  console.log("");
  console.log("| part (base) | base ms | part (this checkout) | this ms |");
  console.log("|---|---|---|---|");
  for (let i = 0; i < base.names.length; i++) console.log(`| ${base.names[i]} | ${ms(base.times[i])} | ${mine.names[i]} | ${ms(mine.times[i])} |`);
  const bt = total(base);
  const mt = total(mine);
  const other = (p: typeof base) => p.times[0].map((_, r) => p.times[0][r] + p.times[2][r] + p.times[3][r] + p.times[4][r]);
  console.log(`| all | ${ms(bt)} | all | ${ms(mt)} |`);
  console.log(`| all but potrf (dtrtri included) | ${ms(other(base))} | all but potrf (dtrtri included) | ${ms(other(mine))} |`);
}
