/**
 * The hyperparameters (sigma, beta) and the field of the log-Gaussian Cox process with the paper's
 * Euclidean covariance (Girolami & Calderhead 2011, Section 9.1, Figure 9), sampled by Gibbs
 * sweeps on the augmented state (phi, w): phi = (log sigma, log beta), w the field on the whole
 * circulant-embedding torus (models/coxProcess/euclideanHyperparameters.ts: the marginal law of
 * the grid's x = R w is the Euclidean model's, so the sweep leaves the posterior of (theta, x)
 * invariant exactly). One sweep:
 *
 *   1. phi | w: one RMHMC transition (generalised leapfrog, samplers/kernels/rmhmc.ts) on the 2-D model with
 *      the metric D_theta of eq. 39 for the torus field and its derivatives;
 *   2. w | phi, y: the field re-whitened at the new theta, nu = C_theta^-1/2 (w - mu) (diagonal in
 *      the torus's DFT), then `fieldTransitions` RMHMC transitions of nu with the constant metric
 *      I + lambda C (models/coxProcess/samplers.ts, as in Table 13), and w = mu + C_theta^1/2 nu on the whole torus;
 *   3. optionally (nonCentredSteps > 0), random-walk Metropolis steps of phi | nu, y with nu fixed,
 *      w = mu + C_theta^1/2 nu following theta: an interweaved non-centred step (Yu & Meng 2011).
 *      Given w, theta is pinned to a thin ridge (sigma^2 / beta, what a field on a fixed domain
 *      determines); with nu fixed it is not, so this step crosses the ridge where data are weak.
 *
 * mu is fixed, as in the paper. The torus is fixed for the whole chain (default: the smallest
 * power of two >= 2n, the field model's own choice at the paper's beta); theta whose embedding on
 * it is not positive definite is outside the support and its proposals are rejected.
 */
import { isPowerOfTwo, nextPowerOfTwo } from "../../math/fft.js";
import type { RandomSource } from "../../random/types.js";
import { CirculantGrid } from "./circulantGrid.js";
import { euclideanCoxProcessModel } from "./euclideanCoxProcess.js";
import { euclideanHyperparameterModel, euclideanNonCentredTarget, type PhiPrior } from "./euclideanHyperparameters.js";
import { PRIOR } from "./hyperparameters.js";
import { randomWalkMetropolis } from "../../samplers/kernels/metropolisRw.js";
import { rmhmc } from "../../samplers/kernels/rmhmc.js";
import { denseMetricTarget } from "../../targets/denseMetric.js";
import { coxProcessSampler } from "./samplers.js";
import { faultOf, type FaultOf } from "../../math/negativeControl.js";

export interface EuclideanHyperGibbsOptions {
  side: number;
  counts: ArrayLike<number>;
  /** The field's mean, fixed. */
  mu: number;
  /** m (default 1 / n^2). */
  cellArea?: number;
  /** The torus side M (default the smallest power of two >= 2n). */
  torus?: number;
  /** The prior on phi (default models/coxProcess/hyperparameters.ts's PRIOR). */
  prior?: PhiPrior;
  /** The field's RMHMC: step size, transitions per sweep, leapfrog steps (drawn from 1..L). */
  fieldStep: number;
  fieldTransitions: number;
  fieldLeapfrogSteps?: number;
  /** phi's RMHMC: step size and leapfrog steps (fixed points to 1e-8, samplers/kernels/rmhmc.ts's default). */
  thetaStep: number;
  thetaLeapfrogSteps: number;
  /**
   * Random-walk Metropolis steps of phi | nu, y (the non-centred step, interweaved after the field's:
   * it moves theta with the whitened field fixed; default 0, none) and their scale (default 0.3).
   */
  nonCentredSteps?: number;
  nonCentredScale?: number;
  /** Test-only negative controls: "keep-nu" keeps nu across the theta update; "non-centred-without-prior" drops the prior from the non-centred step. @internal */
  broken?: FaultOf<"cox-hyper-gibbs" | "cox-non-centred">;
}

export interface EuclideanHyperGibbsState {
  readonly phi: Float64Array;
  /** The field on the M x M torus (point a + M b; the grid is the corner a, b < n). */
  readonly w: Float64Array;
  /** nu = C_theta^-1/2 (w - mu) at the state's theta. */
  readonly nu: Float64Array;
}

export interface EuclideanHyperGibbsInfo {
  thetaAccepted: boolean;
  /** Accepted field transitions of this sweep. */
  fieldAccepted: number;
  /** Accepted non-centred steps of this sweep. */
  nonCentredAccepted: number;
}

export interface EuclideanHyperGibbs {
  readonly torus: number;
  /** A state at phi with the torus field drawn from its prior N(mu, C_theta). */
  init(phi: Float64Array, rng: RandomSource): EuclideanHyperGibbsState;
  sweep(state: EuclideanHyperGibbsState, rng: RandomSource): { state: EuclideanHyperGibbsState; info: EuclideanHyperGibbsInfo };
  /** `transitions` field transitions at the state's theta (a start's warm-up; leaves w | theta, y invariant). */
  warmField(state: EuclideanHyperGibbsState, rng: RandomSource, transitions: number): EuclideanHyperGibbsState;
  /** out (n^2) <- the grid's field x = R w. */
  toGrid(state: EuclideanHyperGibbsState, out: Float64Array): void;
}

