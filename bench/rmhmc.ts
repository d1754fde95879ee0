/**
 * RMHMC, fast against the note's Algorithm 1 as written ("reference"), on the USPS 3-vs-5 data
 * at the note's setting (lengthscale exp(4.85), signal sd exp(5.1), step size 0.1, 10 leapfrog
 * steps, 5 fixed-point iterations):
 *
 * (a) n = 100: from the same position and momentum, the two integrators give the same
 *     trajectory (after each of 1..10 steps), energies and accept decision;
 * (b) n = 767: the time of one transition (momentum draw included), fast and reference, on the
 *     same backend in this run, interleaved, median over repetitions, and their ratio;
 * (c) the achieved GFLOP/s of a transition (O(n^3) flops as src/linalg's opCounts counts them)
 *     against the GFLOP/s of a Cholesky factorisation of the same order timed in this run;
 * (d) the two variants draw momenta from different random numbers, so their chains are compared
 *     in distribution: means and second moments of a few latent values from short chains on a
 *     small synthetic problem, as two-sample z-scores with batch-means standard errors (the
 *     rigorous version, against quadrature, is test/integration/gpInvariance.test.ts);
 * (e) n = 300: the cost of the reversibility check: transitions with fixed points to 1e-8, with
 *     and without the check, from the same states and momenta (step 0.02, where the solves
 *     converge from the mode), interleaved, median over repetitions, and their ratio.
 * (f) --flop-sizes (default 100,400,1000): the default RMHMC (fixed points to 1e-8, reversibility
 *     check, step 0.05, 10 leapfrog steps) on the synthetic probit problem of latentProblem.ts,
 *     from the mode: wall and CPU time per transition, its flops (opCounts), its factorisations,
 *     and the time those flops take at the GFLOP/s of the same factorisation (potrf of I + S K S)
 *     timed in this run (CPU time); the ratio of the two is how far a transition is from its flop count.
 * (g) --anneal-draws D (default 200): RMHMC (step 0.1, 10 leapfrog steps, fixed points to 1e-8)
 *     on the annealed target L_beta (q the prior) of the synthetic n = 100 problem at
 *     beta = 0.01, 0.1, 1: min over f of the bulk ESS of D draws after D/4 warm-up transitions,
 *     per second of sampling, with the acceptance rate and divergences.
 *
 * Positions start at the mode of the posterior (Newton's method: for the probit likelihood the
 * note's metric G = K^-1 + Lambda is the negative Hessian of L, so x <- x + G^-1 dL/dx).
 *
 *   npm run bench -- rmhmc [--n 767] [--n-check 100] [--reps 5] [--threads T] [--agree-n 20] [--agree-draws 2000] [--check-n 300] [--skip-timing] [--json]
 *
 * --threads sets the OpenBLAS thread count (default: the backend's).
 */
import { cpus } from "node:os";
import { readDataset } from "../src/io/dataset.js";
import { seKernel } from "../src/gp/index.js";
import { cholesky } from "../src/linalg/cholesky.js";
import { Matrix } from "../src/linalg/matrix.js";
import { opCounts, resetOpCounts } from "../src/linalg/counters.js";
import { getBackend } from "../src/linalg/backend.js";
import { Rng } from "../src/random/rng.js";
import { firstRows, latentGpTarget } from "../src/targets/latentGpModel.js";
import { sample } from "../src/samplers/chain/driver.js";
import { rmhmc, type RmhmcKernel, type RmhmcOptions } from "../src/samplers/kernels/rmhmc.js";
import type { AnnealedLatentTarget } from "../src/targets/annealedLatent.js";
import { batchMeans, transform } from "../src/diagnostics/batchMeans.js";
import { factorIdentityPlusScaled } from "../src/targets/woodbury.js";
import { problem } from "./latentProblem.js";
import { essBulk } from "../src/diagnostics/ess.js";

