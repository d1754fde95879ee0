/**
 * HMC's dynamics in Laplace-whitened coordinates u (f = R u, R R' = Sigma = (K^-1 + W)^-1,
 * identity mass; laplaceWhitening.ts) carried out in the latent coordinates, at one symmetric
 * matrix-vector product with Sigma per step instead of two products with R. Two integrators:
 *
 * "leapfrog". With a = beta d log p(y | f)/df + W f, the gradient in u is R' a - u. Multiplying
 *   p += e/2 (R' a - u),  u += e p,  p += e/2 (R' a - u)
 * by R, and by R^-T, gives the same steps on v = R p, f = R u and on s = R^-T p, q = R^-T u = Sigma^-1 f:
 *   v += e/2 (Sigma a - f),   f += e v,   (R R' = Sigma, R u = f)
 *   s += e/2 (a - q),         q += e s,   (R^-T R' = I, R^-T u = q)
 * In exact arithmetic this is the leapfrog of laplaceHmc.ts.
 *
 * "split" (the default; Neal 2011, "MCMC using Hamiltonian dynamics", Section 5.1; Shahbaba, Lan,
 * Johnson & Neal 2014, "Split Hamiltonian Monte Carlo"). With c a centre (the whitening
 * Gaussian's mean: EP's mean or Laplace's mode) and m = R^-1 c,
 *   log p(u) = -|u - m|^2 / 2 + [lik(f) - m' u] + const,
 * whose Gaussian part moves (u - m, p) on circles: its flow for a time e is a rotation by the
 * angle e, solved exactly. Only the bracket's gradient R' a - m kicks the momentum, half a step
 * before the rotation and half after. Where f | y is close to the whitening Gaussian the bracket
 * varies slowly and a step can be longer for the same energy error (BENCHMARKS.md, "laplace-nuts
 * with the split integrator"). Kicks and rotations preserve volume, and the composition
 * is symmetric, so the step is reversible (a negative e runs it backwards) and NUTS stays exact.
 * In latent coordinates, with qc = Sigma^-1 c:
 *   v += e/2 (Sigma a - c),                      s += e/2 (a - qc)
 *   (f - c, v) <- rotated by e: f - c <- (f - c) cos e + v sin e,  v <- v cos e - (f - c) sin e
 *   (q - qc, s) <- rotated by e, the same
 *   v += e/2 (Sigma a - c),                      s += e/2 (a - qc)   (a at the new f)
 *
 * Either way a step costs one product Sigma a (BLAS symv, reading one triangle: 2-6 times faster
 * than the two gemv with R at n = 100-1214 on this machine) and O(n) work. The energies need no
 * solve: |u|^2 = f' q and |p|^2 = v' s, and the no-U-turn criterion's p_a' (sum p) = s_a' (sum v).
 * Each transition starts from q = Sigma^-1 f computed afresh and draws p = z ~ N(0, I) as
 * v = R z, s = R^-T z, so rounding in q and s does not accumulate across transitions. Sigma^-1 =
 * R^-T R^-1 and R^-1 are formed once (O(n^3)), so that the start is one symv and two gemv: three
 * triangular solves took it 2.5 times as long at n = 100 (BLAS trsv, 1.6-2.9 us each against
 * 1.0-1.1 for symv and gemv). The states are f.
 */
import { backendFor } from "../../linalg/cholesky.js";
import { opCounts } from "../../linalg/counters.js";
import { invertLowerTriangularInPlace } from "../../linalg/triangular.js";
import type { RandomSource } from "../../random/types.js";
import type { LaplaceWhitening } from "../kernels/laplaceWhitening.js";
import type { LatentGpTarget } from "../latentTarget.js";
import type { Dynamics, PhasePoint } from "./dynamics.js";
import { dot } from "./kineticEnergy.js";
import type { SamplerState } from "../types.js";
import { packNumbers } from "../../math/packNumbers.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** A chain state in f, with what a transition from it reuses. */
export interface LaplaceState extends SamplerState {
  /** beta log p(y | f) + f' W f / 2 (log p(u) = lik - |u|^2 / 2). */
  readonly lik: number;
  /** a = beta d log p(y | f)/df + W f. */
  readonly a: Float64Array;
  /** Sigma a - f = R (R' a - u), the gradient in u mapped by R. */
  readonly gv: Float64Array;
}

/** A point of phase space in latent coordinates (module comment). */
interface LaplacePoint extends PhasePoint {
  f: Float64Array;
  q: Float64Array;
  v: Float64Array;
  s: Float64Array;
  a: Float64Array;
  gv: Float64Array;
  lik: number;
  /** |p|^2 / 2 = v' s / 2, summed where v and s are last written. */
  kinetic: number;
}

/** A checkpoint of a state: its numbers with the constant `offset` (f alone does not give q's rounding, nor the constant, back bit for bit). */
export interface LaplaceStateSnapshot {
  saveState(state: LaplaceState): Float64Array;
  restoreState(saved: Float64Array): LaplaceState;
}

