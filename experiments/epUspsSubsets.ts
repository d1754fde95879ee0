/**
 * A check of EP and its second-order correction on small pieces of the USPS 3 vs 5 problem
 * (l = exp(4.85), s = exp(5.1)), where log Z can be estimated by importance sampling: for
 * consecutive blocks of `--rows` cases, log Z by defensive importance sampling from
 * 0.9 N(mu, Sigma) + 0.1 t_4(mu, Sigma) around EP's q (bounded weights), with its
 * delta-method standard error, against log Z_EP and the corrected values.
 *
 *   node dist/experiments/epUspsSubsets.js [--data FILE] [--rows 20] [--blocks 5] [--draws 200000] [--seed 1]
 *
 * K gets 1e-6 s^2 on its diagonal (in EP and in the weights alike): without it K, whose
 * correlations are all above 0.99, does not factorise in double precision.
 */
import { epCorrectedLogZ, expectationPropagation, probitSites } from "../src/approx/index.js";
import { seKernel } from "../src/gp/index.js";
import { readDataset } from "../src/io/index.js";
import { cholesky, Matrix } from "../src/linalg/index.js";
import { logGamma, logPhi } from "../src/math/index.js";
import { Rng } from "../src/random/index.js";

function argValue(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const file = argValue("--data", "data/usps35_origsplit_train.csv");
const rows = Number(argValue("--rows", "20"));
const blocks = Number(argValue("--blocks", "5"));
const draws = Number(argValue("--draws", "200000"));
const rng = new Rng(Number(argValue("--seed", "1")));
const full = readDataset(file, { labels: "binary", binaryCoding: "plusMinusOne" });
const signalSd = Math.exp(5.1);
const kernel = seKernel({ lengthscale: Math.exp(4.85), signalSd });

console.log(`USPS 3 vs 5, blocks of ${rows} consecutive cases, ${draws} importance draws each`);
console.log("first  IS log Z (SE)          ESS/N   EP error   corrected error  pairwise error  (errors in units of SE)");
for (let b = 0; b < blocks; b++) {
  const first = b * rows;
  const n = Math.min(rows, full.n - first);
  if (n <= 1) break;
  const x = new Matrix(n, full.d);
  for (let c = 0; c < full.d; c++) for (let i = 0; i < n; i++) x.set(i, c, full.X.get(first + i, c));
  const y = full.y.slice(first, first + n);
  const k = kernel.matrix(x);
  for (let i = 0; i < n; i++) k.data[i + i * n] += 1e-6 * signalSd * signalSd;
  const ep = expectationPropagation(k, probitSites(y), { siteTolerance: 1e-10, logZTolerance: 1e-12 });
  const corrected = epCorrectedLogZ(ep);
  const pairwise = epCorrectedLogZ(ep, { form: "pairwise" });

  const ls = cholesky(ep.covariance);
  const lk = cholesky(k);
  const logDetS = ls.logDet();
  const logDetK = lk.logDet();
  const nuT = 4;
  const logTConst = logGamma((nuT + n) / 2) - logGamma(nuT / 2) - (n / 2) * Math.log(nuT * Math.PI) - 0.5 * logDetS;
  const logGConst = -0.5 * logDetS - (n / 2) * Math.log(2 * Math.PI);
  const logW = new Float64Array(draws);
  const z = new Float64Array(n);
  for (let t = 0; t < draws; t++) {
    rng.fillNormal(z);
    const scale = rng.uniform() < 0.1 ? Math.sqrt(nuT / (2 * rng.gamma(nuT / 2))) : 1;
    const f = ls.multiplyLower(z);
    let q = 0;
    for (let i = 0; i < n; i++) {
      f[i] = ep.mean[i] + scale * f[i];
      q += (scale * z[i]) ** 2;
    }
    const logT = logTConst - ((nuT + n) / 2) * Math.log1p(q / nuT);
    const logG = logGConst - 0.5 * q;
    const mx = Math.max(logT, logG);
    const logProposal = mx + Math.log(0.1 * Math.exp(logT - mx) + 0.9 * Math.exp(logG - mx));
    const a = lk.solveLowerInPlace(Float64Array.from(f));
    let kq = 0;
    let ll = 0;
    for (let i = 0; i < n; i++) {
      kq += a[i] * a[i];
      ll += logPhi(y[i] * f[i]);
    }
    logW[t] = ll - 0.5 * kq - 0.5 * logDetK - (n / 2) * Math.log(2 * Math.PI) - logProposal;
  }
  let mx = -Infinity;
  for (const v of logW) mx = Math.max(mx, v);
  let s1 = 0;
  let s2 = 0;
  for (const v of logW) {
    const e = Math.exp(v - mx);
    s1 += e;
    s2 += e * e;
  }
  const mean = s1 / draws;
  const logZ = mx + Math.log(mean);
  const se = Math.sqrt(Math.max(0, s2 / draws - mean * mean) / draws) / mean;
  const fmt = (e: number) => `${e.toExponential(2).padStart(9)} (${(e / se).toFixed(1).padStart(5)})`;
  console.log(`${String(first + 1).padStart(5)}  ${logZ.toFixed(5).padStart(10)} (${se.toExponential(1)})  ${((s1 * s1) / s2 / draws).toFixed(3)}  ${fmt(ep.logZ - logZ)}  ${fmt(corrected.logZ - logZ)}  ${fmt(pairwise.logZ - logZ)}`);
}