const args = process.argv.slice(2);
function option(name: string, fallback: number): number {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  if (!Number.isFinite(v) || v <= 0) {
    console.error(`rmhmc bench: ${name} needs a positive number`);
    process.exit(2);
  }
  return v;
}
const N = option("--n", 767);
const N_CHECK = option("--n-check", 100);
const REPS = option("--reps", 5);
const AGREE_N = option("--agree-n", 20);
const AGREE_DRAWS = option("--agree-draws", 2000);
const CHECK_N = option("--check-n", 300);
const THREADS = args.includes("--threads") ? option("--threads", 1) : undefined;
const JSON_OUT = args.includes("--json");
const SKIP_TIMING = args.includes("--skip-timing");
const ANNEAL_DRAWS = option("--anneal-draws", 200);
const FLOP_SIZES = (args.includes("--flop-sizes") ? args[args.indexOf("--flop-sizes") + 1] : "100,400,1000").split(",").map(Number);

const LOG_LENGTHSCALE = 4.85;
const LOG_SIGNAL_SD = 5.1;
const NOTE: RmhmcOptions = { stepSize: 0.1, leapfrogSteps: 10, fixedPointIterations: 5 };

const say = (s: string) => {
  if (!JSON_OUT) console.log(s);
};
const report: Record<string, unknown> = {};

const data = readDataset(new URL("../../data/usps35_origsplit_train.csv", import.meta.url).pathname, { labels: "binary" });

function uspsTarget(n: number): AnnealedLatentTarget {
  const { X, y } = firstRows(data.X, data.y, n);
  return latentGpTarget(X, y, { likelihood: "probit", logLengthscale: [LOG_LENGTHSCALE], logSignalSd: LOG_SIGNAL_SD, jitter: "auto" });
}

/** The posterior mode by Newton's method (G = -Hessian for probit at beta = 1). */
function mode(target: AnnealedLatentTarget): { x: Float64Array; iterations: number } {
  const n = target.dim;
  const x = new Float64Array(n);
  const step = new Float64Array(n);
  for (let it = 1; it <= 100; it++) {
    const geo = target.geometry(x);
    geo.applyInverse(geo.gradient, step);
    geo.release();
    let change = 0;
    for (let i = 0; i < n; i++) {
      x[i] += step[i];
      change = Math.max(change, Math.abs(step[i]) / (1 + Math.abs(x[i])));
    }
    if (change < 1e-10) return { x, iterations: it };
  }
  throw new Error("Newton's method did not converge to the mode");
}