export function euclideanHyperGibbs(options: EuclideanHyperGibbsOptions): EuclideanHyperGibbs {
  const { side, counts, mu } = options;
  const cellArea = options.cellArea ?? 1 / (side * side);
  const m = options.torus ?? nextPowerOfTwo(2 * side);
  // distances on the grid must be the torus's own (|d|_M = |d| for |d| <= n - 1): M >= 2n - 1
  if (!isPowerOfTwo(m) || m < 2 * side - 1) throw new RangeError(`the torus side ${m} must be a power of two >= 2n - 1 = ${2 * side - 1}`);
  const prior = options.prior ?? PRIOR;

  const gridAt = (phi: Float64Array) => new CirculantGrid(side, Math.exp(2 * phi[0]), Math.exp(phi[1]), { torus: m });

  /** out <- C^(power) v on the torus, power +-1/2 (theta inside the support: every eigenvalue > 0). */
  function applyRoot(grid: CirculantGrid, power: 0.5 | -0.5, v: Float64Array, out: Float64Array): void {
    grid.applySpectral(grid.eigenvalues.map((l) => Math.pow(l, power)), v, out);
  }

  function checkInside(phi: Float64Array): void {
    const model = euclideanHyperparameterModel(side, m, new Float64Array(m * m), mu, prior);
    if (!model.inSupport(phi)) throw new RangeError(`(sigma, beta) = (${Math.exp(phi[0])}, ${Math.exp(phi[1])}) is outside the support: the ${m} x ${m} torus's embedding is not positive definite there`);
  }

  function fieldFromNu(grid: CirculantGrid, nu: Float64Array): Float64Array {
    const w = new Float64Array(m * m);
    applyRoot(grid, 0.5, nu, w);
    for (let k = 0; k < w.length; k++) w[k] += mu;
    return w;
  }

  /** w | phi, y: re-whiten w at phi (or keep nu, the negative control), move nu, map back to the whole torus. */
  function fieldSteps(phi: Float64Array, state: EuclideanHyperGibbsState, rng: RandomSource, transitions: number): { state: EuclideanHyperGibbsState; accepted: number } {
    const field = euclideanCoxProcessModel(side, counts, { sigma2: Math.exp(2 * phi[0]), beta: Math.exp(phi[1]), mu }, cellArea, { torus: m });
    let nu: Float64Array;
    if (options.broken === "keep-nu") nu = Float64Array.from(state.nu);
    else {
      nu = new Float64Array(m * m);
      applyRoot(field.grid, -0.5, state.w.map((v) => v - mu), nu);
    }
    const sampler = coxProcessSampler(field, "rmhmc", { stepSize: options.fieldStep, leapfrogSteps: options.fieldLeapfrogSteps, adapt: false });
    let fs = sampler.kernel.init(nu);
    let accepted = 0;
    for (let k = 0; k < transitions; k++) {
      const f = sampler.kernel.step(fs, rng);
      fs = f.state;
      if (f.info.accepted) accepted++;
    }
    nu = Float64Array.from(fs.position);
    return { state: { phi, nu, w: fieldFromNu(field.grid, nu) }, accepted };
  }

  function nonCentred(state: EuclideanHyperGibbsState, rng: RandomSource): { state: EuclideanHyperGibbsState; accepted: number } {
    const steps = options.nonCentredSteps ?? 0;
    if (steps === 0) return { state, accepted: 0 };
    const target = euclideanNonCentredTarget(side, m, counts, cellArea, mu, state.nu, prior, faultOf("cox-non-centred", options.broken));
    const kernel = randomWalkMetropolis(target, { scale: options.nonCentredScale ?? 0.3 });
    let s = kernel.init(state.phi);
    let accepted = 0;
    for (let k = 0; k < steps; k++) {
      const r = kernel.step(s, rng);
      s = r.state;
      if (r.info.accepted) accepted++;
    }
    if (accepted === 0) return { state, accepted };
    const phi = Float64Array.from(s.position);
    return { state: { phi, nu: state.nu, w: fieldFromNu(gridAt(phi), state.nu) }, accepted };
  }

  return {
    torus: m,
    init(phi, rng) {
      checkInside(phi);
      const nu = rng.fillNormal(new Float64Array(m * m));
      return { phi: Float64Array.from(phi), nu, w: fieldFromNu(gridAt(phi), nu) };
    },
    sweep(state, rng) {
      // 1. phi | w
      const thetaKernel = rmhmc(denseMetricTarget(euclideanHyperparameterModel(side, m, state.w, mu, prior)), { stepSize: options.thetaStep, leapfrogSteps: options.thetaLeapfrogSteps });
      const t = thetaKernel.step(thetaKernel.init(state.phi), rng);
      // 2. w | phi, y
      const { state: next, accepted } = fieldSteps(Float64Array.from(t.state.position), state, rng, options.fieldTransitions);
      // 3. phi | nu, y (interweaving; Yu & Meng 2011): theta moves with the whitened field fixed
      const { state: last, accepted: nonCentredAccepted } = nonCentred(next, rng);
      return { state: last, info: { thetaAccepted: t.info.accepted, fieldAccepted: accepted, nonCentredAccepted } };
    },
    warmField(state, rng, transitions) {
      return fieldSteps(state.phi, state, rng, transitions).state;
    },
    toGrid(state, out) {
      for (let j = 0; j < side; j++) for (let i = 0; i < side; i++) out[i + side * j] = state.w[i + m * j];
    },
  };
}
