/**
 * Simulated returns of the stochastic volatility model (Girolami & Calderhead 2011, Section 8.3,
 * after Liu 2001: T = 2000, beta = 0.65, sigma = 0.15, phi = 0.98): x_1 from the stationary law
 * N(0, sigma^2 / (1 - phi^2)), x_{t+1} = phi x_t + sigma eta, y_t = beta exp(x_t / 2) eps_t, all
 * from one seeded stream.
 */
import { Rng } from "../../random/rng.js";

export interface SvSimulation {
  y: Float64Array;
  x: Float64Array;
}

export function simulateVolatility(T: number, beta: number, sigma: number, phi: number, seed: number): SvSimulation {
  const rng = new Rng(seed, 0);
  const x = new Float64Array(T);
  const y = new Float64Array(T);
  x[0] = (sigma / Math.sqrt(1 - phi * phi)) * rng.normal();
  for (let t = 1; t < T; t++) x[t] = phi * x[t - 1] + sigma * rng.normal();
  for (let t = 0; t < T; t++) y[t] = beta * Math.exp(x[t] / 2) * rng.normal();
  return { y, x };
}
