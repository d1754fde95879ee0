/**
 * Riemannian manifold Lagrangian Monte Carlo (Lan, Stathopoulos, Shahbaba & Girolami 2015,
 * "Markov chain Monte Carlo from Lagrangian dynamics", J. Comput. Graph. Stat. 24, Section 3):
 * RMHMC's target and metric with an integrator that has no implicit equation, for metrics
 *
 *   G(x) = K^-1 + diag(D(x)),   D_n a function of x_n alone
 *
 * (the latent GP target's, note eq. 16: D = beta Lambda(x) (+ (1 - beta) tau), dD_n/dx_n = dg_n).
 *
 * Why. The generalised leapfrog's momentum equation (note eq. 13) is quadratic in the unknown
 * momentum, and at a given step it can lack a root near the start: RMHMC then rejects the
 * trajectory as divergent (rmhmc.ts). Here the dynamics are written in the velocity v = G^-1 p,
 *
 *   dx/dt = v,   dv/dt = -Gamma(x)(v, v) - G^-1 grad phi,   phi = -L + 1/2 log|G|,
 *
 * and each half step splits the quadratic Christoffel term between the old and the new velocity
 * (Lan et al., eqs. 15-17), which makes it linear in the new one. For this metric the Christoffel
 * symbols are Gamma^k_ij = 1/2 delta_ij (G^-1)_ki dg_i, so Omega(x, a) w = Gamma(x)(a, w) is
 * 1/2 G^-1 diag(dg o a) w, and a half step of h = e/2 at x from velocity a is
 *
 *   (G + e/4 diag(dg o a)) v' = G a - e/2 grad phi,                                   (half step)
 *
 * one linear solve with a matrix of the same form K^-1 + diag(m), factorised by the Woodbury
 * step of targets/woodbury.ts when m >= 0. A step is half step, x' = x + e v', half step at x'.
 * G v' follows from the solve without K^-1 (G v' = G a - e/2 grad phi - e/4 dg o a o v'), and
 * G(x') v' = G(x) v' + (D(x') - D(x)) o v', so K^-1 is never applied.
 *
 * The map is reversible (negating the final velocity and integrating again returns to the start,
 * because Omega(x, a) b is symmetric in a and b) but does not preserve volume: the half step's
 * Jacobian is det(I - h Omega(x, v')) / det(I + h Omega(x, a)) = |K^-1 + diag(d - e/4 dg o v')| /
 * |K^-1 + diag(d + e/4 dg o a)|, and the accept step (Lan et al., Proposition 3.2) is
 *
 *   log u < E(x0, v0) - E(xL, vL) + sum log|Jacobian|,   E(x, v) = -L(x) - 1/2 log|G(x)| + 1/2 v' G(x) v,
 *
 * E being H(x, G v) less log|G|, the density of (x, v) when p ~ N(0, G). The reverse
 * trajectory factorises exactly the matrices the forward one does (the roles of the two in each
 * half step swap), so a trajectory that meets one it cannot factorise (a negative m_n, where the
 * Woodbury step needs m >= 0) is rejected from either end alike: the set of trajectories that
 * are integrated is closed under reversal, which keeps detailed balance (reported as divergence
 * "numerical-error", as a target's numerical failure is). Per leapfrog step: four factorisations
 * of I + S K S and the geometry at the new position (another, and the trace term), O(n^3).
 */
import type { RandomSource } from "../random/types.js";
import type { AnnealedLatentGeometry, AnnealedLatentTarget } from "../targets/annealedLatent.js";
import { applyWoodburyInverse, factorIdentityPlusScaled } from "../targets/woodbury.js";
import { finiteInitialLogDensity, initialPosition } from "./initialPoint.js";
import { checkPositive, isNumericalFailure, metropolisDecision, newMetropolisOutcome, rejectInto } from "./metropolis.js";
import { checkTrajectoryOptions, leapfrogStepCount, type TrajectoryOptions } from "./trajectoryOptions.js";
import type { DivergenceReason, Kernel, SamplerState, StepInfo, Tunable } from "./types.js";

