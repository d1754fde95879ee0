/**
 * The marginal auxiliary gradient sampler of Titsias & Papaspiliopoulos (2018, "Auxiliary
 * gradient-based sampling algorithms", JRSS B, Section 3 and eq. 13-14; BlackJAX's
 * `mgrad_gaussian`) for a latent Gaussian target pi(x) ∝ exp(g(x)) N(x; 0, K), here g the
 * tempered log likelihood beta log p(y | x).
 *
 * With an auxiliary u | x ~ N(x + (delta/2) grad g(x), (delta/2) I) and the Gaussian prior kept
 * exact, the proposal y | u ~ N((2/delta) A u, A), A = (K^-1 + (2/delta) I)^-1, is integrated
 * over u: the marginal proposal is
 *   q(y | x) = N(y; (2/delta) A (x + (delta/2) grad g(x)), A + (2/delta) A^2),
 * a Metropolis-Hastings proposal that needs no factorisation per step: with K = U diag(lambda) U'
 * (one eigendecomposition), A, A^2 and K^-1 are diagonal in the eigenbasis, with
 *   a_k = lambda_k s / (lambda_k + s),  s = delta / 2,
 * so the proposal's mean and variances, and log N(x; 0, K), are O(n) in rotated coordinates
 * x~ = U' x. The acceptance ratio pi(y) q(x | y) / (pi(x) q(y | x)) is evaluated as written, in
 * those coordinates: each step costs the rotation y = U y~ of the proposal, one gradient of g
 * (O(n)) and its rotation U' grad g(y): two matrix-vector products, O(n^2).
 *
 * delta is the step size the chain driver adapts in burn-in; the paper reports acceptance rates
 * of about 0.5-0.6 as efficient, and the default target is 0.55. The proposal is exact for
 * g = 0 (it then leaves the prior invariant for every delta), which is what makes large steps
 * possible when the likelihood is weak relative to the prior.
 */
import { backendFor } from "../../linalg/cholesky.js";
import { opCounts } from "../../linalg/counters.js";
import { symmetricEigen } from "../../linalg/symmetricEigen.js";
import { symmetricFromLower } from "../../linalg/symmetricFromLower.js";
import type { RandomSource } from "../../random/types.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import { requirePriorSplit, type LatentGpTarget } from "../latentTarget.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** The acceptance rate burn-in adaptation aims for (Titsias & Papaspiliopoulos: about 0.5-0.6). */
export const MGRAD_TARGET_ACCEPTANCE = 0.55;

export interface MgradOptions {
  /** delta (the auxiliary variable's variance is delta / 2). */
  stepSize: number;
  targetAcceptance?: number;
  /**
   * Test-only negative controls: "mgrad-no-hastings" leaves q(x | y) / q(y | x) out of the ratio;
   * "draw-variance-a" draws the proposal with variance A alone (the u-conditional's) while its
   * density in the ratio keeps A + (2/delta) A^2.
   * @internal
   */
  broken?: FaultOf<"mgrad">;
}

export interface MgradState extends SamplerState {
  /** U' x. */
  readonly rotated: Float64Array;
  /** U' grad g(x). */
  readonly rotatedGradient: Float64Array;
  /** g(x) = beta log p(y | x). */
  readonly logLikelihood: number;
}

export interface MgradKernel extends Kernel<MgradState> {
  readonly tunable: Tunable;
  /** K's eigenvalues, ascending. */
  readonly eigenvalues: Float64Array;
}

