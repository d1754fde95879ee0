/**
 * An adaptive explicit Runge-Kutta solver for initial value problems y' = f(t, y): the
 * Dormand-Prince 5(4) pair (Dormand & Prince 1980) with local extrapolation (the step is taken
 * with the fifth-order solution), first-same-as-last, the step-size control and starting step of
 * Hairer, Norsett & Wanner, "Solving ODEs I" (2nd ed., Section II.4, eqs. 4.10-4.13 and the
 * algorithm of p. 169), and the fourth-order continuous extension of their code DOPRI5 (dense
 * output, Section II.6), so that the solution at many output times costs no extra steps.
 *
 * The local error estimate err = y5 - y4 is measured in the scaled RMS norm of eq. (4.11),
 * sc_i = atol + rtol max(|y_i|, |y1_i|), over the first `errorComponents` components only (all
 * by default). Leaving trailing components out of the norm lets them ride on the step sequence
 * that the leading ones choose: the sensitivity equations of an ODE model (models/ode/) use this,
 * so that the states -- hence the likelihood -- are one function of the parameters whichever
 * derivatives are asked for, and the sensitivities are the exact derivatives of the discrete
 * solution on that step sequence (internal numerical differentiation, Bock 1981).
 */

/** f(t, y) written into dydt. */
export type OdeRightHandSide = (t: number, y: Float64Array, dydt: Float64Array) => void;

export interface OdeOptions {
  /** Relative tolerance (default 1e-8). */
  rtol?: number;
  /** Absolute tolerance (default 1e-10). */
  atol?: number;
  /** Components 0..errorComponents-1 enter the error norm (default: all). */
  errorComponents?: number;
  /** Give up after this many steps, accepted or rejected (default 100000). */
  maxSteps?: number;
  /** Largest step (default: the whole interval). */
  maxStep?: number;
}

export interface OdeSolution {
  /** y at outputTimes[j] in values[j * dim .. j * dim + dim - 1]. */
  readonly values: Float64Array;
  readonly dim: number;
  /** Accepted and rejected steps, and evaluations of f. */
  readonly acceptedSteps: number;
  readonly rejectedSteps: number;
  readonly evaluations: number;
}

/** The solver could not meet its tolerance (step size underflow, too many steps, a non-finite f). */
export class OdeSolverError extends Error {
  constructor(
    message: string,
    readonly t: number,
  ) {
    super(message);
    this.name = "OdeSolverError";
  }
}

// The Dormand-Prince 5(4) tableau (Hairer, Norsett & Wanner, Table II.5.2).
const C2 = 1 / 5, C3 = 3 / 10, C4 = 4 / 5, C5 = 8 / 9;
const A21 = 1 / 5;
const A31 = 3 / 40, A32 = 9 / 40;
const A41 = 44 / 45, A42 = -56 / 15, A43 = 32 / 9;
const A51 = 19372 / 6561, A52 = -25360 / 2187, A53 = 64448 / 6561, A54 = -212 / 729;
const A61 = 9017 / 3168, A62 = -355 / 33, A63 = 46732 / 5247, A64 = 49 / 176, A65 = -5103 / 18656;
const A71 = 35 / 384, A73 = 500 / 1113, A74 = 125 / 192, A75 = -2187 / 6784, A76 = 11 / 84;
// y5 - y4 (the error estimate's weights)
const E1 = 71 / 57600, E3 = -71 / 16695, E4 = 71 / 1920, E5 = -17253 / 339200, E6 = 22 / 525, E7 = -1 / 40;
// the dense output of DOPRI5 (Hairer's contd5 coefficients)
const D1 = -12715105075 / 11282082432, D3 = 87487479700 / 32700410799, D4 = -10690763975 / 1880347072;
const D5 = 701980252875 / 199316789632, D6 = -1453857185 / 822651844, D7 = 69997945 / 29380423;

const SAFETY = 0.9;
const FAC_MIN = 0.2;
const FAC_MAX = 10;