export interface LagrangianOptions extends TrajectoryOptions {
  /**
   * Test-only negative control: "no-jacobian" drops the log-determinants from the accept step (as
   * if the map preserved volume).
   * @internal
   */
  broken?: "no-jacobian";
}

export interface LagrangianState extends SamplerState {
  readonly geometry: AnnealedLatentGeometry;
}

export interface LagrangianKernel extends Kernel<LagrangianState> {
  readonly tunable: Tunable;
  /**
   * `steps` steps from the state's position with the given velocity (p = G v formed by the
   * metric): the end position and velocity, the sum of the half steps' log-Jacobians, E at both
   * ends, and why it failed, if it did. For checks of the integrator.
   */
  trajectory(state: LagrangianState, velocity: Float64Array, steps: number): {
    position: Float64Array; velocity: Float64Array; logJacobian: number; startEnergy: number; endEnergy: number; failure: DivergenceReason | undefined;
  };
}

class TrajectoryFailure extends Error {
  constructor(readonly reason: DivergenceReason) {
    super(reason);
  }
}

export function lagrangianMc(target: AnnealedLatentTarget, options: LagrangianOptions): LagrangianKernel {
  const n = target.dim;
  const K = target.kernelMatrix.data;
  const stepOptions = checkTrajectoryOptions(options);
  const { targetAcceptance, divergenceThreshold: threshold } = stepOptions;
  const noJacobian = options.broken === "no-jacobian";
  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance };
  const vector = () => new Float64Array(n);
  const factor = new Float64Array(n * n);
  const [s, m, y, v, p, w, gradPhi, zero, u, t] = [vector(), vector(), vector(), vector(), vector(), vector(), vector(), vector(), vector(), vector()];
  const positions: [Float64Array, Float64Array] = [vector(), vector()];
  const decision = newMetropolisOutcome();

  // M = K^-1 + diag(m) = A - U U', A = K^-1 + diag(max(m, 0)) (the Woodbury step), U the columns
  // sqrt(-m_j) e_j of the r indices where m_j < 0: |M| = |A| |C|, C = I_r - U' A^-1 U, and
  // M^-1 = A^-1 + A^-1 U C^-1 U' A^-1 (Woodbury again, rank r). M fails only where C is not
  // positive definite, i.e. where M is not.
  const negative: number[] = [];
  let columns: Float64Array[] = []; // A^-1 U, one column per negative index
  let cFactor = new Float64Array(0);
  const unit = vector();

  /** Factorises M = K^-1 + diag(m) (see above); returns log|M| + log|K| (the constant of logDetMetricUpToConstant). */
  function factorShifted(): number {
    negative.length = 0;
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(m[i])) throw new TrajectoryFailure("non-finite");
      if (m[i] < 0) negative.push(i);
      s[i] = Math.sqrt(Math.max(m[i], 0));
    }
    let logDet = factorIdentityPlusScaled(K, s, n, factor);
    if (Number.isNaN(logDet)) throw new TrajectoryFailure("numerical-error");
    const r = negative.length;
    if (r === 0) return logDet;
    if (columns.length < r) columns = Array.from({ length: r }, (_, k) => columns[k] ?? vector());
    if (cFactor.length < r * r) cFactor = new Float64Array(r * r);
    for (let k = 0; k < r; k++) {
      unit.fill(0);
      unit[negative[k]] = Math.sqrt(-m[negative[k]]);
      applyWoodburyInverse(K, s, factor, n, unit, columns[k], u, t);
    }
    // C = I - U' A^-1 U (r x r, row-major), then its Cholesky factor in place
    for (let a = 0; a < r; a++) for (let b = 0; b < r; b++) cFactor[a * r + b] = (a === b ? 1 : 0) - Math.sqrt(-m[negative[a]]) * columns[b][negative[a]];
    for (let j = 0; j < r; j++) {
      let dj = cFactor[j * r + j];
      for (let k = 0; k < j; k++) dj -= cFactor[j * r + k] * cFactor[j * r + k];
      if (!(dj > 0)) throw new TrajectoryFailure("numerical-error");
      const ljj = Math.sqrt(dj);
      cFactor[j * r + j] = ljj;
      logDet += 2 * Math.log(ljj);
      for (let i = j + 1; i < r; i++) {
        let v2 = cFactor[i * r + j];
        for (let k = 0; k < j; k++) v2 -= cFactor[i * r + k] * cFactor[j * r + k];
        cFactor[i * r + j] = v2 / ljj;
      }
    }
    return logDet;
  }

  /** out <- M^-1 y with the factorisation of the last factorShifted. */
  function solveShifted(yv: Float64Array, out: Float64Array): void {
    applyWoodburyInverse(K, s, factor, n, yv, out, u, t);
    const r = negative.length;
    if (r === 0) return;
    // z = C^-1 U' A^-1 y, then out += A^-1 U z
    const z = new Float64Array(r);
    for (let a = 0; a < r; a++) z[a] = Math.sqrt(-m[negative[a]]) * out[negative[a]];
    for (let i = 0; i < r; i++) {
      let v2 = z[i];
      for (let k = 0; k < i; k++) v2 -= cFactor[i * r + k] * z[k];
      z[i] = v2 / cFactor[i * r + i];
    }
    for (let i = r - 1; i >= 0; i--) {
      let v2 = z[i];
      for (let k = i + 1; k < r; k++) v2 -= cFactor[k * r + i] * z[k];
      z[i] = v2 / cFactor[i * r + i];
    }
    for (let k = 0; k < r; k++) {
      const col = columns[k];
      for (let i = 0; i < n; i++) out[i] += col[i] * z[k];
    }
  }

  /**
   * One half step at geometry `geo` (grad phi in gradPhi) from velocity v with p = G v: solves
   * for the new velocity into v, sets p = G v', and returns the log-Jacobian of the step.
   */
  function halfStep(geo: AnnealedLatentGeometry, eps: number): number {
    const d = geo.metricDiagonalPart;
    const dg = geo.metricDerivativeDiagonal;
    const q = 0.25 * eps;
    for (let i = 0; i < n; i++) {
      m[i] = d[i] + q * dg[i] * v[i];
      y[i] = p[i] - 0.5 * eps * gradPhi[i];
    }
    const logDetPlus = factorShifted();
    solveShifted(y, w); // w = M^-1 y
    for (let i = 0; i < n; i++) {
      p[i] = y[i] - q * dg[i] * v[i] * w[i];
      v[i] = w[i];
      m[i] = d[i] - q * dg[i] * v[i];
    }
    const logDetMinus = factorShifted();
    return logDetMinus - logDetPlus;
  }

  /** E(x, v) = -L - 1/2 log|G| + 1/2 v' p, p = G v (log|G| up to the target's constant). */
  function energy(geo: AnnealedLatentGeometry): number {
    let vp = 0;
    for (let i = 0; i < n; i++) vp += v[i] * p[i];
    return -geo.logDensity - 0.5 * geo.logDetMetricUpToConstant + 0.5 * vp;
  }

  function init(x0: Float64Array): LagrangianState {
    const position = initialPosition("rmhmc", x0, n);
    const geometry = target.geometry(position);
    finiteInitialLogDensity("rmhmc", geometry.logDensity);
    return { position, logDensity: geometry.logDensity, geometry };
  }

  /** What `integrate` leaves: where it ended (x, its geometry; v and p in the kernel's buffers). */
  interface End { x: Float64Array; geo: AnnealedLatentGeometry; logJacobian: number; steps: number; metricCalls: number; failure: DivergenceReason | undefined }

  /** `steps` steps of `eps` from (state, v) with p = G v in the buffers; geometries on the way are released. */
  function integrate(state: LagrangianState, steps: number, eps: number): End {
    const geo0 = state.geometry;
    const end: End = { x: state.position, geo: geo0, logJacobian: 0, steps: 0, metricCalls: 0, failure: undefined };
    try {
      end.geo.hamiltonianGradient(zero.fill(0), gradPhi);
      for (let l = 0; l < steps; l++) {
        end.logJacobian += halfStep(end.geo, eps);
        const xNew = positions[l & 1];
        for (let i = 0; i < n; i++) xNew[i] = end.x[i] + eps * v[i];
        const next = target.geometry(xNew);
        end.metricCalls++;
        if (!Number.isFinite(next.logDensity) || !Number.isFinite(next.logDetMetric)) throw new TrajectoryFailure("non-finite");
        // p = G(x) v' -> G(x') v'
        const d0 = end.geo.metricDiagonalPart;
        const d1 = next.metricDiagonalPart;
        for (let i = 0; i < n; i++) p[i] += (d1[i] - d0[i]) * v[i];
        if (end.geo !== geo0) end.geo.release?.();
        end.geo = next;
        end.x = xNew;
        end.geo.hamiltonianGradient(zero.fill(0), gradPhi);
        end.logJacobian += halfStep(end.geo, eps);
        end.steps = l + 1;
      }
    } catch (e) {
      if (e instanceof TrajectoryFailure) end.failure = e.reason;
      else if (isNumericalFailure(e)) end.failure = "numerical-error";
      else throw e;
    }
    return end;
  }

  function step(state: LagrangianState, rng: RandomSource): { state: LagrangianState; info: StepInfo } {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    const geo0 = state.geometry;
    // p ~ N(0, G(x0)), v = G^-1 p ~ N(0, G^-1)
    geo0.sampleMomentum(rng, p);
    geo0.applyInverse(p, v);
    const steps = leapfrogStepCount(stepOptions, rng, eps);
    const logUniform = Math.log(rng.uniform());
    const e0 = energy(geo0);
    const end = integrate(state, steps, eps);
    let e1 = NaN;
    let proposal: LagrangianState | undefined;
    if (end.failure === undefined) {
      e1 = energy(end.geo);
      // log u < E0 - E1 + log|J|: metropolisDecision accepts on log u < -(energy error)
      metropolisDecision(e1 - e0 - (noJacobian ? 0 : end.logJacobian), logUniform, threshold, decision);
      if (decision.accepted) proposal = { position: end.x.slice(), logDensity: end.geo.logDensity, geometry: end.geo };
    } else {
      rejectInto(decision, end.failure);
    }
    if (!proposal && end.geo !== geo0) end.geo.release?.();
    const info: StepInfo = {
      accepted: decision.accepted,
      acceptanceProbability: decision.acceptanceProbability,
      divergent: decision.divergence !== undefined,
      divergence: decision.divergence,
      energy: decision.accepted ? e1 : e0,
      energyError: e1 - e0 - end.logJacobian,
      stepSize: eps,
      leapfrogSteps: end.steps,
      gradientCalls: 2 * end.steps,
      metricCalls: end.metricCalls,
      fixedPointIterations: 0,
    };
    return { state: proposal ?? state, info };
  }

  /** For tests: `steps` steps from (state, velocity); the end position, velocity, log-Jacobian and energies. */
  function trajectory(state: LagrangianState, velocity: Float64Array, steps: number) {
    v.set(velocity);
    state.geometry.applyMetric!(v, p);
    const e0 = energy(state.geometry);
    const end = integrate(state, steps, tunable.value);
    const out = { position: end.x.slice(), velocity: v.slice(), logJacobian: end.logJacobian, startEnergy: e0, endEnergy: end.failure ? NaN : energy(end.geo), failure: end.failure };
    if (end.geo !== state.geometry) end.geo.release?.();
    return out;
  }

  return { name: "rmhmc-lagrangian", tunable, init, step, trajectory };
}