export function mgrad(target: LatentGpTarget, options: MgradOptions): MgradKernel {
  requirePriorSplit(target, "mgrad");
  const n = target.dim;
  const { likelihood, y, beta } = target;
  const eig = symmetricEigen(symmetricFromLower(target.kernelMatrix));
  const lambda = eig.values;
  for (let k = 0; k < n; k++) {
    if (!(lambda[k] > 0)) throw new RangeError(`mgrad: K has eigenvalue ${lambda[k]}; it must be positive definite`);
  }
  const u = eig.vectors.data;
  const be = backendFor(n);
  const broken = options.broken;
  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance: options.targetAcceptance ?? MGRAD_TARGET_ACCEPTANCE };
  const d1 = new Float64Array(n);
  const d2 = new Float64Array(n);
  const proposal = new Float64Array(n);
  const mean = new Float64Array(n);
  const variance = new Float64Array(n);

  /** g(x) and U' grad g(x) into `rotatedGradient`. */
  function likelihoodAt(x: Float64Array, rotatedGradient: Float64Array): number {
    const ll = likelihood.gradient ? likelihood.gradient(y, x, d1) : likelihood.derivatives(y, x, d1, d2);
    if (beta !== 1) for (let i = 0; i < n; i++) d1[i] *= beta;
    rotate("T", d1, rotatedGradient);
    return beta === 0 ? 0 : beta * ll;
  }

  function rotate(trans: "N" | "T", x: Float64Array, out: Float64Array): void {
    opCounts.flops += 2 * n * n;
    be.gemv(trans, n, n, 1, u, n, x, 0, out);
  }

  /** log N(x; 0, K) up to its constant, from x~. */
  function logPrior(rotated: Float64Array): number {
    let s = 0;
    for (let k = 0; k < n; k++) s += (rotated[k] * rotated[k]) / lambda[k];
    return -0.5 * s;
  }

  /** Fills mean and variance of q(. | x) in rotated coordinates, for s = delta / 2. */
  function proposalMoments(state: MgradState, s: number): void {
    for (let k = 0; k < n; k++) {
      const ak = (lambda[k] * s) / (lambda[k] + s);
      mean[k] = (ak / s) * (state.rotated[k] + s * state.rotatedGradient[k]);
      variance[k] = ak + (ak * ak) / s;
    }
  }

  /** log q(to | from) up to constants shared by both directions, with mean and variance of q(. | from) filled in. */
  function logProposal(to: Float64Array): number {
    let s = 0;
    for (let k = 0; k < n; k++) {
      const e = to[k] - mean[k];
      s += (e * e) / variance[k];
    }
    return -0.5 * s;
  }

  // log pi(x) - g(x) - logPrior(x~): the prior's normalisation, fixed once at x = 0 so that a state
  // rebuilt from its position has the same log density bit for bit.
  const offset = target.logDensity(new Float64Array(n)) - likelihoodAt(new Float64Array(n), new Float64Array(n));

  function stateAt(position: Float64Array, rotated: Float64Array): MgradState {
    const rotatedGradient = new Float64Array(n);
    const logLikelihood = likelihoodAt(position, rotatedGradient);
    return { position, rotated, rotatedGradient, logLikelihood, logDensity: logLikelihood + logPrior(rotated) + offset };
  }

  function init(x0: Float64Array): MgradState {
    const position = initialPosition("mgrad", x0, n);
    const rotated = new Float64Array(n);
    rotate("T", position, rotated);
    const state = stateAt(position, rotated);
    finiteInitialLogDensity("mgrad", state.logDensity);
    return state;
  }

  function step(state: MgradState, rng: RandomSource): { state: MgradState; info: StepInfo } {
    const delta = tunable.value;
    const s = delta / 2;
    proposalMoments(state, s);
    for (let k = 0; k < n; k++) {
      const sd = broken === "draw-variance-a" ? Math.sqrt((lambda[k] * s) / (lambda[k] + s)) : Math.sqrt(variance[k]);
      proposal[k] = mean[k] + sd * rng.normal();
    }
    const forward = logProposal(proposal);
    const rotated = proposal.slice();
    const position = new Float64Array(n);
    rotate("N", rotated, position);
    const next = stateAt(position, rotated);
    let logRatio = next.logDensity - state.logDensity;
    if (broken !== "mgrad-no-hastings") {
      proposalMoments(next, s);
      logRatio += logProposal(state.rotated) - forward;
    }
    const acceptanceProbability = Number.isFinite(logRatio) ? Math.min(1, Math.exp(logRatio)) : 0;
    const accepted = rng.uniform() < acceptanceProbability;
    const info: StepInfo = {
      accepted,
      acceptanceProbability,
      divergent: false,
      energy: NaN,
      energyError: NaN,
      stepSize: delta,
      leapfrogSteps: 0,
      gradientCalls: 1,
      metricCalls: 0,
      fixedPointIterations: 0,
    };
    return { state: accepted ? next : state, info };
  }

  // x~ is drawn and x = U x~ computed from it (or x given and x~ = U' x at init): neither gives the
  // other back bit for bit, so a checkpoint keeps both.
  function saveState(state: MgradState): Float64Array {
    const saved = new Float64Array(2 * n);
    saved.set(state.position);
    saved.set(state.rotated, n);
    return saved;
  }
  function restoreState(saved: Float64Array): MgradState {
    if (saved.length !== 2 * n) throw new RangeError(`mgrad: a saved state has ${2 * n} numbers, got ${saved.length}`);
    return stateAt(saved.slice(0, n), saved.slice(n));
  }

  return { name: "mgrad", tunable, eigenvalues: lambda, init, step, saveState, restoreState };
}
