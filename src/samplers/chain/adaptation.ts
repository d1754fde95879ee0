/**
 * Step-size (or proposal-scale) adaptation during burn-in. Two rules:
 *
 * - Dual averaging (Hoffman & Gelman 2014, Section 3.2 and Algorithm 5; Nesterov 2009), as Stan
 *   implements it (stan/mcmc/stepsize_adaptation.hpp): with m the iteration count, delta the
 *   target acceptance and alpha_m the acceptance statistic,
 *     Hbar_m = (1 - 1/(m + t0)) Hbar_{m-1} + (delta - alpha_m) / (m + t0)
 *     log e_m = mu - sqrt(m) / gamma * Hbar_m,          mu = log(10 e_0)
 *     log ebar_m = m^-kappa log e_m + (1 - m^-kappa) log ebar_{m-1}
 *   and ebar is used after burn-in. Defaults gamma = 0.05, t0 = 10, kappa = 0.75 (Stan's).
 *
 *   Divergent transitions. A divergent transition (an implicit leapfrog equation without a root
 *   its solver finds, an irreversible or non-finite trajectory, an energy error above the
 *   threshold) counts as alpha_m = 0, whatever its energy error said: a proposal rejected by the
 *   reversibility check after a small energy error would otherwise count as an acceptance (and a
 *   chain whose divergences all report alpha near 1 would grow its step without bound). When the
 *   burn-in length is known, the smallest step size at which a transition of the second half of
 *   burn-in diverged is the divergence edge; once DIVERGENCE_MARGIN x edge lies below ebar, the
 *   last tenth of burn-in (or what is left of it) runs at the fixed step DIVERGENCE_MARGIN x edge,
 *   multiplied by DIVERGENCE_MARGIN again at each divergent transition, and burn-in ends at that
 *   step (otherwise dual averaging goes on and ends at ebar, as without the rule). Why: dual
 *   averaging settles where the mean of alpha is delta, and divergences, being rare, hardly move
 *   that mean, so ebar can sit at a step where a few percent of the transitions diverge (RMHMC on
 *   the Fitzhugh-Nagumo posterior: 8-10% at its ebar of 0.57-0.60); the second half is where dual
 *   averaging tries steps near its final value, after the first half's large trial steps and the
 *   chain's transient; the fixed-step window tests the step burn-in ends at. A chain whose
 *   divergent transitions all reported alpha = 0 and none of whose second-half ones came at a step
 *   below ebar / DIVERGENCE_MARGIN adapts exactly as before. A divergence rate of a fraction of a
 *   percent at ebar can go unseen.

 * - The acceptance window the papers use (G&C Section 6: "stepsize being adapted in every 100
 *   iterations during burn-in to achieve an acceptance rate of between 20% and 40%"): after each
 *   window, the value is multiplied by `factor` if the fraction accepted was above `upper`, and
 *   divided by it if below `lower`. The value at the end of burn-in is kept.
 *
 * Both tune a value that grows to lower the acceptance rate (a step size, a proposal scale).
 */
import { checkPositive, checkPositiveInteger, checkProbability } from "../kernels/metropolis.js";

export interface DualAveragingOptions {
  method: "dual-averaging";
  /** Target acceptance statistic delta (default: the kernel's tunable.targetAcceptance). */
  targetAcceptance?: number;
  gamma?: number;
  t0?: number;
  kappa?: number;
  /**
   * "edge" (default): a divergent transition counts as alpha = 0, and burn-in ends below the
   * divergence edge (see the module comment); "ignore": the acceptance statistic as reported, and
   * ebar as it is (Stan's rule; for comparison).
   */
  divergences?: "edge" | "ignore";
}

export interface AcceptanceWindowOptions {
  method: "window";
  /** Iterations per window (default 100). */
  window?: number;
  /** Band of acceptance rates left alone (default: the kernel's target +- 0.1, kept inside (0, 1)). */
  lower?: number;
  upper?: number;
  /** Multiplicative change per window (default 1.2). */
  factor?: number;
  /** Centre of the default band (default: the kernel's tunable.targetAcceptance). */
  targetAcceptance?: number;
}

