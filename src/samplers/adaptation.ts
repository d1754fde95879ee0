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
 * - The acceptance window the papers use (G&C Section 6: "stepsize being adapted in every 100
 *   iterations during burn-in to achieve an acceptance rate of between 20% and 40%"): after each
 *   window, the value is multiplied by `factor` if the fraction accepted was above `upper`, and
 *   divided by it if below `lower`. The value at the end of burn-in is kept.
 *
 * Both tune a value that grows to lower the acceptance rate (a step size, a proposal scale).
 */
import { checkPositive, checkPositiveInteger, checkProbability } from "./metropolis.js";

export interface DualAveragingOptions {
  method: "dual-averaging";
  /** Target acceptance statistic delta (default: the kernel's tunable.targetAcceptance). */
  targetAcceptance?: number;
  gamma?: number;
  t0?: number;
  kappa?: number;
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
  update(acceptStat: number, accepted: boolean): number;
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

export class DualAveraging implements Adapter {
  private readonly delta: number;
  /** gamma, t0 and kappa of Hoffman & Gelman's Algorithm 5. */
  private readonly tuning: Required<Pick<DualAveragingOptions, "gamma" | "t0" | "kappa">>;
  private readonly mu: number;
  private counter = 0;
  private sBar = 0;
  private xBar = 0;
  private current: number;

  constructor(initial: number, targetAcceptance: number, options: Partial<DualAveragingOptions> = {}) {
    checkPositive("initial step size", initial);
    checkProbability("targetAcceptance", targetAcceptance);
    this.delta = targetAcceptance;
    const tuning = { gamma: options.gamma ?? 0.05, t0: options.t0 ?? 10, kappa: options.kappa ?? 0.75 };
    checkPositive("gamma", tuning.gamma);
    if (!(tuning.t0 >= 0)) throw new RangeError(`t0 must be non-negative, got ${tuning.t0}`);
    checkPositive("kappa", tuning.kappa);
    this.tuning = tuning;
    this.mu = Math.log(10 * initial);
    this.current = initial;
  }

  update(acceptStat: number, _accepted: boolean): number {
    this.counter++;
    const alpha = Number.isFinite(acceptStat) ? Math.min(1, Math.max(0, acceptStat)) : 0;
    const { gamma, t0, kappa } = this.tuning;
    const eta = 1 / (this.counter + t0);
    this.sBar = (1 - eta) * this.sBar + eta * (this.delta - alpha);
    const x = this.mu - (this.sBar * Math.sqrt(this.counter)) / gamma;
    const xEta = Math.pow(this.counter, -kappa);
    this.xBar = (1 - xEta) * this.xBar + xEta * x;
    this.current = Math.exp(x);
    return this.current;
  }

  final(): number {
    return this.counter === 0 ? this.current : Math.exp(this.xBar);
  }

  snapshot(): number[] {
    return [this.counter, this.sBar, this.xBar, this.current];
  }

  restore(state: readonly number[]): void {
    checkSnapshot("dual averaging", state, 4);
    [this.counter, this.sBar, this.xBar, this.current] = state;
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

/** The adapter for `options`, starting from `initial`, aiming at `targetAcceptance` unless the options say otherwise. */
export function makeAdapter(options: AdaptOptions, initial: number, targetAcceptance: number): Adapter {
  switch (options.method) {
    case "dual-averaging":
      return new DualAveraging(initial, options.targetAcceptance ?? targetAcceptance, options);
    case "window":
      return new AcceptanceWindow(initial, options.targetAcceptance ?? targetAcceptance, options);
    default:
      throw new RangeError(`unknown adaptation method ${String((options as { method: unknown }).method)}`);
  }
}
