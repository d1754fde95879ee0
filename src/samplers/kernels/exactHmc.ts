/**
 * Exact HMC for GP probit classification (Pakman & Paninski 2014, "Exact Hamiltonian Monte Carlo
 * for truncated multivariate Gaussians"), on the representation of Albert & Chib: with
 * z = f + e, e ~ N(0, I) and y_i = sign(z_i), the probit model p(y_i | f_i) = Phi(y_i f_i) is the
 * marginal of (f, z), and
 *   z | y  ~  N(0, C), C = K + I, truncated to the orthant { y_i z_i > 0 for all i },
 *   f | z  ~  N(Sigma z, Sigma), Sigma = (K^-1 + I)^-1 = K (K + I)^-1 (independent of y given z).
 * A transition from f draws z | f, y (independent normals truncated to y_i z_i > 0), moves z by
 * one exact HMC trajectory on its truncated Gaussian, and draws f | z afresh. If f ~ p(f | y), the
 * drawn z has p(z | y); the trajectory keeps that law; and f' | z' then has p(f | y) again: the
 * transition is a kernel on f alone, which leaves p(f | y) invariant from whatever state it is
 * started (as the joint schemes with sampled hyperparameters start it, from f, at each update).
 *
 * The trajectory. In whitened coordinates x = L^-1 z (C = L L') the Hamiltonian is
 * |x|^2/2 + |v|^2/2 and the free motion is x(t) = v(0) sin t + x(0) cos t (Pakman & Paninski,
 * eq. 2.9-2.10). Multiplying by L, the motion is written in z itself, z(t) = A sin t + B cos t with
 * A = L v(0) ~ N(0, C) and B = z(0), so L is never needed: A is drawn as L_K a1 + a2 (a1, a2 standard
 * normal), which has covariance K + I. Wall i, y_i z_i = 0, is reached when
 *   y_i A_i sin t + y_i B_i cos t = u_i cos(t - phi_i),  phi_i = atan2(y_i A_i, y_i B_i),
 * falls through zero, at t_i = pi/2 + phi_i (their eq. 2.22-2.26; y_i B_i >= 0 puts phi_i in
 * [-pi/2, pi/2], so t_i lies in [0, pi]). At the first wall hit the velocity is reflected in the
 * wall's normal: in x, v' = v - 2 (F_j v / |F_j|^2) F_j' with F_j = y_j L_{j,:} (their eq. 2.27);
 * in z, w = L v, this is w' = w - 2 (w_j / C_jj) C_{:,j}, since L L_{j,:}' = C_{:,j} and
 * |F_j|^2 = C_jj. Each wall hit thus costs O(n) (one column of C and a search over the n walls),
 * and the O(n^2) work per transition is the draw of A, that of f | z and f's log density.
 *
 * Energy is conserved exactly, so nothing is rejected and there is no step size. The travel time
 * is pi/2 (Pakman & Paninski's choice: without walls it maps the start to an independent draw).
 * f | z is drawn as f = R (R' z + xi), xi ~ N(0, I), with R R' = Sigma the one O(n^3)
 * factorisation (`priorPlusDiagonalInverseCholesky` with W = I; K^-1 is never formed).
 *
 * A transition's per-draw statistic n_leapfrog__ counts the pieces of its trajectory (walls hit
 * plus one): the analytic segments stand where a leapfrog integrator's steps would.
 */
import { backendFor } from "../../linalg/cholesky.js";
import { opCounts } from "../../linalg/counters.js";
import { symmetricFromLower } from "../../linalg/symmetricFromLower.js";
import type { RandomSource } from "../../random/types.js";
import { priorPlusDiagonalInverseCholesky } from "./hmcGp.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import { requirePriorSplit, type LatentGpTarget } from "../latentTarget.js";
import type { Kernel, SamplerState, StepInfo } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** Wall hits after which a trajectory is abandoned as a numerical failure (the chain stays put). */
const MAX_WALL_HITS = 100000;

