// Time per iteration of the five joint schemes of (f, theta) (comparison paper, Section 2) at
// growing n, explained by their O(n^3) operations (Table 1): for each n, the time of one
// Cholesky factorisation, one triangular solve with n right-hand sides and one n x n product,
// measured in the same run, price each scheme's operation counts per iteration; the ratio of the
// measured time to that price says how much of an iteration is O(n^3) work (near 1 at large n).
// Also f's update alone (HMC v2, M^-1 = K, at most 10 leapfrog steps) at fixed theta: no O(n^3)
// operation per iteration, so its time is a small fraction of a Cholesky.
// Probit on the paper's simulation design (x ~ U[0,1]^2, theta and f from the model, seed 3);
// theta by MH (surr: slice sampling), f by HMC v2; one chain per scheme and n, on the stream of a
// hash of (n, scheme); counts and times over all its transitions (a short burn-in included).
// Times are CPU seconds of this process (process.cpuUsage), with one OpenBLAS thread, so that
// other jobs on a shared machine slow the wall clock but not the figures.
//   npm run bench -- hyperCost [--n 100,400,1000] [--iterations 150,40,10] [--schemes sa,aa,asis,khr,surr]
import { cholesky } from "../src/linalg/cholesky.js";
import { snapshotOpCounts, type OpCounts } from "../src/linalg/counters.js";
import { getBackend } from "../src/linalg/backend.js";
import { Matrix, toPlainMatrix } from "../src/linalg/matrix.js";
import { matmul } from "../src/linalg/products.js";
import { DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR } from "../src/hyper/jointKernel.js";
import { SCHEME_NAMES } from "../src/hyper/schemes.js";
import { Rng } from "../src/random/rng.js";
import { hyperChain } from "../src/run/hyperRun.js";
import { simulateDataSet, simulatedKernelMatrix } from "../src/run/simulate.js";
import { runChain } from "../src/samplers/chain/driver.js";
import { latentSampler, latentSamplerSpec } from "../src/samplers/registry.js";
import { latentGpTarget } from "../src/targets/latentGpModel.js";
import { arg, hash } from "./benchArgs.js";

/** CPU seconds of this process since `from` (process.cpuUsage()). */
function cpuSince(from: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(from);
  return (c.user + c.system) / 1e6;
}

/** Median CPU seconds of `f` over `reps` batches of calls, each batch at least about 20 ms (after one warm-up call). */
function timeOf(f: () => void, reps: number): number {
  f();
  const c0 = process.cpuUsage();
  f();
  const perBatch = Math.max(1, Math.ceil(0.02 / Math.max(cpuSince(c0), 1e-6)));
  const t: number[] = [];
  for (let k = 0; k < reps; k++) {
    const c = process.cpuUsage();
    for (let i = 0; i < perBatch; i++) f();
    t.push(cpuSince(c) / perBatch);
  }
  return t.sort((a, b) => a - b)[Math.floor(reps / 2)]!;
}

const ns = arg("--n", "100,400,1000").split(",").map(Number);
const iterations = arg("--iterations", "150,40,10").split(",").map(Number);
const schemes = arg("--schemes", SCHEME_NAMES.join(",")).split(",");
for (const s of schemes) if (!(SCHEME_NAMES as readonly string[]).includes(s)) throw new Error(`--schemes: unknown scheme ${s} (known: ${SCHEME_NAMES.join(", ")})`);
if (iterations.length !== ns.length) throw new Error("--iterations needs one count per --n");
getBackend().setThreads(1);
const b = getBackend().describe();
console.log(`backend ${b.backend} (${b.library}, 1 thread); CPU time of this process; probit, d = 2, seed 3; theta by MH (surr: slice), f by HMC v2`);
console.log("n     scheme  iterations  CPU ms/it    cholesky/it  solves/it  products/it  O(n^3) price ms/it  measured/price");

