import { test } from "node:test";
import assert from "node:assert/strict";
import { parsePriorSpec, positivePrior, PriorSpecError, type PositivePriorSpec } from "../../src/gp/hyperpriors.js";
import { regularizedGammaP, regularizedGammaQ } from "../../src/math/incompleteGamma.js";
import { normalCdf } from "../../src/math/normal.js";
import { betaCdf } from "../../src/diagnostics/beta.js";
import { Rng } from "../../src/random/rng.js";
import { ksTest } from "../random/stats.js";

const SPECS: PositivePriorSpec[] = [
  { family: "gamma", shape: 1, rate: 1 },
  { family: "gamma", shape: 2.5, rate: 0.7 },
  { family: "invgamma", shape: 1, scale: 1 },
  { family: "invgamma", shape: 3, scale: 2 },
  { family: "lognormal", mu: 0.3, sigma: 0.8 },
  { family: "halfnormal", scale: 1.5 },
  { family: "halft", nu: 3, scale: 1 },
  { family: "halft", nu: 1, scale: 2 },
  { family: "halfnormal", scale: 1, on: "sd" },
  { family: "halft", nu: 4, scale: 0.5, on: "sd" },
  { family: "gamma", shape: 2, rate: 1, on: "sd" },
  { family: "invgamma", shape: 2, scale: 1, on: "sd" },
];

/** The integral of exp(f(t)) over t in [-40, 40] by the trapezoid rule on a fine grid. */
function integrate(f: (t: number) => number): number {
  const h = 1e-3;
  let s = 0;
  for (let t = -40; t <= 40; t += h) s += Math.exp(f(t));
  return s * h;
}

test("hyperpriors: the log-scale density (Jacobian included) integrates to 1 over t = log x", () => {
  for (const spec of SPECS) {
    const prior = positivePrior(spec);
    const z = integrate((t) => prior.logDensityOfLog(t).value);
    assert.ok(Math.abs(z - 1) < 1e-6, `${prior}: integral ${z}`);
  }
});

test("hyperpriors (negative control): without the Jacobian the log-scale density does not integrate to 1", () => {
  // Without it the integral is E[1/x], which is 1 for some priors (inverse-Gamma(1, 1)): these have E[1/x] far from 1.
  const specs: PositivePriorSpec[] = [
    { family: "gamma", shape: 2.5, rate: 0.7 },
    { family: "invgamma", shape: 3, scale: 2 },
    { family: "lognormal", mu: 1, sigma: 0.5 },
  ];
  for (const spec of specs) {
    const prior = positivePrior(spec);
    const z = integrate((t) => prior.logDensity(Math.exp(t)));
    assert.ok(Math.abs(z - 1) > 0.05, `${prior}: integral without the Jacobian ${z}`);
  }
});

test("hyperpriors: densities at points computed by hand", () => {
  // Gamma(1, 1) at x = 2: exp(-2).
  assert.ok(Math.abs(positivePrior({ family: "gamma", shape: 1, rate: 1 }).logDensity(2) - -2) < 1e-15);
  // Gamma(2, 3) at x = 0.5: 9 * 0.5 * exp(-1.5) / 1! .
  assert.ok(Math.abs(positivePrior({ family: "gamma", shape: 2, rate: 3 }).logDensity(0.5) - Math.log(4.5 * Math.exp(-1.5))) < 1e-14);
  // inverse-Gamma(1, 1) at x = 2: x^-2 exp(-1/2).
  assert.ok(Math.abs(positivePrior({ family: "invgamma", shape: 1, scale: 1 }).logDensity(2) - (-2 * Math.log(2) - 0.5)) < 1e-15);
  // inverse-Gamma(3, 2) at x = 1: 2^3 exp(-2) / Gamma(3) = 4 exp(-2).
  assert.ok(Math.abs(positivePrior({ family: "invgamma", shape: 3, scale: 2 }).logDensity(1) - (Math.log(4) - 2)) < 1e-14);
  // log-normal(0, 1) at x = e: exp(-1/2) / (e sqrt(2 pi)).
  assert.ok(Math.abs(positivePrior({ family: "lognormal", mu: 0, sigma: 1 }).logDensity(Math.E) - (-0.5 - 1 - 0.5 * Math.log(2 * Math.PI))) < 1e-14);
  // half-normal(1) at x = 1: 2 exp(-1/2) / sqrt(2 pi); half-Cauchy(1) at x = 1: 2 / (pi (1 + 1)).
  assert.ok(Math.abs(positivePrior({ family: "halfnormal", scale: 1 }).logDensity(1) - (Math.log(2) - 0.5 - 0.5 * Math.log(2 * Math.PI))) < 1e-14);
  assert.ok(Math.abs(positivePrior({ family: "halft", nu: 1, scale: 1 }).logDensity(1) - -Math.log(Math.PI)) < 1e-14);
  // half-normal(1) on the sd s of x = s^2 at x = 4: p_S(2) |ds/dx| = 2 N(2; 0, 1) / (2 * 2).
  assert.ok(Math.abs(positivePrior({ family: "halfnormal", scale: 1, on: "sd" }).logDensity(4) - (Math.log(2) - 2 - 0.5 * Math.log(2 * Math.PI) - Math.log(4))) < 1e-14);
  for (const spec of SPECS) assert.equal(positivePrior(spec).logDensity(0), -Infinity);
});