/** Reusable work arrays for one dimension (a solver called in a loop allocates nothing per call but its result). */
export class DormandPrinceWorkspace {
  readonly k: Float64Array[];
  readonly y: Float64Array;
  readonly y1: Float64Array;
  readonly stage: Float64Array;
  readonly err: Float64Array;
  readonly cont: Float64Array[];
  constructor(readonly dim: number) {
    this.k = Array.from({ length: 7 }, () => new Float64Array(dim));
    this.y = new Float64Array(dim);
    this.y1 = new Float64Array(dim);
    this.stage = new Float64Array(dim);
    this.err = new Float64Array(dim);
    this.cont = Array.from({ length: 5 }, () => new Float64Array(dim));
  }
}

function scaledNorm(v: Float64Array, y: Float64Array, y1: Float64Array, m: number, atol: number, rtol: number): number {
  let s = 0;
  for (let i = 0; i < m; i++) {
    const sc = atol + rtol * Math.max(Math.abs(y[i]), Math.abs(y1[i]));
    const r = v[i] / sc;
    s += r * r;
  }
  return Math.sqrt(s / m);
}

/** Hairer, Norsett & Wanner's starting step (Section II.4, p. 169), for an order-5 method. */
function initialStep(f: OdeRightHandSide, t0: number, ws: DormandPrinceWorkspace, f0: Float64Array, m: number, atol: number, rtol: number, hMax: number, direction: number): number {
  const { y, y1, stage } = ws;
  const d0 = scaledNorm(y, y, y, m, atol, rtol);
  const d1 = scaledNorm(f0, y, y, m, atol, rtol);
  let h0 = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * (d0 / d1);
  h0 = Math.min(h0, hMax);
  for (let i = 0; i < ws.dim; i++) y1[i] = y[i] + direction * h0 * f0[i];
  f(t0 + direction * h0, y1, stage);
  for (let i = 0; i < ws.dim; i++) stage[i] -= f0[i];
  const d2 = scaledNorm(stage, y, y, m, atol, rtol) / h0;
  const h1 = Math.max(d1, d2) <= 1e-15 ? Math.max(1e-6, h0 * 1e-3) : Math.pow(0.01 / Math.max(d1, d2), 1 / 5);
  return Math.min(100 * h0, h1, hMax);
}

/**
 * Solves y' = f(t, y), y(t0) = y0 and returns y at each of `outputTimes` (non-decreasing, none
 * before t0). Throws OdeSolverError when the tolerance cannot be met.
 */