export type AdaptOptions = DualAveragingOptions | AcceptanceWindowOptions;

export interface Adapter {
  /** Takes one burn-in transition's outcome and returns the value to use next. */
  update(acceptStat: number, accepted: boolean, divergent?: boolean): number;
  /** The value to keep after burn-in. */
  final(): number;
  /** The adapter's running state as numbers (to checkpoint a chain in its burn-in). */
  snapshot(): number[];
  /** Sets the running state a snapshot of an adapter made with the same options holds. */
  restore(state: readonly number[]): void;
}

function checkSnapshot(name: string, state: readonly number[], length: number): void {
  if (state.length !== length || !state.every((v) => typeof v === "number")) throw new RangeError(`${name}: a saved state has ${length} numbers, got ${JSON.stringify(state)}`);
}

/** Burn-in ends at most this fraction of the divergence edge (DualAveraging). */
export const DIVERGENCE_MARGIN = 0.8;

export class DualAveraging implements Adapter {
  private readonly delta: number;
  /** gamma, t0 and kappa of Hoffman & Gelman's Algorithm 5. */
  private readonly tuning: Required<Pick<DualAveragingOptions, "gamma" | "t0" | "kappa">>;
  private readonly mu: number;
  private counter = 0;
  private sBar = 0;
  private xBar = 0;
  private current: number;
  /** The smallest step size at which a transition of burn-in's second half diverged (0: none yet). */
  private edge = 0;
  /** Whether the step is fixed for the rest of burn-in (the window below the edge). */
  private frozen = false;
  /** Transitions of that window: the last tenth of burn-in (0: burn-in length unknown). */
  private readonly window: number;
  private readonly ignoreDivergences: boolean;

  /**
   * `burnIn`: the number of transitions the adapter will see, which turns on the divergence edge
   * (undefined: divergent transitions only count as alpha = 0).
   */
  constructor(initial: number, targetAcceptance: number, options: Partial<DualAveragingOptions> = {}, private readonly burnIn?: number) {
    checkPositive("initial step size", initial);
    checkProbability("targetAcceptance", targetAcceptance);
    this.delta = targetAcceptance;
    const tuning = { gamma: options.gamma ?? 0.05, t0: options.t0 ?? 10, kappa: options.kappa ?? 0.75 };
    checkPositive("gamma", tuning.gamma);
    if (!(tuning.t0 >= 0)) throw new RangeError(`t0 must be non-negative, got ${tuning.t0}`);
    checkPositive("kappa", tuning.kappa);
    this.tuning = tuning;
    const divergences = options.divergences ?? "edge";
    if (divergences !== "edge" && divergences !== "ignore") throw new RangeError(`divergences must be "edge" or "ignore", got ${String(divergences)}`);
    this.ignoreDivergences = divergences === "ignore";
    this.mu = Math.log(10 * initial);
    this.current = initial;
    if (burnIn !== undefined) checkPositiveInteger("burnIn", burnIn);
    this.window = burnIn === undefined ? 0 : Math.ceil(burnIn / 10);
  }

  update(acceptStat: number, _accepted: boolean, reportedDivergent = false): number {
    this.counter++;
    const divergent = reportedDivergent && !this.ignoreDivergences;
    const burnIn = this.burnIn;
    if (divergent && burnIn !== undefined && 2 * this.counter > burnIn && (this.edge === 0 || this.current < this.edge)) this.edge = this.current;
    if (this.frozen) {
      if (divergent) this.current *= DIVERGENCE_MARGIN;
      return this.current;
    }
    const alpha = divergent || !Number.isFinite(acceptStat) ? 0 : Math.min(1, Math.max(0, acceptStat));
    const { gamma, t0, kappa } = this.tuning;
    const eta = 1 / (this.counter + t0);
    this.sBar = (1 - eta) * this.sBar + eta * (this.delta - alpha);
    const x = this.mu - (this.sBar * Math.sqrt(this.counter)) / gamma;
    const xEta = Math.pow(this.counter, -kappa);
    this.xBar = (1 - xEta) * this.xBar + xEta * x;
    this.current = Math.exp(x);
    if (this.edge > 0 && this.counter >= burnIn! - this.window && DIVERGENCE_MARGIN * this.edge < Math.exp(this.xBar)) {
      this.frozen = true;
      this.current = DIVERGENCE_MARGIN * this.edge;
    }
    return this.current;
  }