/** The integrators of the module comment. */
export type LaplaceIntegrator = "split" | "leapfrog";
export const LAPLACE_INTEGRATORS: readonly LaplaceIntegrator[] = ["split", "leapfrog"];

export interface LaplaceDynamicsOptions {
  /** Default "split". */
  integrator?: LaplaceIntegrator;
  /** The split's centre c (default 0): any c leaves the dynamics exact; the whitening Gaussian's mean makes the bracket smallest. */
  center?: ArrayLike<number>;
  /**
   * Test-only negative controls: "center-precision" rotates q about c instead of Sigma^-1 c, so that
   * q drifts from Sigma^-1 f inside a trajectory and the energies are wrong; "kick-before" kicks a
   * whole step before the rotation and none after, which is not reversible.
   * @internal
   */
  broken?: FaultOf<"laplace-dynamics">;
}

/** The dynamics of the module comment on `whitening` of `target`, for nuts.ts's `nutsOn`. */
export function laplaceDynamics(target: LatentGpTarget, whitening: LaplaceWhitening, options: LaplaceDynamicsOptions = {}): Dynamics<LaplacePoint, LaplaceState> & LaplaceStateSnapshot {
  const n = target.dim;
  const be = backendFor(n);
  const r = whitening.factor.factor.data;
  // Sigma = R R' on the lower triangle (one O(n^3) product, once).
  const sigma = new Float64Array(n * n);
  opCounts.flops += n * n * n;
  be.syrk("L", "N", n, n, 1, r, n, 0, sigma, n);
  // R^-1 (zero above the diagonal, as R) and Sigma^-1 = R^-T R^-1 on the lower triangle.
  const rInverse = r.slice();
  invertLowerTriangularInPlace(n, rInverse, n);
  const precision = new Float64Array(n * n);
  opCounts.flops += n * n * n;
  be.syrk("L", "T", n, n, 1, rInverse, n, 0, precision, n);
  const draws = new Float64Array(n); // z of a transition's momentum
  const split = (options.integrator ?? "split") === "split";
  if (!split && options.integrator !== "leapfrog") throw new RangeError(`laplace-nuts: integrator must be "split" or "leapfrog", not ${String(options.integrator)}`);
  // The split's centre c and qc = Sigma^-1 c.
  const c = new Float64Array(n);
  if (options.center) {
    if (options.center.length !== n) throw new RangeError(`laplace-nuts: the centre has ${options.center.length} entries, the target dimension is ${n}`);
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(options.center[i])) throw new RangeError(`laplace-nuts: the centre's entry ${i} is ${options.center[i]}`);
      c[i] = options.center[i];
    }
  }
  const qc = new Float64Array(n);
  const kickBefore = options.broken === "kick-before";
  if (options.broken === "center-precision") qc.set(c);
  else {
    opCounts.flops += 2 * n * n;
    be.symv("L", n, 1, precision, n, c, 0, qc);
  }
  let offset = NaN; // log p(f) - log p(u), a constant (laplaceWhitening.ts)

  /** gv <- Sigma a (the caller subtracts f). */
  function sigmaProduct(a: Float64Array, gv: Float64Array): void {
    opCounts.flops += 2 * n * n;
    be.symv("L", n, 1, sigma, n, a, 0, gv);
  }

  /** q <- Sigma^-1 f. */
  function exactQ(f: Float64Array, q: Float64Array): void {
    opCounts.flops += 2 * n * n;
    be.symv("L", n, 1, precision, n, f, 0, q);
  }

  // One literal, so that every point has the same hidden class (the leapfrog's loops stay monomorphic).
  function newPoint(): LaplacePoint {
    const z = () => new Float64Array(n);
    return { lp: NaN, lik: NaN, kinetic: NaN, f: z(), q: z(), v: z(), s: z(), a: z(), gv: z() };
  }

  function stateAt(f: Float64Array, lik: number, lp: number, a: Float64Array, gv: Float64Array): LaplaceState {
    // One backing store for the three arrays (one allocation per transition, not three).
    const buf = new Float64Array(3 * n);
    buf.set(f);
    buf.set(a, n);
    buf.set(gv, 2 * n);
    return { position: buf.subarray(0, n), logDensity: lp + offset, lik, a: buf.subarray(n, 2 * n), gv: buf.subarray(2 * n) };
  }

  // What `state` and `energy` read: a sampled point is never moved on from.
  function copyState(from: LaplacePoint, to: LaplacePoint): void {
    to.f.set(from.f);
    to.a.set(from.a);
    to.gv.set(from.gv);
    to.lp = from.lp;
    to.lik = from.lik;
    to.kinetic = from.kinetic;
  }

  /** At a step's new f (with fq = f' q): the likelihood's terms, log p(u) and gv <- Sigma a (the caller subtracts f). */
  function evaluate(pt: LaplacePoint, fq: number): void {
    pt.lik = whitening.likelihoodTerms(pt.f, pt.a);
    pt.lp = pt.lik - 0.5 * fq;
    sigmaProduct(pt.a, pt.gv);
  }

  // The split step of the module comment; gv holds Sigma a - f, so Sigma a - c = gv + f - c.
  function splitStep(pt: LaplacePoint, eps: number): void {
    const { f, q, v, s, a, gv } = pt;
    const h = kickBefore ? eps : 0.5 * eps;
    const cos = Math.cos(eps);
    const sin = Math.sin(eps);
    let fq = 0;
    for (let i = 0; i < n; i++) {
      const vi = v[i] + h * (gv[i] + f[i] - c[i]);
      const si = s[i] + h * (a[i] - qc[i]);
      const df = f[i] - c[i];
      const dq = q[i] - qc[i];
      const fi = c[i] + (df * cos + vi * sin);
      const qi = qc[i] + (dq * cos + si * sin);
      v[i] = vi * cos - df * sin;
      s[i] = si * cos - dq * sin;
      f[i] = fi;
      q[i] = qi;
      fq += fi * qi;
    }
    evaluate(pt, fq);
    let vs = 0;
    const h2 = kickBefore ? 0 : h;
    for (let i = 0; i < n; i++) {
      const gi = gv[i] - f[i];
      gv[i] = gi;
      const vi = v[i] + h2 * (gi + f[i] - c[i]);
      const si = s[i] + h2 * (a[i] - qc[i]);
      v[i] = vi;
      s[i] = si;
      vs += vi * si;
    }
    pt.kinetic = 0.5 * vs;
  }

  return {
    dim: n,
    newPoint,
    copy(from, to) {
      copyState(from, to);
      to.q.set(from.q);
      to.v.set(from.v);
      to.s.set(from.s);
    },
    copyState,
    start(state: LaplaceState, rng: RandomSource, pt) {
      const { f, q, v, s } = pt;
      f.set(state.position);
      exactQ(f, q);
      pt.a.set(state.a);
      pt.gv.set(state.gv);
      pt.lik = state.lik;
      pt.lp = state.lik - 0.5 * dot(f, q);
      // p = z ~ N(0, I): v = R z, s = R^-T z.
      for (let i = 0; i < n; i++) draws[i] = rng.normal();
      opCounts.flops += 4 * n * n;
      be.gemv("N", n, n, 1, r, n, draws, 0, v);
      be.gemv("T", n, n, 1, rInverse, n, draws, 0, s);
      pt.kinetic = 0.5 * dot(v, s);
    },
    // The loops are fused (one pass over the arrays per half step); every sum runs over i in
    // order, so the numbers are those of separate loops.
    step(pt, eps) {
      if (split) return splitStep(pt, eps);
      const { f, q, v, s, a, gv } = pt;
      const h = 0.5 * eps;
      let fq = 0;
      for (let i = 0; i < n; i++) {
        const vi = v[i] + h * gv[i];
        const si = s[i] + h * (a[i] - q[i]);
        const fi = f[i] + eps * vi;
        const qi = q[i] + eps * si;
        v[i] = vi;
        s[i] = si;
        f[i] = fi;
        q[i] = qi;
        fq += fi * qi;
      }
      evaluate(pt, fq);
      let vs = 0;
      for (let i = 0; i < n; i++) {
        const gi = gv[i] - f[i];
        gv[i] = gi;
        const vi = v[i] + h * gi;
        const si = s[i] + h * (a[i] - q[i]);
        v[i] = vi;
        s[i] = si;
        vs += vi * si;
      }
      pt.kinetic = 0.5 * vs;
    },
    energy: (pt) => -pt.lp + pt.kinetic,
    momentum: (pt) => pt.v,
    sharp: (pt) => pt.s,
    state: (pt) => stateAt(pt.f, pt.lik, pt.lp, pt.a, pt.gv),
    init(x0) {
      if (x0.length !== n) throw new RangeError(`laplace-nuts: the initial point has ${x0.length} entries, the target dimension is ${n}`);
      const pt = newPoint();
      pt.f.set(x0);
      exactQ(pt.f, pt.q);
      const lik = whitening.likelihoodTerms(pt.f, pt.a);
      const lp = lik - 0.5 * dot(pt.f, pt.q);
      if (!Number.isFinite(lp)) throw new RangeError(`laplace-nuts: the log density at the initial point is ${lp}`);
      sigmaProduct(pt.a, pt.gv);
      for (let i = 0; i < n; i++) pt.gv[i] -= pt.f[i];
      offset = target.logDensity(pt.f) - lp;
      return stateAt(pt.f, lik, lp, pt.a, pt.gv);
    },
    // [offset, log density, lik, f, a, gv]
    saveState: (state) => packNumbers([[offset, state.logDensity, state.lik], state.position, state.a, state.gv]),
    restoreState(saved) {
      if (saved.length !== 3 + 3 * n) throw new RangeError(`laplace-nuts: a saved state has ${3 + 3 * n} numbers, got ${saved.length}`);
      offset = saved[0];
      return { position: saved.slice(3, 3 + n), logDensity: saved[1], lik: saved[2], a: saved.slice(3 + n, 3 + 2 * n), gv: saved.slice(3 + 2 * n) };
    },
  };
}