test("hyperpriors: first and second derivatives in t against central finite differences", () => {
  const h = 1e-5;
  for (const spec of SPECS) {
    const prior = positivePrior(spec);
    for (const t of [-2.3, -0.4, 0, 0.9, 2.1]) {
      const d = prior.logDensityOfLog(t);
      const up = prior.logDensityOfLog(t + h);
      const down = prior.logDensityOfLog(t - h);
      const g = (up.value - down.value) / (2 * h);
      const hh = (up.gradient - down.gradient) / (2 * h);
      assert.ok(Math.abs(d.gradient - g) < 1e-6 * (1 + Math.abs(g)), `${prior} t=${t}: gradient ${d.gradient} vs ${g}`);
      assert.ok(Math.abs(d.hessian - hh) < 1e-6 * (1 + Math.abs(hh)), `${prior} t=${t}: hessian ${d.hessian} vs ${hh}`);
      assert.ok(Math.abs(d.value - (prior.logDensity(Math.exp(t)) + t)) < 1e-12 * (1 + Math.abs(d.value)));
    }
  }
});

function cdfOf(spec: PositivePriorSpec): (x: number) => number {
  // a prior on the sd s of x = s^2: P(x <= v) = P(s <= sqrt v)
  if (spec.on === "sd") {
    const cdf = cdfOf({ ...spec, on: undefined });
    return (x) => cdf(Math.sqrt(x));
  }
  if (spec.family === "gamma") return (x) => regularizedGammaP(spec.shape, spec.rate * x);
  if (spec.family === "invgamma") return (x) => regularizedGammaQ(spec.shape, spec.scale / x);
  if (spec.family === "halfnormal") return (x) => 2 * normalCdf(x / spec.scale) - 1;
  // |t_nu| <= z: 1 - I_{nu / (nu + z^2)}(nu / 2, 1 / 2)
  if (spec.family === "halft") return (x) => 1 - betaCdf(spec.nu / (spec.nu + (x / spec.scale) ** 2), spec.nu / 2, 0.5);
  return (x) => normalCdf((Math.log(x) - spec.mu) / spec.sigma);
}

/** The Kolmogorov-Smirnov statistic of the draws against a continuous CDF. */
function ksStatistic(draws: number[], cdf: (x: number) => number): number {
  return ksTest(Float64Array.from(draws), cdf).d;
}

test("hyperpriors: draws follow the prior (Kolmogorov-Smirnov, 1% level), and a wrong parameterisation fails", () => {
  const n = 5000;
  const bound = 1.628 / Math.sqrt(n);
  for (const [k, spec] of SPECS.entries()) {
    const prior = positivePrior(spec);
    const rng = new Rng(20261125, k);
    const draws = Array.from({ length: n }, () => prior.sample(rng));
    const d = ksStatistic(draws, cdfOf(spec));
    assert.ok(d < bound, `${prior}: KS ${d} >= ${bound}`);
  }
  // Negative control: a gamma draw that treats the rate as a scale.
  const spec = { family: "gamma", shape: 2.5, rate: 0.7 } as const;
  const rng = new Rng(20261125, 99);
  const wrong = Array.from({ length: n }, () => rng.gamma(spec.shape) * spec.rate);
  assert.ok(ksStatistic(wrong, cdfOf(spec)) > bound);
  // Negative control: a prior on the sd read as one on the variance.
  const sd = positivePrior({ family: "halfnormal", scale: 1, on: "sd" });
  const draws = Array.from({ length: n }, () => sd.sample(rng));
  assert.ok(ksStatistic(draws, cdfOf({ family: "halfnormal", scale: 1 })) > bound);
});

test("hyperpriors: parsePriorSpec reads the command-line forms", () => {
  assert.deepEqual(parsePriorSpec("gamma:1,1", "--prior-lengthscale"), { family: "gamma", shape: 1, rate: 1 });
  assert.deepEqual(parsePriorSpec("invgamma:2, 0.5", "--prior-variance"), { family: "invgamma", shape: 2, scale: 0.5 });
  assert.deepEqual(parsePriorSpec("lognormal:-1,0.5", "--prior-lengthscale"), { family: "lognormal", mu: -1, sigma: 0.5 });
  assert.equal(positivePrior(parsePriorSpec("gamma:2,3", "x")).toString(), "gamma:2,3");
  assert.deepEqual(parsePriorSpec("halfnormal:2", "--prior-signal-sd"), { family: "halfnormal", scale: 2 });
  assert.deepEqual(parsePriorSpec("half-t:3,1", "--prior-signal-sd"), { family: "halft", nu: 3, scale: 1 });
});

test("hyperpriors: bad specs name the option and what is wrong", () => {
  const cases: [string, RegExp][] = [
    ["gamma:0,1", /^--prior-lengthscale: gamma shape must be a positive finite number, got 0$/],
    ["invgamma:1,-2", /^--prior-lengthscale: invgamma scale must be a positive finite number, got -2$/],
    ["lognormal:0,0", /^--prior-lengthscale: lognormal scale must be a positive finite number, got 0$/],
    ["beta:1,1", /^--prior-lengthscale: unknown prior family "beta"/],
    ["gamma:1", /^--prior-lengthscale: the gamma family takes 2 parameters, "gamma:1" gives 1/],
    ["halfnormal:1,2", /^--prior-lengthscale: the halfnormal family takes 1 parameter, "halfnormal:1,2" gives 2/],
    ["halft:0,1", /^--prior-lengthscale: halft degrees of freedom must be a positive finite number, got 0$/],
    ["gamma", /^--prior-lengthscale: "gamma" is not of the form family:p1,p2/],
    ["gamma:x,1", /^--prior-lengthscale: "x" in "gamma:x,1" is not a number$/],
  ];
  for (const [text, pattern] of cases) {
    assert.throws(() => parsePriorSpec(text, "--prior-lengthscale"), (e: unknown) => e instanceof PriorSpecError && pattern.test(e.message), text);
  }
  assert.throws(() => positivePrior({ family: "gamma", shape: 1, rate: Number.NaN }), PriorSpecError);
});