  final(): number {
    if (this.frozen) return this.current;
    const ebar = this.counter === 0 ? this.current : Math.exp(this.xBar);
    return this.edge > 0 ? Math.min(ebar, DIVERGENCE_MARGIN * this.edge) : ebar;
  }

  /** The divergence edge found so far (undefined: none). */
  divergenceEdge(): number | undefined {
    return this.edge > 0 ? this.edge : undefined;
  }

  snapshot(): number[] {
    const base = [this.counter, this.sBar, this.xBar, this.current];
    return this.burnIn === undefined ? base : [...base, this.edge, this.frozen ? 1 : 0];
  }

  restore(state: readonly number[]): void {
    // (a state of 4 numbers, saved before the divergence edge was kept, restores with none found)
    checkSnapshot("dual averaging", state, this.burnIn === undefined || state.length === 4 ? 4 : 6);
    [this.counter, this.sBar, this.xBar, this.current] = state;
    this.edge = state[4] ?? 0;
    this.frozen = state[5] === 1;
  }
}

export class AcceptanceWindow implements Adapter {
  private readonly window: number;
  private readonly lower: number;
  private readonly upper: number;
  private readonly factor: number;
  private count = 0;
  private accepted = 0;
  private current: number;

  constructor(initial: number, targetAcceptance: number, options: Partial<AcceptanceWindowOptions> = {}) {
    checkPositive("initial value", initial);
    const centre = options.targetAcceptance ?? targetAcceptance;
    this.window = options.window ?? 100;
    checkPositiveInteger("window", this.window);
    this.lower = options.lower ?? Math.max(0.01, centre - 0.1);
    this.upper = options.upper ?? Math.min(0.99, centre + 0.1);
    if (!(this.lower >= 0 && this.lower < this.upper && this.upper <= 1)) {
      throw new RangeError(`acceptance band must satisfy 0 <= lower < upper <= 1, got [${this.lower}, ${this.upper}]`);
    }
    this.factor = options.factor ?? 1.2;
    if (!(this.factor > 1) || !Number.isFinite(this.factor)) throw new RangeError(`factor must be a finite number above 1, got ${this.factor}`);
    this.current = initial;
  }

  update(_acceptStat: number, accepted: boolean): number {
    this.count++;
    if (accepted) this.accepted++;
    if (this.count === this.window) {
      const rate = this.accepted / this.count;
      if (rate > this.upper) this.current *= this.factor;
      else if (rate < this.lower) this.current /= this.factor;
      this.count = 0;
      this.accepted = 0;
    }
    return this.current;
  }

  final(): number {
    return this.current;
  }

  snapshot(): number[] {
    return [this.count, this.accepted, this.current];
  }

  restore(state: readonly number[]): void {
    checkSnapshot("acceptance window", state, 3);
    [this.count, this.accepted, this.current] = state;
  }
}

/**
 * The adapter for `options`, starting from `initial`, aiming at `targetAcceptance` unless the
 * options say otherwise, for a burn-in of `burnIn` transitions (dual averaging's divergence edge).
 */
export function makeAdapter(options: AdaptOptions, initial: number, targetAcceptance: number, burnIn?: number): Adapter {
  switch (options.method) {
    case "dual-averaging":
      return new DualAveraging(initial, options.targetAcceptance ?? targetAcceptance, options, burnIn);
    case "window":
      return new AcceptanceWindow(initial, options.targetAcceptance ?? targetAcceptance, options);
    default:
      throw new RangeError(`unknown adaptation method ${String((options as { method: unknown }).method)}`);
  }
}
