/**
 * An interweaving step for the stochastic volatility model: (sigma, phi) moved with the
 * innovations held fixed, instead of the volatilities (ancillarity-sufficiency interweaving, Yu &
 * Meng 2011; for this model Kastner & Fruhwirth-Schnatter 2014).
 *
 * Given x, sigma pins down the AR(1) residuals x_t - phi x_{t-1} of all T volatilities, so the
 * parameters' block of the two-block Gibbs sampler (Girolami & Calderhead 2011, Section 8) moves
 * sigma by about sigma / sqrt(2T) per sweep against a posterior sd several times that: sigma and
 * phi mix slowly, and so do the volatilities that depend on them. In the non-centred coordinates
 *
 *   eta_1 = x_1 sqrt(1 - phi^2) / sigma,   eta_t = (x_t - phi x_{t-1}) / sigma   (t >= 2),
 *
 * eta ~ N(0, I) whatever (sigma, phi), so the joint density of (sigma, phi, eta) given beta and y
 * is p(y | x(eta; sigma, phi), beta) N(eta; 0, I) p(sigma) p(phi): the image of p(sigma, phi, x |
 * beta, y) under the bijection x <-> eta. A Metropolis step on (sigma, phi) given eta, followed by
 * x = x(eta; sigma', phi'), therefore leaves the posterior invariant; given eta, sigma scales all
 * of x at once, which is the move the centred block cannot make.
 *
 * The proposal is a Gaussian random walk on (log sigma, atanh phi) with one scale (adapted in
 * burn-in), so the target in those coordinates carries the Jacobian sigma (1 - phi^2):
 *
 *   log pi(u, v) = sum_t [-x_t / 2 - y_t^2 exp(-x_t) / (2 beta^2)] + log p(sigma) + log p(phi)
 *                  + log sigma + log(1 - phi^2),     sigma = e^u, phi = tanh v.
 *
 * Each move is two O(T) passes; a step makes SV_INTERWEAVE_STEPS of them. The kernel acts on
 * the block (sigma, phi, x_1..x_T) of the Gibbs sweep's position, beta fixed.
 */
import type { RandomSource } from "../../random/types.js";
import { metropolisHastingsDecision, metropolisStepInfo, newMetropolisOutcome } from "../../samplers/kernels/metropolis.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "../../samplers/types.js";
import { inSupport, SV_PRIOR, svLogPrior } from "./svModel.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** The acceptance rate the random walk's scale is adapted to (a 2-D random walk). */
export const SV_INTERWEAVE_TARGET_ACCEPTANCE = 0.35;
/** Its starting scale on (log sigma, atanh phi). */
export const SV_INTERWEAVE_SCALE = 0.1;
/**
 * Random-walk moves per sweep: on the paper's data (T = 2000) 5 moves give sigma 3-4 times the ESS
 * of 1 (334-424 against 94-105 of 10000 draws) for 15% more time per sweep; 12 give no more.
 */
export const SV_INTERWEAVE_STEPS = 5;

export interface SvNonCentredOptions {
  /** The random walk's scale on (log sigma, atanh phi). */
  scale: number;
  /** Random-walk moves per step (default SV_INTERWEAVE_STEPS). */
  steps?: number;
  /** log p(beta) = betaPriorRate * beta (only the parameters' priors enter here; default 1). */
  betaPriorRate?: number;
  /**
   * Test-only negative control: "interweave-no-jacobian" leaves out log sigma + log(1 - phi^2), the
   * Jacobian of the random walk's coordinates (a wrong target).
   * @internal
   */
  broken?: FaultOf<"sv-interweave">;
}