export function solveDormandPrince(f: OdeRightHandSide, t0: number, y0: ArrayLike<number>, outputTimes: ArrayLike<number>, options: OdeOptions = {}, workspace?: DormandPrinceWorkspace): OdeSolution {
  const n = y0.length;
  const rtol = options.rtol ?? 1e-8;
  const atol = options.atol ?? 1e-10;
  const m = options.errorComponents ?? n;
  const maxSteps = options.maxSteps ?? 100000;
  if (!(rtol > 0) || !(atol >= 0)) throw new RangeError(`dormand-prince: tolerances must be positive, got rtol ${rtol}, atol ${atol}`);
  if (!Number.isInteger(m) || m < 1 || m > n) throw new RangeError(`dormand-prince: errorComponents must be 1..${n}, got ${m}`);
  const nOut = outputTimes.length;
  for (let j = 0; j < nOut; j++) {
    if (!(outputTimes[j] >= (j === 0 ? t0 : outputTimes[j - 1]))) throw new RangeError(`dormand-prince: output time ${j + 1} (${outputTimes[j]}) is before ${j === 0 ? "t0" : "the one before it"}`);
  }
  const ws = workspace && workspace.dim === n ? workspace : new DormandPrinceWorkspace(n);
  const { k, y, y1, stage, err, cont } = ws;
  const [k1, k2, k3, k4, k5, k6, k7] = k;
  const values = new Float64Array(nOut * n);
  y.set(y0 as ArrayLike<number>);
  let out = 0;
  while (out < nOut && outputTimes[out] === t0) values.set(y, n * out++);
  const tEnd = nOut > 0 ? outputTimes[nOut - 1] : t0;
  let evaluations = 0;
  let accepted = 0;
  let rejected = 0;
  if (out === nOut) return { values, dim: n, acceptedSteps: 0, rejectedSteps: 0, evaluations };

  const hMax = Math.min(options.maxStep ?? Infinity, tEnd - t0);
  let t = t0;
  f(t, y, k1);
  evaluations++;
  let h = initialStep(f, t0, ws, k1, m, atol, rtol, hMax, 1);
  evaluations++;
  let lastRejected = false;
  for (;;) {
    if (accepted + rejected >= maxSteps) throw new OdeSolverError(`dormand-prince: more than ${maxSteps} steps before t = ${tEnd} (reached t = ${t})`, t);
    if (!(h > 1e-14 * Math.max(1, Math.abs(t)))) throw new OdeSolverError(`dormand-prince: step size ${h} too small at t = ${t}`, t);
    // stretch the step by up to 1% rather than leave a sliver of the interval for a last step
    const last = t + 1.01 * h >= tEnd;
    if (last) h = tEnd - t;
    for (let i = 0; i < n; i++) stage[i] = y[i] + h * A21 * k1[i];
    f(t + C2 * h, stage, k2);
    for (let i = 0; i < n; i++) stage[i] = y[i] + h * (A31 * k1[i] + A32 * k2[i]);
    f(t + C3 * h, stage, k3);
    for (let i = 0; i < n; i++) stage[i] = y[i] + h * (A41 * k1[i] + A42 * k2[i] + A43 * k3[i]);
    f(t + C4 * h, stage, k4);
    for (let i = 0; i < n; i++) stage[i] = y[i] + h * (A51 * k1[i] + A52 * k2[i] + A53 * k3[i] + A54 * k4[i]);
    f(t + C5 * h, stage, k5);
    for (let i = 0; i < n; i++) stage[i] = y[i] + h * (A61 * k1[i] + A62 * k2[i] + A63 * k3[i] + A64 * k4[i] + A65 * k5[i]);
    const tNew = last ? tEnd : t + h;
    f(tNew, stage, k6);
    for (let i = 0; i < n; i++) y1[i] = y[i] + h * (A71 * k1[i] + A73 * k3[i] + A74 * k4[i] + A75 * k5[i] + A76 * k6[i]);
    f(tNew, y1, k7);
    evaluations += 6;
    for (let i = 0; i < n; i++) err[i] = h * (E1 * k1[i] + E3 * k3[i] + E4 * k4[i] + E5 * k5[i] + E6 * k6[i] + E7 * k7[i]);
    const e = scaledNorm(err, y, y1, m, atol, rtol);
    if (!Number.isFinite(e)) {
      // a blow-up inside the step: retry smaller, as for a large error
      rejected++;
      lastRejected = true;
      h *= FAC_MIN;
      continue;
    }
    const fac = e === 0 ? FAC_MAX : Math.min(lastRejected ? 1 : FAC_MAX, Math.max(FAC_MIN, SAFETY * Math.pow(e, -1 / 5)));
    if (e > 1) {
      rejected++;
      lastRejected = true;
      h *= fac;
      continue;
    }
    accepted++;
    lastRejected = false;
    // dense output on [t, tNew] (DOPRI5's contd5): y(t + theta h) for theta in [0, 1]
    if (out < nOut && outputTimes[out] <= tNew) {
      const [r1, r2, r3, r4, r5] = cont;
      for (let i = 0; i < n; i++) {
        const ydiff = y1[i] - y[i];
        const bspl = h * k1[i] - ydiff;
        r1[i] = y[i];
        r2[i] = ydiff;
        r3[i] = bspl;
        r4[i] = ydiff - h * k7[i] - bspl;
        r5[i] = h * (D1 * k1[i] + D3 * k3[i] + D4 * k4[i] + D5 * k5[i] + D6 * k6[i] + D7 * k7[i]);
      }
      while (out < nOut && outputTimes[out] <= tNew) {
        const to = outputTimes[out];
        const base = n * out++;
        if (to === tNew) {
          values.set(y1, base);
          continue;
        }
        const th = (to - t) / h;
        const th1 = 1 - th;
        for (let i = 0; i < n; i++) values[base + i] = r1[i] + th * (r2[i] + th1 * (r3[i] + th * (r4[i] + th1 * r5[i])));
      }
    }
    y.set(y1);
    k1.set(k7);
    t = tNew;
    if (last || out === nOut) break;
    h = Math.min(h * fac, hMax);
  }
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) throw new OdeSolverError("dormand-prince: the solution is not finite", t);
  return { values, dim: n, acceptedSteps: accepted, rejectedSteps: rejected, evaluations };
}
