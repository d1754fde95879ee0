/**
 * The stochastic volatility model's latent block (Girolami & Calderhead 2011, Section 8.2): the
 * cost of RMHMC on x | (beta, sigma, phi) with the metric G = I/2 + C^-1 held as its bidiagonal
 * Cholesky factor (linalg/tridiagonal.ts), against the same transition with G held densely (one
 * dense Cholesky factorisation per sweep, dense triangular solves per leapfrog step: what a
 * dense-metric implementation does), as T grows. Per T, in this run:
 *
 * (a) CPU microseconds per leapfrog step of the structured transition (HMC with the tridiagonal
 *     mass: one gradient, one G^-1 p), median over repetitions of 50-step transitions;
 * (b) the dense one: the factorisation of G (once per sweep) and its per-step solves;
 * (c) the ratio of a whole 50-step transition, dense over structured.
 *
 *   npm run bench -- volatility [--t 250,500,1000,2000,4000] [--dense-max 2000] [--reps 5]
 *
 * The returns are simulated at the paper's (beta, sigma, phi) = (0.65, 0.15, 0.98); x starts at
 * its true values. CPU time (process.cpuUsage) rather than wall time: the machine is shared.
 */
import { cholesky } from "../src/linalg/cholesky.js";
import { getBackend } from "../src/linalg/backend.js";
import { Matrix } from "../src/linalg/matrix.js";
import { svLatentTarget } from "../src/models/volatility/svLatent.js";
import { simulateVolatility } from "../src/models/volatility/svSimulate.js";
import { Rng } from "../src/random/rng.js";
import { hmc } from "../src/samplers/kernels/hmc.js";
import { massFromCholesky } from "../src/samplers/integrators/massMatrix.js";
import { tridiagonalMass } from "../src/samplers/integrators/tridiagonalMass.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

function cpuSeconds(f: () => void): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const sizes = arg("--t", "250,500,1000,2000,4000").split(",").map(Number);
const denseMax = Number(arg("--dense-max", "2000"));
const reps = Number(arg("--reps", "5"));
const STEPS = 50;
const backend = getBackend().describe();
console.log(`SV latent block, RMHMC (${STEPS} leapfrog steps, step 0.1), CPU time; backend ${backend.backend} (${backend.library})`);
console.log("T | structured: us / leapfrog step | dense: factorisation ms, us / leapfrog step | dense / structured per transition");
// the first pass over the smallest size warms the JIT up and is not printed
for (const [pass, T] of [[0, sizes[0]] as const, ...sizes.map((t) => [1, t] as const)]) {
  const { y, x } = simulateVolatility(T, 0.65, 0.15, 0.98, 7 + T);
  const target = svLatentTarget(y, 0.65, 0.15, 0.98);
  const rng = new Rng(T, 0);
  const structured = hmc(target, { stepSize: 0.1, leapfrogSteps: STEPS, mass: tridiagonalMass(target.metricFactor) });
  const s0 = structured.init(x);
  structured.step(s0, rng);
  const tS = median(Array.from({ length: reps }, () => cpuSeconds(() => structured.step(s0, rng)))) / STEPS;
  let line = `${T} | ${(tS * 1e6).toFixed(1)}`;
  if (T <= denseMax) {
    const build = () => {
      const g = new Matrix(T, T);
      for (let i = 0; i < T; i++) {
        g.set(i, i, target.metricDiagonal[i]);
        if (i + 1 < T) {
          g.set(i + 1, i, target.metricOffDiagonal[i]);
          g.set(i, i + 1, target.metricOffDiagonal[i]);
        }
      }
      return cholesky(g);
    };
    build();
    let factor = build();
    const tFactor = median(Array.from({ length: reps }, () => cpuSeconds(() => (factor = build()))));
    const dense = hmc(target, { stepSize: 0.1, leapfrogSteps: STEPS, mass: massFromCholesky(factor.factor) });
    const d0 = dense.init(x);
    dense.step(d0, rng);
    const tD = median(Array.from({ length: reps }, () => cpuSeconds(() => dense.step(d0, rng)))) / STEPS;
    line += ` | ${(tFactor * 1e3).toFixed(1)} ms, ${(tD * 1e6).toFixed(1)} | ${((tFactor + STEPS * tD) / (STEPS * tS)).toFixed(1)}`;
  } else {
    line += " | (not run) | -";
  }
  if (pass === 1) console.log(line);
}
