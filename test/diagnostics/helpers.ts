import assert from "node:assert/strict";
import { Rng } from "../../src/random/index.js";

/** |actual - expected| <= rel * max(|expected|, floor), with NaN matching NaN. */
export function assertClose(actual: number, expected: number, rel: number, what: string, floor = 1e-300): void {
  if (Number.isNaN(expected)) {
    assert.ok(Number.isNaN(actual), `${what}: expected NaN, got ${actual}`);
    return;
  }
  const err = Math.abs(actual - expected);
  assert.ok(err <= rel * Math.max(Math.abs(expected), floor), `${what}: got ${actual}, expected ${expected} (abs err ${err.toExponential(2)})`);
}

/**
 * A stationary Gaussian AR(1) chain x_t = phi x_{t-1} + sqrt(1 - phi^2) e_t, x_0 ~ N(0, 1):
 * unit variance, rho_t = phi^t, integrated autocorrelation time tau = (1 + phi) / (1 - phi).
 */
export function ar1(n: number, phi: number, rng: Rng, shift = 0): Float64Array {
  const x = new Float64Array(n);
  const s = Math.sqrt(1 - phi * phi);
  let v = rng.normal();
  x[0] = v + shift;
  for (let i = 1; i < n; i++) {
    v = phi * v + s * rng.normal();
    x[i] = v + shift;
  }
  return x;
}

export function ar1Tau(phi: number): number {
  return (1 + phi) / (1 - phi);
}

export function iidNormal(n: number, rng: Rng, mean = 0, sd = 1): Float64Array {
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = mean + sd * rng.normal();
  return x;
}

/** Biased autocovariance by the direct O(N^2) sum (the definition). */
export function directAutocovariance(x: ArrayLike<number>): Float64Array {
  const n = x.length;
  let mu = 0;
  for (let i = 0; i < n; i++) mu += x[i];
  mu /= n;
  const out = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    let s = 0;
    for (let j = 0; j + t < n; j++) s += (x[j] - mu) * (x[j + t] - mu);
    out[t] = s / n;
  }
  return out;
}