ns.forEach((n, k) => {
  const its = iterations[k]!;
  const burnIn = Math.max(2, Math.round(its / 3));
  const sim = simulateDataSet("probit", n, 2, 3);
  // The unit prices at this n: a Cholesky of K, a triangular solve with n right-hand sides, an n x n product.
  const K = simulatedKernelMatrix(sim);
  const reps = n >= 1000 ? 5 : 9;
  const tChol = timeOf(() => void cholesky(K), reps);
  const L = cholesky(K);
  const B = new Matrix(n, n, Float64Array.from({ length: n * n }, (_, i) => Math.sin(i)));
  const tSolve = timeOf(() => void L.solveLowerMatrixInPlace(B.clone()), reps);
  const tProduct = timeOf(() => void matmul(K, B), reps);
  console.log(`n = ${n}: one Cholesky ${(tChol * 1e3).toFixed(3)} ms, one triangular solve (n rhs) ${(tSolve * 1e3).toFixed(3)} ms, one n x n product ${(tProduct * 1e3).toFixed(3)} ms`);
  const price = (ops: OpCounts) => ops.cholesky * tChol + ops.triangularSolveMatrix * tSolve + (ops.matrixProduct + ops.symmetricProduct) * tProduct;
  const row = (name: string, count: number, seconds: number, ops: OpCounts) => {
    const per = (x: number) => x / count;
    const p = price(ops) / count;
    console.log(`${String(n).padEnd(5)} ${name.padEnd(7)} ${String(count).padStart(10)}  ${(per(seconds) * 1e3).toFixed(2).padStart(12)}  ${per(ops.cholesky).toFixed(2).padStart(11)}  ${per(ops.triangularSolveMatrix).toFixed(2).padStart(9)}  ${per(ops.matrixProduct + ops.symmetricProduct).toFixed(2).padStart(11)}  ${(p * 1e3).toFixed(2).padStart(18)}  ${(per(seconds) / p).toFixed(2).padStart(14)}`);
  };
  const X = toPlainMatrix(sim.X);
  for (const scheme of SCHEME_NAMES.filter((x) => schemes.includes(x))) {
    const spec = {
      model: { likelihood: "probit", lengthscalePrior: DEFAULT_LENGTHSCALE_PRIOR, variancePrior: DEFAULT_VARIANCE_PRIOR },
      sampler: { scheme, ...(scheme === "surr" ? {} : { thetaSampler: "mh" as const }), latent: latentSamplerSpec("hmc-v2") },
      draws: its - burnIn, burnIn, thin: 1, chains: 1, seed: hash(`hyperCost/${n}/${scheme}`),
    };
    const c0 = process.cpuUsage();
    const r = hyperChain(X, sim.y, spec, 0);
    row(scheme, r.transitions, cpuSince(c0), r.linalg);
  }
  // f alone at the true theta: HMC v2's leapfrog uses K's factor, made once when the target is built.
  const target = latentGpTarget(sim.X, sim.y, { likelihood: "probit", logLengthscale: Array.from(sim.logLengthscale), logSignalSd: sim.logSignalSd, jitter: { relative: 1e-6 } });
  const before = snapshotOpCounts();
  const fIts = its * 10;
  const c0 = process.cpuUsage();
  runChain(latentSampler(target, "hmc-v2"), new Rng(hash(`hyperCost/${n}/f`), 0), { draws: fIts, burnIn: 0, init: new Float64Array(n) });
  const after = snapshotOpCounts();
  const ops: OpCounts = { cholesky: after.cholesky - before.cholesky, triangularSolveMatrix: after.triangularSolveMatrix - before.triangularSolveMatrix, symmetricProduct: after.symmetricProduct - before.symmetricProduct, matrixProduct: after.matrixProduct - before.matrixProduct, flops: after.flops - before.flops };
  const ms = (cpuSince(c0) / fIts) * 1e3;
  console.log(`${String(n).padEnd(5)} f alone ${String(fIts).padStart(10)}  ${ms.toFixed(2).padStart(12)}  ${(ops.cholesky / fIts).toFixed(2).padStart(11)}  ${(ops.triangularSolveMatrix / fIts).toFixed(2).padStart(9)}  ${((ops.matrixProduct + ops.symmetricProduct) / fIts).toFixed(2).padStart(11)}  (${(ms / (tChol * 1e3)).toFixed(3)} of one Cholesky)`);
});
