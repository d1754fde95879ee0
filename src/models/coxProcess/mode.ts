/**
 * The posterior mode of the Cox process field by Newton's method, each Newton system
 * (Sigma^-1 + W) delta = dL/dx, W = diag(m exp(x)), solved by preconditioned conjugate gradients:
 * products with Sigma^-1 are Kronecker rotations (O(N^1.5)), and the preconditioner is
 * (Sigma^-1 + w_bar I)^-1 with w_bar the mean of W, exact in the grid's eigenbasis. No N x N
 * matrix is formed. L is concave (Poisson log-likelihood with log link plus a Gaussian), so the
 * Newton steps are halved until L increases. The Euclidean model's mode, in its whitened
 * coordinates with FFT products, below.
 */
import type { CoxField } from "./coxField.js";
import type { CoxProcessModel } from "./coxProcess.js";
import type { EuclideanCoxModel } from "./euclideanCoxProcess.js";

export interface ModeResult {
  readonly mode: Float64Array;
  readonly logDensity: number;
  readonly newtonIterations: number;
  readonly gradientNorm: number;
}

type ModeOptions = { tolerance?: number; maxIterations?: number };

/**
 * Damped Newton from theta: `direction(theta, w, wbar, g)` returns the Newton step for the
 * gradient g given the weights w = m exp(x(theta)) of the cells and their mean wbar; steps are
 * halved until L does not decrease. Returns L, the iterations and |grad| at the end (theta updated).
 */
function dampedNewton(model: CoxField, theta: Float64Array, direction: (w: Float64Array, wbar: number, g: Float64Array) => Float64Array, options: ModeOptions) {
  const dim = model.dim;
  const n = model.cells;
  const tol = options.tolerance ?? 1e-8;
  const maxIt = options.maxIterations ?? 50;
  const g = new Float64Array(dim);
  const trial = new Float64Array(dim);
  const x = new Float64Array(n);
  const w = new Float64Array(n);
  let lp = model.logDensityAndGradient(theta, g);
  let gnorm = norm(g);
  let it = 0;
  for (; it < maxIt && gnorm > tol * Math.sqrt(n); it++) {
    model.toField(theta, x);
    let wbar = 0;
    for (let k = 0; k < n; k++) {
      w[k] = model.cellArea * Math.exp(x[k]);
      wbar += w[k] / n;
    }
    const delta = direction(w, wbar, g);
    let step = 1;
    for (let half = 0; half < 40; half++, step /= 2) {
      for (let k = 0; k < dim; k++) trial[k] = theta[k] + step * delta[k];
      const lt = model.logDensity(trial);
      if (lt >= lp - 1e-9 * Math.abs(lp)) break;
    }
    theta.set(trial);
    lp = model.logDensityAndGradient(theta, g);
    gnorm = norm(g);
  }
  return { logDensity: lp, newtonIterations: it, gradientNorm: gnorm };
}

export function coxProcessMode(model: CoxProcessModel, options: ModeOptions = {}): ModeResult {
  const n = model.dim;
  const grid = model.grid;
  const work = new Float64Array(n);
  const inverseD = grid.d.map((d) => 1 / d);
  const x = new Float64Array(n).fill(model.hyper.mu);
  const result = dampedNewton(model, x, (w, wbar, g) => {
    const applyA = (v: Float64Array, out: Float64Array) => {
      grid.applySpectral(inverseD, v, out, work);
      for (let k = 0; k < n; k++) out[k] += w[k] * v[k];
    };
    const precon = grid.d.map((d) => 1 / (1 / d + wbar));
    return conjugateGradient(applyA, (v, out) => grid.applySpectral(precon, v, out, work), g, 1e-10, 500);
  }, options);
  return { mode: x, ...result };
}

/**
 * The mode of the Euclidean model (euclideanCoxProcess.ts) in its whitened coordinates nu, by the
 * same Newton-CG: the negative Hessian I + C^1/2 R' W R C^1/2 is applied by FFTs, preconditioned
 * by (I + w_bar C)^-1 (exact were the whole torus observed with weight w_bar). The x of the
 * maximiser is the mode of x | y: for fixed x the smallest |nu|^2 with x(nu) = x is
 * (x - mu)' Sigma^-1 (x - mu), so max over nu = max over x of L(x). Returns the mode of x.
 */
export function euclideanCoxProcessMode(model: EuclideanCoxModel, options: ModeOptions = {}): ModeResult {
  const big = model.dim;
  const grid = model.grid;
  const u = new Float64Array(model.cells);
  const nu = new Float64Array(big);
  const result = dampedNewton(model, nu, (w, wbar, g) => {
    const applyA = (v: Float64Array, out: Float64Array) => {
      grid.rootToGrid(v, u);
      for (let k = 0; k < u.length; k++) u[k] *= w[k];
      grid.rootFromGrid(u, out);
      for (let k = 0; k < big; k++) out[k] += v[k];
    };
    const precon = grid.eigenvalues.map((l) => 1 / (1 + wbar * l));
    return conjugateGradient(applyA, (v, out) => grid.applySpectral(precon, v, out), g, 1e-10, 500);
  }, options);
  const x = new Float64Array(model.cells);
  model.toField(nu, x);
  return { mode: x, ...result };
}

function norm(v: Float64Array): number {
  let s = 0;
  for (let k = 0; k < v.length; k++) s += v[k] * v[k];
  return Math.sqrt(s);
}

/** Preconditioned CG for A x = b (A symmetric positive definite), relative residual `tol`. */
export function conjugateGradient(
  applyA: (v: Float64Array, out: Float64Array) => void,
  applyPrecon: (v: Float64Array, out: Float64Array) => void,
  b: Float64Array,
  tol: number,
  maxIterations: number,
): Float64Array {
  const n = b.length;
  const x = new Float64Array(n);
  const r = Float64Array.from(b);
  const z = new Float64Array(n);
  const ap = new Float64Array(n);
  applyPrecon(r, z);
  const p = Float64Array.from(z);
  let rz = dot(r, z);
  const bnorm = Math.sqrt(dot(b, b));
  for (let it = 0; it < maxIterations && Math.sqrt(dot(r, r)) > tol * bnorm; it++) {
    applyA(p, ap);
    const alpha = rz / dot(p, ap);
    for (let k = 0; k < n; k++) {
      x[k] += alpha * p[k];
      r[k] -= alpha * ap[k];
    }
    applyPrecon(r, z);
    const rzNew = dot(r, z);
    const beta = rzNew / rz;
    rz = rzNew;
    for (let k = 0; k < n; k++) p[k] = z[k] + beta * p[k];
  }
  return x;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}
