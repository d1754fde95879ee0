/**
 * The paper's synthetic Fitzhugh-Nagumo data (Girolami & Calderhead 2011, Section 10.1.1): the
 * states solved at n equally spaced times from 0 to tEnd (200 on [0, 20]) with a = b = 0.2,
 * c = 3, V(0) = -1, R(0) = 1, plus independent Gaussian noise of sd 0.5 on both states.
 */
import { Rng } from "../../random/rng.js";
import { SensitivitySolver } from "../ode/sensitivities.js";
import { FN_INITIAL_STATE, FN_TRUE_PARAMETERS, fitzhughNagumoSystem } from "./equations.js";
import type { FitzhughNagumoData } from "./model.js";

export interface FitzhughNagumoSimulation {
  a: number;
  b: number;
  c: number;
  v0: number;
  r0: number;
  /** Number of observation times (default 200). */
  n: number;
  /** Last time (default 20); the first is 0. */
  tEnd: number;
  /** Noise sd (default 0.5). */
  noiseSd: number;
}

export const FN_SIMULATION_DEFAULTS: FitzhughNagumoSimulation = {
  a: FN_TRUE_PARAMETERS[0], b: FN_TRUE_PARAMETERS[1], c: FN_TRUE_PARAMETERS[2],
  v0: FN_INITIAL_STATE[0], r0: FN_INITIAL_STATE[1], n: 200, tEnd: 20, noiseSd: 0.5,
};

export interface SimulatedFitzhughNagumo extends FitzhughNagumoData {
  /** The noise-free states at the times. */
  readonly trueV: Float64Array;
  readonly trueR: Float64Array;
}

/** n equally spaced times from 0 to tEnd (0 alone when n = 1). */
export function observationTimes(n: number, tEnd: number): Float64Array {
  return Float64Array.from({ length: n }, (_, j) => (n === 1 ? 0 : (tEnd * j) / (n - 1)));
}

/** The data set for `seed` (the noise is its only random part). */
export function simulateFitzhughNagumo(settings: Partial<FitzhughNagumoSimulation>, seed: number | bigint): SimulatedFitzhughNagumo {
  const s = { ...FN_SIMULATION_DEFAULTS, ...settings };
  if (!(s.c > 0)) throw new RangeError(`fitzhugh-nagumo: c must be positive, got ${s.c}`);
  const times = observationTimes(s.n, s.tEnd);
  const solver = new SensitivitySolver(fitzhughNagumoSystem, { rtol: 1e-10, atol: 1e-12 });
  const sol = solver.solve(Float64Array.of(s.a, s.b, s.c), [s.v0, s.r0], 0, times, 0);
  const rng = new Rng(seed);
  const trueV = new Float64Array(s.n);
  const trueR = new Float64Array(s.n);
  const v = new Float64Array(s.n);
  const r = new Float64Array(s.n);
  for (let j = 0; j < s.n; j++) {
    trueV[j] = sol.state(j, 0);
    trueR[j] = sol.state(j, 1);
    v[j] = trueV[j] + s.noiseSd * rng.normal();
    r[j] = trueR[j] + s.noiseSd * rng.normal();
  }
  return { times, v, r, trueV, trueR };
}
