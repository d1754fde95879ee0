// Where EP's time goes on USPS 3 vs 5 at the note's setting (n = 1214, log lengthscale 4.85, log
// signal sd 5.1, probit), in one process with one BLAS thread, in CPU seconds of this process
// (process.cpuUsage, so load from other processes inflates it far less than the wall clock):
// EP itself (sites to convergence and log Z_EP; data reading and forming K excluded), then the
// dense Sigma (read from the result) and the second-order correction, for each schedule, and
// Laplace. Beside it, BLAS calls timed alone at n = 1214 (potrf of B, and the trsm for
// V = L^-1 S~^1/2 K a parallel sweep made before it took L^-1 instead: `epSweeps` times that),
// their GFLOP/s, and the sweep time they predict.
//   npm run bench -- epCost [--reps 3]
import { epCorrectedLogZ } from "../src/approx/epCorrection.js";
import { expectationPropagation, type EpOptions, type EpResult } from "../src/approx/ep.js";
import { laplace } from "../src/approx/laplace.js";
import { likelihoodByName } from "../src/likelihoods/index.js";
import { Matrix } from "../src/linalg/matrix.js";
import { choleskyIdentityPlusScaled, solveScaledRows } from "../src/targets/woodbury.js";
import { arg } from "./benchArgs.js";
import { cpuSeconds as cpu, GPSTUFF_LOGZ, uspsNoteSetting } from "./uspsNoteSetting.js";

const reps = Number(arg("--reps", "3"));
const { be, ds, n, k, sites } = uspsNoteSetting();

/** The fastest of `reps` CPU timings of f, and f's last result. */
function fastest<T>(f: () => T): { seconds: number; value: T } {
  let best = Infinity;
  let value: T | undefined;
  for (let r = 0; r < reps; r++) {
    const t0 = cpu();
    value = f();
    best = Math.min(best, cpu() - t0);
  }
  return { seconds: best, value: value! };
}

console.log(`${be.describe().library}, ${be.getThreads()} BLAS thread; node ${process.version}; n = ${n}; fastest of ${reps}, CPU seconds of this process`);
console.log("");
console.log("| EP run | sweeps | EP (s) | per sweep (ms) | + dense Sigma (s) | + correction (s) | log Z_EP | - GPstuff's |");
console.log("|---|---|---|---|---|---|---|---|");
const quiet = { onWarning: () => {} };
const runs: [string, EpOptions][] = [
  ["parallel, Anderson (default)", { schedule: "parallel" }],
  ["parallel, plain, damping 0.5 (--acceleration none)", { schedule: "parallel", acceleration: "none" }],
  ["sequential", { schedule: "sequential" }],
];
let converged: EpResult | undefined;
for (const [name, options] of runs) {
  const ep = fastest(() => expectationPropagation(k, sites, { ...options, ...quiet }));
  const sigma = fastest(() => {
    const r = expectationPropagation(k, sites, { ...options, ...quiet });
    return r.covariance;
  });
  const corrected = fastest(() => epCorrectedLogZ(expectationPropagation(k, sites, { ...options, ...quiet })));
  const r = ep.value;
  if (options.schedule === "parallel" && options.acceleration === undefined) converged = r;
  console.log(`| ${name} | ${r.sweeps} | ${ep.seconds.toFixed(3)} | ${((1000 * ep.seconds) / r.sweeps).toFixed(1)} | ${sigma.seconds.toFixed(3)} | ${corrected.seconds.toFixed(3)} | ${r.logZ.toFixed(7)} | ${(r.logZ - GPSTUFF_LOGZ).toExponential(1)} |`);
}
const lap = fastest(() => laplace(k, ds.y, likelihoodByName("probit"), quiet));
console.log(`| Laplace (Newton steps in the sweeps column) | ${lap.value.iterations} | ${lap.seconds.toFixed(3)} | ${((1000 * lap.seconds) / lap.value.iterations).toFixed(1)} | | | ${lap.value.logZ.toFixed(7)} | |`);

// One parallel sweep's BLAS calls at the converged sites: potrf of B (n^3/3 flops) and the trsm
// giving V = L^-1 S~^1/2 K, whose column norms are diag(Sigma) (n^3 flops).
const s = converged!.sqrtSiteTau;
const b = new Matrix(n, n);
const chol = fastest(() => choleskyIdentityPlusScaled(k, s, "B", { skipFiniteCheck: true, into: b }));
const v = new Float64Array(n * n);
const trsm = fastest(() => solveScaledRows(k.data, s, chol.value.factor.data, n, v));
const gf = (flops: number, seconds: number) => (flops / seconds / 1e9).toFixed(1);
console.log("");
console.log("| BLAS call at n = " + n + " | flops | CPU ms | GFLOP/s |");
console.log("|---|---|---|---|");
console.log(`| fill B + potrf | n^3/3 = ${(n ** 3 / 3 / 1e9).toFixed(2)} G | ${(1000 * chol.seconds).toFixed(1)} | ${gf(n ** 3 / 3, chol.seconds)} |`);
console.log(`| scale rows + trsm (V) | n^3 = ${(n ** 3 / 1e9).toFixed(2)} G | ${(1000 * trsm.seconds).toFixed(1)} | ${gf(n ** 3, trsm.seconds)} |`);
console.log(`| one parallel sweep's two calls | 4/3 n^3 = ${((4 / 3) * n ** 3 / 1e9).toFixed(2)} G | ${(1000 * (chol.seconds + trsm.seconds)).toFixed(1)} | ${gf((4 / 3) * n ** 3, chol.seconds + trsm.seconds)} |`);