export interface ExactHmcOptions {
  /** The trajectory's duration (default pi/2). */
  travelTime?: number;
  /**
   * Test-only negative controls: "euclidean-reflection" reflects w by flipping w_j alone (the
   * reflection in z's own coordinates, not in the whitened ones, which changes |v|);
   * "f-mean-only" sets f to its conditional mean Sigma z without its noise.
   * @internal
   */
  broken?: FaultOf<"exact-hmc">;
}

/** Throws unless the target is a GP probit posterior whose truncated-Gaussian form exact-hmc samples. */
export function requireProbit(target: LatentGpTarget, sampler: string): void {
  requirePriorSplit(target, sampler);
  if (target.likelihood.name !== "probit") {
    throw new RangeError(`${sampler}: applies only to the probit likelihood (y_i = sign(f_i + e_i)), not ${target.likelihood.name}`);
  }
  if (target.beta !== 1) throw new RangeError(`${sampler}: needs the posterior itself (beta = 1), not an annealed target (beta = ${target.beta})`);
}

export function exactHmc(target: LatentGpTarget, options: ExactHmcOptions = {}): Kernel<SamplerState> {
  requireProbit(target, "exact-hmc");
  const n = target.dim;
  const y = target.y;
  const travelTime = options.travelTime ?? Math.PI / 2;
  if (!(travelTime > 0) || !Number.isFinite(travelTime)) throw new RangeError(`exact-hmc: travelTime must be positive and finite, got ${travelTime}`);
  const broken = options.broken;
  const lk = target.kernelCholesky.factor.data;
  // C = K + I in full (K's lower triangle mirrored), for its columns at wall hits.
  const c = symmetricFromLower(target.kernelMatrix).data;
  for (let i = 0; i < n; i++) c[i + i * n] += 1;
  const r = priorPlusDiagonalInverseCholesky(target.kernelCholesky, new Float64Array(n).fill(1)).factor.data;
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  const noise = new Float64Array(n);
  const scratch = new Float64Array(n);
  const be = backendFor(n);

  /** out <- M x or M' x for an n x n factor M (its strictly upper triangle zero), through BLAS. */
  function product(trans: "N" | "T", m: Float64Array, x: Float64Array, out: Float64Array): void {
    opCounts.flops += 2 * n * n;
    be.gemv(trans, n, n, 1, m, n, x, 0, out);
  }

  /** f ~ N(Sigma z, Sigma) as R (R' z + xi). */
  function drawLatent(z: Float64Array, rng: RandomSource): Float64Array {
    product("T", r, z, noise);
    if (broken !== "f-mean-only") for (let i = 0; i < n; i++) noise[i] += rng.normal();
    else rng.fillNormal(scratch);
    const f = new Float64Array(n);
    product("N", r, noise, f);
    return f;
  }

  function init(x0: Float64Array): SamplerState {
    const position = initialPosition("exact-hmc", x0, n);
    return { position, logDensity: finiteInitialLogDensity("exact-hmc", target.logDensity(position)) };
  }

  /** b <- z ~ p(z | f, y): z_i = f_i + e_i, e_i standard normal truncated to y_i (f_i + e_i) > 0. */
  function drawAuxiliary(f: Float64Array, rng: RandomSource): void {
    for (let i = 0; i < n; i++) {
      b[i] = f[i] + (y[i] > 0 ? rng.truncatedNormal(-f[i], Infinity) : rng.truncatedNormal(-Infinity, -f[i]));
    }
  }

  /** Moves b (position) and a (velocity) along the free motion for time t. */
  function advance(t: number): void {
    const s = Math.sin(t);
    const co = Math.cos(t);
    for (let i = 0; i < n; i++) {
      const ai = a[i];
      const bi = b[i];
      b[i] = ai * s + bi * co;
      a[i] = ai * co - bi * s;
    }
  }

  /*
   * The wall search. Hit times t_i = pi/2 + phi_i lie in [0, pi], where cos is decreasing, so the
   * earliest wall has the largest cos t_i = -sin(phi_i) = -y_i A_i / u_i: the search compares
   * those (a square root each), keeps walls hit before the horizon (cos t_i > cos(horizon)), and
   * takes one atan2, for the wall found. A wall the motion leaves (y_i A_i >= 0) is hit no sooner
   * than pi/2, so it is skipped when the horizon is at most pi/2.
   */
  let best = 0;
  let found = -1;
  function consider(i: number, ga: number, gb: number): void {
    if (ga >= 0 && best >= 0) return;
    const cosT = -ga / Math.sqrt(ga * ga + gb * gb);
    if (cosT > best && cosT < 1) {
      best = cosT;
      found = i;
    }
  }

  /** The first wall the motion from (b, a) falls through before `horizon` (<= pi), or -1. */
  function firstWall(horizon: number): number {
    best = Math.cos(horizon);
    found = -1;
    for (let i = 0; i < n; i++) consider(i, y[i] * a[i], y[i] * b[i]);
    return found;
  }

  const hitTime = (wall: number) => Math.PI / 2 + Math.atan2(y[wall] * a[wall], y[wall] * b[wall]);

  /**
   * Moves to wall j's hit at time t, reflects the velocity there (w' = w - 2 (w_j / C_jj) C_{:,j})
   * and searches the next wall before `horizon`, in one pass over the coordinates.
   */
  function bounce(j: number, t: number, horizon: number): number {
    const s = Math.sin(t);
    const co = Math.cos(t);
    const aj = a[j] * co - b[j] * s;
    const euclidean = broken === "euclidean-reflection";
    const k = euclidean ? 0 : (2 * aj) / c[j + j * n];
    const col = j * n;
    best = Math.cos(horizon);
    found = -1;
    for (let i = 0; i < n; i++) {
      const ai = a[i];
      const bi = b[i];
      const nb = i === j ? 0 : ai * s + bi * co;
      const na = euclidean && i === j ? -aj : ai * co - bi * s - k * c[col + i];
      b[i] = nb;
      a[i] = na;
      const yi = y[i];
      consider(i, yi * na, yi * nb);
    }
    return found;
  }

  function step(state: SamplerState, rng: RandomSource): { state: SamplerState; info: StepInfo } {
    // the velocity A = L_K a1 + a2 ~ N(0, K + I)
    rng.fillNormal(scratch);
    product("N", lk, scratch, a);
    for (let i = 0; i < n; i++) a[i] += rng.normal();
    drawAuxiliary(state.position, rng);
    let remaining = travelTime;
    let hits = 0;
    // a draw of z that rounding put on a wall (f_i far on the wrong side) cannot start a trajectory
    let failed = false;
    for (let i = 0; i < n && !failed; i++) failed = !(y[i] * b[i] > 0);
    let horizon = Math.min(remaining, Math.PI);
    let wall = firstWall(horizon);
    while (remaining > 0 && !failed) {
      const time = wall < 0 ? Infinity : hitTime(wall);
      if (!(time < horizon)) {
        // no wall before the horizon: move there (pieces of at most pi keep the search's cosines monotone)
        advance(horizon);
        remaining -= horizon;
        horizon = Math.min(remaining, Math.PI);
        if (remaining > 0) wall = firstWall(horizon);
        continue;
      }
      remaining -= time;
      horizon = Math.min(remaining, Math.PI);
      wall = bounce(wall, time, horizon);
      if (++hits > MAX_WALL_HITS) {
        failed = true;
        break;
      }
    }
    for (let i = 0; i < n && !failed; i++) failed = !(y[i] * b[i] > 0);
    const info: StepInfo = {
      accepted: !failed,
      acceptanceProbability: failed ? 0 : 1,
      divergent: failed,
      energy: NaN,
      energyError: NaN,
      stepSize: NaN,
      leapfrogSteps: hits + 1,
      gradientCalls: 0,
      metricCalls: 0,
      fixedPointIterations: 0,
      divergence: failed ? "numerical-error" : undefined,
    };
    if (failed) return { state, info };
    const position = drawLatent(b, rng);
    return { state: { position, logDensity: target.logDensity(position) }, info };
  }

  return { name: "exact-hmc", init, step };
}
