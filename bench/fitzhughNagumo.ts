// Cost of one evaluation of the Fitzhugh-Nagumo posterior on the paper's synthetic data (200
// times on [0, 20], seed 1 as in docs/models/fitzhugh-nagumo.md) at the posterior mode: the augmented ODE solve alone (states; with first-order; with
// second-order sensitivities) and the whole evaluation around it (log density; + gradient; + G;
// + dG and the Cholesky factor of G, what mMALA and RMHMC ask for), so that the whole minus the
// solve is the rest (residuals, G and dG assembled from the sensitivities, the factorisation).
// Every figure is also given as a ratio to the states-only solve timed in the same run. The
// timings are interleaved round by round and the median round is reported.
//   npm run bench -- fitzhughNagumo [--rounds 15] [--reps 20] [--rtol 1e-6]
import { posteriorMode } from "../src/models/fitzhughNagumo/mode.js";
import { FN_DEFAULT_RTOL, fitzhughNagumoModel } from "../src/models/fitzhughNagumo/model.js";
import { simulateFitzhughNagumo } from "../src/models/fitzhughNagumo/simulate.js";
import { denseMetricTarget } from "../src/targets/denseMetric.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const rounds = arg("--rounds", 15);
const reps = arg("--reps", 20);
const rtol = arg("--rtol", FN_DEFAULT_RTOL);
// the data set of docs/models/fitzhugh-nagumo.md (simulate --model fitzhugh-nagumo --seed 1)
const data = simulateFitzhughNagumo({}, 1);
const model = fitzhughNagumoModel(data, { rtol, atol: rtol * 1e-2 });
const target = denseMetricTarget(model);
const theta = posteriorMode(model, [0.2, 0.2, 3]).theta;
const grad = new Float64Array(3);

const cases: [string, () => unknown][] = [
  ["solve: states (2 equations)", () => model.solve(theta, 0)],
  ["solve: + first-order sensitivities (8)", () => model.solve(theta, 1)],
  ["solve: + second-order sensitivities (20)", () => model.solve(theta, 2)],
  ["log density", () => model.logDensity(theta)],
  ["log density + gradient", () => model.logDensityAndGradient(theta, grad)],
  ["log density + gradient + G", () => model.denseMetric(theta, false)],
  ["log density + gradient + G + dG + chol(G)", () => target.geometry(theta)],
];
const times: number[][] = cases.map(() => []);
for (let r = 0; r < rounds; r++) {
  cases.forEach(([, f], k) => {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) f();
    times[k].push((performance.now() - t0) / reps);
  });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = times.map(median);
const steps = [0, 1, 2].map((o) => model.solve(theta, o as 0 | 1 | 2));
console.log(`Fitzhugh-Nagumo, paper's data (200 times on [0, 20]), at the posterior mode; rtol ${rtol}, atol ${rtol * 1e-2}; ${steps[0].acceptedSteps} accepted + ${steps[0].rejectedSteps} rejected steps, ${steps[0].evaluations} evaluations of f per solve`);
console.log(`median of ${rounds} rounds of ${reps} calls, ms per call; ratio to the states-only solve`);
cases.forEach(([name], k) => console.log(`${name.padEnd(44)} ${ms[k].toFixed(3).padStart(8)} ms  x${(ms[k] / ms[0]).toFixed(2)}`));
const solve2 = ms[2];
const whole = ms[6];
console.log(`split of the full evaluation (what mMALA / RMHMC ask for): ODE solve ${solve2.toFixed(3)} ms (${((100 * solve2) / whole).toFixed(0)}%), the rest ${(whole - solve2).toFixed(3)} ms (${((100 * (whole - solve2)) / whole).toFixed(0)}%)`);
const solve1 = ms[1];
console.log(`split of log density + gradient + G (simplified mMALA): ODE solve ${solve1.toFixed(3)} ms (${((100 * solve1) / ms[5]).toFixed(0)}%), the rest ${(ms[5] - solve1).toFixed(3)} ms`);