function maxAbsDiff(a: Float64Array, b: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

function maxAbs(a: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : 0.5 * (s[k - 1] + s[k]);
}

if (THREADS !== undefined) getBackend().setThreads(THREADS);
const backend = getBackend().describe();
const machine = { cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, node: process.version };
report.machine = machine;
report.backend = backend;
say(`rmhmc bench: ${machine.cpu}, ${machine.cores} cores, node ${machine.node}; backend ${backend.backend} (${backend.library}), ${backend.threads} thread(s)`);
say(`USPS 3-vs-5 subsets, lengthscale exp(${LOG_LENGTHSCALE}), signal sd exp(${LOG_SIGNAL_SD}); step size 0.1, 10 leapfrog steps`);

// ---------- (a) same trajectory, n = N_CHECK ----------
{
  const target = uspsTarget(N_CHECK);
  const { x, iterations } = mode(target);
  const rng = new Rng(2026);
  const rows: Record<string, unknown>[] = [];
  // At step size 0.1 the fixed-point iteration to a tolerance does not converge from the mode of
  // this subset for a typical momentum (both variants then reject it as divergent, at the same
  // step): the tolerance comparison uses step size 0.02.
  const modes: [string, RmhmcOptions][] = [
    ["step 0.1, 5 fixed-point iterations", { ...NOTE }],
    ["step 0.02, fixed points to tolerance 1e-10", { stepSize: 0.02, leapfrogSteps: 10, fixedPointTolerance: 1e-10 }],
  ];
  for (const [label, opts] of modes) {
    const fast = rmhmc(target, { ...opts, variant: "fast" });
    const ref = rmhmc(target.referenceTarget(), { ...opts, variant: "reference" });
    const sf = fast.init(x);
    const sr = ref.init(x);
    const p0 = new Float64Array(N_CHECK);
    fast.sampleMomentum(sf, rng, p0);
    let dx = 0, dp = 0, dE = 0, scaleX = 0, scaleP = 0;
    for (let l = 1; l <= 10; l++) {
      const a = fast.integrate(sf, p0, l);
      const b = ref.integrate(sr, p0, l);
      if (a.divergence || b.divergence) throw new Error(`(a) ${label}: a trajectory diverged (fast: ${a.divergence ?? "no"}, reference: ${b.divergence ?? "no"})`);
      dx = Math.max(dx, maxAbsDiff(a.position, b.position));
      dp = Math.max(dp, maxAbsDiff(a.momentum, b.momentum));
      dE = Math.max(dE, Math.abs(a.endEnergy - b.endEnergy), Math.abs(a.startEnergy - b.startEnergy));
      scaleX = Math.max(scaleX, maxAbs(b.position));
      scaleP = Math.max(scaleP, maxAbs(b.momentum));
    }
    // accept decisions for log u on either side of -dH, and for a uniform draw
    const tr = fast.integrate(sf, p0, 10);
    const dH = tr.endEnergy - tr.startEnergy;
    let same = 0, total = 0, dAlpha = 0;
    for (const logU of [-dH - 1e-6, -dH + 1e-6, Math.log(rng.uniform())]) {
      const a = fast.transition(sf, p0, logU, 10);
      const b = ref.transition(sr, p0, logU, 10);
      total++;
      if (a.info.accepted === b.info.accepted) same++;
      dAlpha = Math.max(dAlpha, Math.abs(a.info.acceptanceProbability - b.info.acceptanceProbability));
    }
    rows.push({ mode: label, maxAbsPositionDiff: dx, maxAbsPosition: scaleX, maxAbsMomentumDiff: dp, maxAbsMomentum: scaleP, maxAbsEnergyDiff: dE, energyError: dH, acceptDecisionsAgree: `${same}/${total}`, maxAbsAcceptProbDiff: dAlpha });
    say(`(a) n = ${N_CHECK} from the mode (Newton, ${iterations} iterations), ${label}, after each of 1..10 leapfrog steps:`);
    say(`    max |x_fast - x_ref| = ${dx.toExponential(2)} (|x| <= ${scaleX.toFixed(2)}), max |p_fast - p_ref| = ${dp.toExponential(2)} (|p| <= ${scaleP.toFixed(2)})`);
    say(`    max |H_fast - H_ref| = ${dE.toExponential(2)} (energy error ${dH.toExponential(3)}); accept decisions agree ${same}/${total}, max |alpha_fast - alpha_ref| = ${dAlpha.toExponential(2)}`);
  }
  report.sameTrajectory = { n: N_CHECK, rows };
}

// ---------- (b), (c) time per transition and GFLOP/s, n = N ----------
if (!SKIP_TIMING) {
  const target = uspsTarget(N);
  const { x, iterations } = mode(target);
  say(`(b) n = ${N}: mode by Newton (${iterations} iterations)${target.jitter > 0 ? `, jitter ${target.jitter}` : ""}; ${REPS} transitions each, interleaved, from the mode`);
  const fast = rmhmc(target, { ...NOTE, variant: "fast" });
  const ref = rmhmc(target.referenceTarget(), { ...NOTE, variant: "reference" });
  const kernels: [string, RmhmcKernel][] = [["fast", fast], ["reference", ref]];
  const states = kernels.map(([, k]) => k.init(x));
  const rngs = kernels.map((_, i) => new Rng(7, i));
  const times: number[][] = [[], []];
  const flops: number[][] = [[], []];
  const accepted = [0, 0];
  // one untimed transition each (JIT warm-up)
  for (let k = 0; k < 2; k++) states[k] = kernels[k][1].step(states[k], rngs[k]).state;
  const cholTimes: number[] = [];
  const K = target.kernelMatrix;
  for (let r = 0; r < REPS; r++) {
    for (let k = 0; k < 2; k++) {
      resetOpCounts();
      const t0 = performance.now();
      const { state, info } = kernels[k][1].step(states[k], rngs[k]);
      times[k].push((performance.now() - t0) / 1000);
      flops[k].push(opCounts.flops);
      states[k] = state;
      if (info.accepted) accepted[k]++;
    }
    const t0 = performance.now();
    cholesky(K, { what: "K", skipFiniteCheck: true });
    cholTimes.push((performance.now() - t0) / 1000);
  }
  const cholSeconds = median(cholTimes);
  const cholGflops = (N ** 3 / 3) / cholSeconds / 1e9;
  const rows = kernels.map(([name], k) => {
    const seconds = median(times[k]);
    const f = median(flops[k]);
    return { variant: name, secondsPerTransition: seconds, flopsPerTransition: f, flopsOverNCubed: f / N ** 3, gflops: f / seconds / 1e9, accepted: `${accepted[k]}/${REPS}` };
  });
  const ratio = rows[0].secondsPerTransition / rows[1].secondsPerTransition;
  for (const r of rows) {
    say(`    ${r.variant.padEnd(9)} ${r.secondsPerTransition.toFixed(3)} s per transition (median), ${r.flopsOverNCubed.toFixed(1)} n^3 flops, ${r.gflops.toFixed(2)} GFLOP/s, accepted ${r.accepted}`);
  }
  say(`    fast / reference time = ${ratio.toFixed(3)} (goal <= 0.25); flop ratio ${(rows[0].flopsPerTransition / rows[1].flopsPerTransition).toFixed(3)}`);
  say(`(c) Cholesky of K (n = ${N}) in the same run: ${cholSeconds.toFixed(4)} s, ${cholGflops.toFixed(2)} GFLOP/s; a fast transition reaches ${(rows[0].gflops / cholGflops * 100).toFixed(0)}% of it, a reference one ${(rows[1].gflops / cholGflops * 100).toFixed(0)}%`);
  report.timing = { n: N, reps: REPS, rows, ratio, cholesky: { seconds: cholSeconds, gflops: cholGflops } };
}

// ---------- (d) the two chains agree in distribution, n = AGREE_N ----------
// On the USPS subsets at this setting chains mix too slowly for a short comparison (latent values
// along directions the data leave free have prior sd ~ exp(5.1)), so (d) uses a synthetic,
// well-conditioned problem: AGREE_N inputs uniform on [0, 3]^2, lengthscale 1, signal sd 2,
// labels drawn from the model.
{
  const rng = new Rng(99);
  const n = AGREE_N;
  const X = new Matrix(n, 2, Float64Array.from({ length: 2 * n }, () => 3 * rng.uniform()));
  const K = seKernel({ lengthscale: 1, signalSd: 2 }).matrix(X);
  const f = cholesky(K, { jitter: 1e-10, onJitter: () => {} }).multiplyLower(rng.fillNormal(new Float64Array(n)));
  const y = f.map((v) => (v + rng.normal() > 0 ? 1 : -1));
  const target = latentGpTarget(X, y, { likelihood: "probit", logLengthscale: [0], logSignalSd: Math.log(2) });
  // exact chains: fixed points to a tolerance
  const opts: RmhmcOptions = { stepSize: 0.3, leapfrogSteps: 10, fixedPointTolerance: 1e-10, randomiseSteps: true };
  const run = (variant: "fast" | "reference") =>
    sample(rmhmc(variant === "fast" ? target : target.referenceTarget(), { ...opts, variant }), {
      draws: AGREE_DRAWS, burnIn: 200, chains: 2, seed: variant === "fast" ? 1 : 2, init: new Float64Array(n),
    });
  const a = run("fast");
  const b = run("reference");
  const z: { name: string; fast: number; reference: number; z: number }[] = [];
  for (const j of [0, 1, 2]) {
    for (const [what, g] of [["mean", (v: Float64Array) => v[j]], ["E[f^2]", (v: Float64Array) => v[j] * v[j]]] as const) {
      const ma = batchMeans(transform(a, g));
      const mb = batchMeans(transform(b, g));
      z.push({ name: `${what} f.${j + 1}`, fast: ma.mean, reference: mb.mean, z: (ma.mean - mb.mean) / Math.hypot(ma.mcse, mb.mcse) });
    }
  }
  const acc = (r: typeof a) => r.chainResults.reduce((s, c) => s + c.summary.acceptanceRate, 0) / r.chains;
  say(`(d) synthetic n = ${n} (2-D inputs, lengthscale 1, signal sd 2), step 0.3, 1..10 leapfrog steps, tolerance 1e-10, 2 chains x ${AGREE_DRAWS} draws each`);
  say(`    acceptance fast ${acc(a).toFixed(2)}, reference ${acc(b).toFixed(2)}; two-sample z-scores (batch-means standard errors):`);
  for (const r of z) say(`    ${r.name.padEnd(10)} fast ${r.fast.toFixed(4).padStart(9)}  reference ${r.reference.toFixed(4).padStart(9)}  z ${r.z.toFixed(2)}`);
  say(`    max |z| = ${Math.max(...z.map((r) => Math.abs(r.z))).toFixed(2)} over ${z.length} comparisons`);
  report.agreement = { n, draws: AGREE_DRAWS, chains: 2, rows: z };
}

// ---------- (e) the cost of the reversibility check, n = CHECK_N ----------
if (!SKIP_TIMING) {
  const target = uspsTarget(CHECK_N);
  const { x } = mode(target);
  const opts: RmhmcOptions = { stepSize: 0.02, leapfrogSteps: 10, fixedPointTolerance: 1e-8 };
  const kernels = [rmhmc(target, { ...opts, reversibilityTolerance: false }), rmhmc(target, opts)];
  const reps = Math.max(REPS, 10);
  const times: number[][] = [[], []];
  const accepted = [0, 0];
  const rng = new Rng(8);
  let state = kernels[0].init(x);
  const p0 = new Float64Array(CHECK_N);
  kernels[1].transition(state, (kernels[0].sampleMomentum(state, rng, p0), p0), Math.log(rng.uniform()), 10); // JIT warm-up
  for (let r = 0; r < reps; r++) {
    kernels[0].sampleMomentum(state, rng, p0);
    const logU = Math.log(rng.uniform());
    let next = state;
    for (let k = 0; k < 2; k++) {
      const t0 = performance.now();
      const out = kernels[k].transition(state, p0, logU, 10);
      times[k].push((performance.now() - t0) / 1000);
      if (out.info.accepted) accepted[k]++;
      if (k === 1) next = out.state;
    }
    state = next;
  }
  const unchecked = median(times[0]);
  const checked = median(times[1]);
  say(`(e) n = ${CHECK_N}, step 0.02, 10 leapfrog steps, fixed points to 1e-8, ${reps} transitions each from the same states and momenta, interleaved:`);
  say(`    without the check ${unchecked.toFixed(4)} s, with it ${checked.toFixed(4)} s per transition (median): ratio ${(checked / unchecked).toFixed(2)}; accepted ${accepted[0]}/${reps} and ${accepted[1]}/${reps}`);
  report.reversibilityCheck = { n: CHECK_N, reps, uncheckedSeconds: unchecked, checkedSeconds: checked, ratio: checked / unchecked, accepted };
}


// ---------- (f) time per transition against its flop count ----------
if (!SKIP_TIMING) {
  say("(f) default RMHMC (fixed points to 1e-8, reversibility check), step 0.05, 10 leapfrog steps, synthetic probit, from the mode:");
  say("| n | transitions | wall ms | CPU ms | factorisations | MFLOP | potrf GFLOP/s | flops / GFLOP/s, ms | CPU / flop time |");
  say("|---|---|---|---|---|---|---|---|---|");
  const rowsF: Record<string, number>[] = [];
  for (const n of FLOP_SIZES) {
    const target = problem(n);
    const { x } = mode(target);
    const kernel = rmhmc(target, { stepSize: 0.05, leapfrogSteps: 10 });
    const rng = new Rng(11, n);
    let state = kernel.init(x);
    state = kernel.step(state, rng).state; // warm-up
    const transitions = Math.max(3, Math.round(20 * (100 / n) ** 2));
    resetOpCounts();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (let t = 0; t < transitions; t++) state = kernel.step(state, rng).state;
    const cu = process.cpuUsage(c0);
    const wall = (performance.now() - t0) / transitions;
    const cpu = (cu.user + cu.system) / 1000 / transitions;
    const flops = opCounts.flops / transitions;
    const factorisations = opCounts.cholesky / transitions;
    // the same call at the same order: potrf of I + S K S with S from the mode's metric
    const b = new Float64Array(n * n);
    const sv = new Float64Array(n).fill(1);
    // CPU time, as for the transitions (the wall clock of a shared machine counts other processes)
    const reps = Math.max(5, Math.round(2e4 / n));
    const c1 = process.cpuUsage();
    for (let r = 0; r < reps; r++) factorIdentityPlusScaled(target.kernelMatrix.data, sv, n, b);
    const cu1 = process.cpuUsage(c1);
    const gflops = (n ** 3 / 3) / ((cu1.user + cu1.system) / 1e6 / reps) / 1e9;
    const flopMs = flops / gflops / 1e6;
    rowsF.push({ n, transitions, wallMs: wall, cpuMs: cpu, factorisations, flops, gflops, flopMs, ratio: cpu / flopMs });
    say(`| ${n} | ${transitions} | ${wall.toFixed(1)} | ${cpu.toFixed(1)} | ${factorisations.toFixed(1)} | ${(flops / 1e6).toFixed(1)} | ${gflops.toFixed(1)} | ${flopMs.toFixed(2)} | ${(cpu / flopMs).toFixed(2)} |`);
  }
  report.flopCount = rowsF;
}
// ---------- (g) ESS per second on the annealed targets ----------
if (!SKIP_TIMING) {
  const n = 100;
  say(`(g) RMHMC on L_beta (q the prior), synthetic probit n = ${n}, step 0.1, 10 leapfrog steps, ${ANNEAL_DRAWS} draws after ${ANNEAL_DRAWS >> 2} warm-up:`);
  say("| beta | min bulk ESS | sampling s | ESS/s | acceptance | divergences |");
  say("|---|---|---|---|---|---|");
  const rowsG: Record<string, number>[] = [];
  for (const beta of [0.01, 0.1, 1]) {
    const target = problem(n).withBeta(beta);
    const kernel = rmhmc(target, { stepSize: 0.1, leapfrogSteps: 10 });
    const rng = new Rng(13, Math.round(beta * 1000));
    let state = kernel.init(new Float64Array(n));
    for (let t = 0; t < ANNEAL_DRAWS >> 2; t++) state = kernel.step(state, rng).state;
    const draws = Array.from({ length: n }, () => new Float64Array(ANNEAL_DRAWS));
    let accepted = 0, divergences = 0;
    const t0 = performance.now();
    for (let t = 0; t < ANNEAL_DRAWS; t++) {
      const out = kernel.step(state, rng);
      state = out.state;
      if (out.info.accepted) accepted++;
      if (out.info.divergence) divergences++;
      for (let i = 0; i < n; i++) draws[i][t] = state.position[i];
    }
    const seconds = (performance.now() - t0) / 1000;
    let minEss = Infinity;
    for (let i = 0; i < n; i++) minEss = Math.min(minEss, essBulk([draws[i]]));
    rowsG.push({ beta, minEss, seconds, essPerSecond: minEss / seconds, acceptance: accepted / ANNEAL_DRAWS, divergences });
    say(`| ${beta} | ${minEss.toFixed(1)} | ${seconds.toFixed(2)} | ${(minEss / seconds).toFixed(1)} | ${(accepted / ANNEAL_DRAWS).toFixed(2)} | ${divergences} |`);
  }
  report.annealed = rowsG;
}
if (JSON_OUT) console.log(JSON.stringify(report));
