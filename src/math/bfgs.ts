/**
 * Unconstrained minimisation by BFGS (Nocedal & Wright, Numerical Optimization, 2nd ed.,
 * Algorithm 6.1) with a line search for the strong Wolfe conditions (Algorithms 3.5 and 3.6,
 * c1 = 1e-4, c2 = 0.9, cubic-free bisection-safeguarded quadratic interpolation in the zoom).
 * The inverse Hessian approximation starts as y's / y'y I after the first step (eq. 6.20); an
 * update whose curvature s'y is not positive is skipped, so it stays positive definite.
 * A point where the objective is not finite (e.g. a failed factorisation) counts as too far:
 * the line search shrinks the step.
 */

/** The objective and its gradient at x. */
export type ValueAndGradient = (x: Float64Array) => { value: number; gradient: Float64Array };

export interface BfgsOptions {
  /** Converged when max_i |g_i| is below this (default 1e-5). */
  gradientTolerance?: number;
  /** ... or when the value changes by less than this, relatively, over an iteration (default 1e-10). */
  valueTolerance?: number;
  /** At most this many iterations (default 200). */
  maxIterations?: number;
  /** The first trial step of the first line search, as a length in x (default 1). */
  initialStep?: number;
}

export interface BfgsResult {
  x: Float64Array;
  value: number;
  gradient: Float64Array;
  iterations: number;
  /** Evaluations of the objective. */
  evaluations: number;
  converged: boolean;
  /** Why it stopped, in words. */
  reason: string;
}

const C1 = 1e-4;
const C2 = 0.9;

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
}

interface Point { t: number; value: number; slope: number; x: Float64Array; gradient: Float64Array }

/** A step length along p satisfying the strong Wolfe conditions, or the best point found. */
function lineSearch(fg: ValueAndGradient, x: Float64Array, f0: number, g0: Float64Array, p: Float64Array, t1: number, count: () => void): Point | undefined {
  const slope0 = dot(g0, p);
  const at = (t: number): Point => {
    count();
    const xt = x.map((v, i) => v + t * p[i]!);
    const r = fg(xt);
    const ok = Number.isFinite(r.value) && r.gradient.every(Number.isFinite);
    return { t, value: ok ? r.value : Infinity, slope: ok ? dot(r.gradient, p) : NaN, x: xt, gradient: r.gradient };
  };
  const zoom = (lo: Point, hi: Point): Point | undefined => {
    for (let k = 0; k < 40; k++) {
      // minimiser of the quadratic through lo's value and slope and hi's value, kept inside
      const d = hi.t - lo.t;
      const denom = 2 * (hi.value - lo.value - lo.slope * d);
      let t = Number.isFinite(hi.value) && denom > 0 ? lo.t - (lo.slope * d * d) / denom : lo.t + d / 2;
      const a = Math.min(lo.t, hi.t);
      const b = Math.max(lo.t, hi.t);
      if (!(t > a + 0.1 * (b - a) && t < b - 0.1 * (b - a))) t = (lo.t + hi.t) / 2;
      const pt = at(t);
      if (pt.value > f0 + C1 * t * slope0 || pt.value >= lo.value) hi = pt;
      else {
        if (Math.abs(pt.slope) <= -C2 * slope0) return pt;
        if (pt.slope * (hi.t - lo.t) >= 0) hi = lo;
        lo = pt;
      }
    }
    return lo.t > 0 ? lo : undefined;
  };
  let prev: Point = { t: 0, value: f0, slope: slope0, x, gradient: g0 };
  let t = t1;
  for (let k = 0; k < 40; k++) {
    const pt = at(t);
    if (pt.value > f0 + C1 * t * slope0 || (k > 0 && pt.value >= prev.value)) return zoom(prev, pt);
    if (Math.abs(pt.slope) <= -C2 * slope0) return pt;
    if (pt.slope >= 0) return zoom(pt, prev);
    prev = pt;
    t *= 2;
  }
  return prev.t > 0 ? prev : undefined;
}

/** Minimises fg from x0 (see the module comment). */
export function minimizeBfgs(fg: ValueAndGradient, x0: ArrayLike<number>, options: BfgsOptions = {}): BfgsResult {
  const gtol = options.gradientTolerance ?? 1e-5;
  const ftol = options.valueTolerance ?? 1e-10;
  const maxIterations = options.maxIterations ?? 200;
  const n = x0.length;
  let evaluations = 1;
  let x = Float64Array.from(x0);
  const first = fg(x);
  if (!Number.isFinite(first.value)) throw new RangeError(`minimizeBfgs: the objective is ${first.value} at the starting point`);
  let f = first.value;
  let g = Float64Array.from(first.gradient);
  // H: the inverse Hessian approximation, row-major; identity until the first update rescales it
  let H = new Float64Array(n * n);
  for (let i = 0; i < n; i++) H[i * n + i] = 1;
  let iterations = 0;
  const done = (converged: boolean, reason: string): BfgsResult => ({ x, value: f, gradient: g, iterations, evaluations, converged, reason });
  if (maxAbs(g) < gtol) return done(true, "gradient below tolerance");
  for (; iterations < maxIterations;) {
    const p = new Float64Array(n);
    for (let i = 0; i < n; i++) p[i] = -dot(H.subarray(i * n, (i + 1) * n), g);
    if (!(dot(p, g) < 0)) {
      // not a descent direction (round-off in H): restart from steepest descent
      H = new Float64Array(n * n);
      for (let i = 0; i < n; i++) { H[i * n + i] = 1; p[i] = -g[i]!; }
    }
    const t1 = iterations === 0 ? Math.min(1, (options.initialStep ?? 1) / Math.sqrt(dot(p, p))) : 1;
    const pt = lineSearch(fg, x, f, g, p, t1, () => evaluations++);
    iterations++;
    if (pt === undefined) return done(false, "the line search found no lower point");
    const s = pt.x.map((v, i) => v - x[i]!);
    const yv = pt.gradient.map((v, i) => v - g[i]!);
    const fOld = f;
    x = Float64Array.from(pt.x);
    f = pt.value;
    g = Float64Array.from(pt.gradient);
    if (maxAbs(g) < gtol) return done(true, "gradient below tolerance");
    if (Math.abs(fOld - f) <= ftol * Math.max(1, Math.abs(f))) return done(true, "value change below tolerance");
    const sy = dot(s, yv);
    if (sy > 1e-12 * Math.sqrt(dot(s, s) * dot(yv, yv))) {
      if (iterations === 1) {
        const scale = sy / dot(yv, yv);
        for (let i = 0; i < n; i++) H[i * n + i] = scale;
      }
      // H <- (I - rho s y') H (I - rho y s') + rho s s' (Nocedal & Wright eq. 6.17)
      const rho = 1 / sy;
      const Hy = new Float64Array(n);
      for (let i = 0; i < n; i++) Hy[i] = dot(H.subarray(i * n, (i + 1) * n), yv);
      const yHy = dot(yv, Hy);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          H[i * n + j] += -rho * (s[i]! * Hy[j]! + Hy[i]! * s[j]!) + (rho * rho * yHy + rho) * s[i]! * s[j]!;
        }
      }
    }
  }
  return done(false, `no convergence in ${maxIterations} iterations`);
}