/** The non-centred kernel on (sigma, phi, x_1..x_T) given beta and y (module comment). */
export function svNonCentredKernel(y: Float64Array, beta: number, options: SvNonCentredOptions): Kernel & { readonly tunable: Tunable } {
  const T = y.length;
  const rate = options.betaPriorRate ?? SV_PRIOR.betaRate;
  const half = 1 / (2 * beta * beta);
  const y2 = new Float64Array(T);
  for (let t = 0; t < T; t++) y2[t] = y[t] * y[t] * half;
  const jacobian = options.broken !== "interweave-no-jacobian";
  const steps = options.steps ?? SV_INTERWEAVE_STEPS;
  if (!(Number.isInteger(steps) && steps >= 1)) throw new RangeError(`volatility interweaving: steps must be a whole number >= 1, got ${steps}`);
  const tunable: Tunable = { name: "scale", value: options.scale, targetAcceptance: SV_INTERWEAVE_TARGET_ACCEPTANCE };
  const eta = new Float64Array(T);
  /** The state whose innovations eta holds: a rejected move leaves state and eta as they were. */
  let etaOf: SamplerState | undefined;
  const proposal = new Float64Array(T + 2);
  const decision = newMetropolisOutcome();

  /** log pi at (sigma, phi) with the volatilities xs (module comment). */
  function logTarget(sigma: number, phi: number, xs: Float64Array): number {
    if (!inSupport(beta, sigma, phi)) return -Infinity;
    let l = 0;
    for (let t = 0; t < T; t++) l += -0.5 * xs[t] - y2[t] * Math.exp(-xs[t]);
    return l + svLogPrior(beta, sigma, phi, rate) + (jacobian ? Math.log(sigma) + Math.log1p(-phi * phi) : 0);
  }

  function init(x0: Float64Array): SamplerState {
    if (x0.length !== T + 2) throw new RangeError(`volatility interweaving: the block has ${x0.length} entries, expected sigma, phi and ${T} volatilities`);
    const position = Float64Array.from(x0);
    return { position, logDensity: logTarget(position[0], position[1], position.subarray(2)) };
  }

  /** `steps` random-walk moves; the info of the last, with the mean acceptance probability (what adaptation reads). */
  function step(from: SamplerState, rng: RandomSource): { state: SamplerState; info: StepInfo } {
    let state = from;
    let info!: StepInfo;
    let acceptance = 0;
    for (let k = 0; k < steps; k++) {
      ({ state, info } = move(state, rng));
      acceptance += info.acceptanceProbability;
    }
    info.acceptanceProbability = acceptance / steps;
    return { state, info };
  }

  function move(state: SamplerState, rng: RandomSource): { state: SamplerState; info: StepInfo } {
    const s = tunable.value;
    const [sigma, phi] = state.position;
    const x = state.position.subarray(2);
    // eta from x at (sigma, phi), unless eta already belongs to this state
    if (etaOf !== state) {
      eta[0] = (x[0] * Math.sqrt(1 - phi * phi)) / sigma;
      for (let t = 1; t < T; t++) eta[t] = (x[t] - phi * x[t - 1]) / sigma;
      etaOf = state;
    }
    // (sigma', phi') by the random walk on (log sigma, atanh phi); x' = x(eta; sigma', phi')
    const sigmaNew = sigma * Math.exp(s * rng.normal());
    const phiNew = Math.tanh(Math.atanh(phi) + s * rng.normal());
    proposal[0] = sigmaNew;
    proposal[1] = phiNew;
    const xNew = proposal.subarray(2);
    xNew[0] = (sigmaNew * eta[0]) / Math.sqrt(1 - phiNew * phiNew);
    for (let t = 1; t < T; t++) xNew[t] = phiNew * xNew[t - 1] + sigmaNew * eta[t];
    const lp = logTarget(sigmaNew, phiNew, xNew);
    metropolisHastingsDecision(lp - state.logDensity, Math.log(rng.uniform()), decision);
    const info = metropolisStepInfo(decision, s);
    if (decision.accepted) return { state: { position: proposal.slice(), logDensity: lp }, info };
    return { state, info };
  }

  return { name: "volatility-interweave", tunable, init, step };
}
