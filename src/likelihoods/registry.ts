/**
 * Likelihoods by name, for the command line (`--likelihood NAME`). A registry maps a name to a
 * factory and the options it takes; likelihoodByName builds one, rejecting options that do not
 * apply. Further likelihoods are added with `register`, on the shared `likelihoods` registry or
 * on a fresh one from `builtinLikelihoods()`.
 */
import { probitSites, type EpSites } from "./epSites.js";
import { logisticLikelihood } from "./logistic.js";
import { ordinalLikelihood } from "./ordinal.js";
import { LikelihoodOptionError, type LikelihoodOptions } from "./options.js";
import { poissonLikelihood } from "./poisson.js";
import { probit, probitClassProbability } from "./probit.js";
import type { Likelihood } from "./types.js";
import { volatilityLikelihood } from "./volatility.js";

export type LikelihoodOptionName = keyof LikelihoodOptions;
export type LikelihoodFactory = (options: LikelihoodOptions) => Likelihood;

/**
 * What a likelihood's response column holds, as the data reader checks it:
 * - `binary`: class labels, -1/+1 or 0/1 (1 means +1; one coding per file);
 * - `count`: non-negative integers (Poisson);
 * - `ordinal`: integer categories;
 * - `real`: any finite number.
 */
export type ResponseKind = "binary" | "count" | "ordinal" | "real";

/** How binary labels reach a likelihood: -1/+1 (probit: log Phi(y f)) or 0/1 (logistic, Bernoulli). */
export type BinaryCoding = "plusMinusOne" | "zeroOne";

/**
 * What a prediction reports of y besides f's mean and sd: p(y = +1) (`class-probability`, the
 * column p), the predictive mean of a count with a 90% interval (`count`), the probability of each
 * category (`categories`, p.1..p.r), or the predictive sd of y (`sd`, its mean being 0).
 */
export type PredictiveKind = "class-probability" | "count" | "categories" | "sd";

/** What the rest of gpmcmc needs to know of a likelihood, in one place: its entry. */
export interface LikelihoodTraits {
  readonly responses: ResponseKind;
  /** The coding its binary labels take (binary responses only; default plusMinusOne). */
  readonly binaryCoding?: BinaryCoding;
  /**
   * Its EP sites, where they are implemented (epSites.ts): the tilted moments EP's updates need,
   * for `gpmcmc ep`, EP's whitening and AIS from EP's q. Undefined: no EP for it.
   */
  readonly epSites?: (labels: Float64Array) => EpSites;
  /** Laplace's approximation applies (`gpmcmc laplace`, Laplace's whitening and predictions). */
  readonly laplace: boolean;
  readonly predictive: PredictiveKind;
  /** p(y = +1) under f ~ N(mean, variance) in closed form, where there is one (else predictions integrate by quadrature). */
  readonly classProbability?: (mean: number, variance: number) => number;
  /**
   * In the comparison paper's simulated data sets (run/simulate.ts): the random stream of its
   * responses (the latent part uses stream 0, so one seed gives every likelihood the same X and f)
   * and the likelihood options the simulation gives it.
   */
  readonly simulation?: { readonly stream: number; readonly options: LikelihoodOptions };
}

export interface LikelihoodEntry {
  readonly factory: LikelihoodFactory;
  /** The options this likelihood takes; any other option given is an error. */
  readonly options: readonly LikelihoodOptionName[];
  /** One line for --help. */
  readonly description: string;
  readonly traits: LikelihoodTraits;
}

export class LikelihoodRegistry {
  private readonly entries = new Map<string, LikelihoodEntry>();

  /** Adds (or replaces) the likelihood called name. */
  register(name: string, entry: LikelihoodEntry): this {
    this.entries.set(name, entry);
    return this;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Registered names, in registration order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  entry(name: string): LikelihoodEntry | undefined {
    return this.entries.get(name);
  }

  /** Builds the likelihood called name; throws LikelihoodOptionError for an unknown name or an option it does not take. */
  create(name: string, options: LikelihoodOptions = {}): Likelihood {
    const e = this.entries.get(name);
    if (e === undefined) {
      throw new LikelihoodOptionError("likelihood", `unknown likelihood "${name}"; expected one of ${this.names().join(", ")}`);
    }
    for (const key of Object.keys(options) as LikelihoodOptionName[]) {
      if (options[key] !== undefined && !e.options.includes(key)) {
        throw new LikelihoodOptionError(key, `does not apply to the ${name} likelihood`);
      }
    }
    return e.factory(options);
  }
}

/** A fresh registry holding probit, logistic, poisson, volatility and ordinal. */
export function builtinLikelihoods(): LikelihoodRegistry {
  return new LikelihoodRegistry()
    .register("probit", {
      factory: () => probit,
      options: [],
      description: "binary labels y in {-1, +1} with p(y | f) = Phi(y f)",
      traits: { responses: "binary", binaryCoding: "plusMinusOne", epSites: probitSites, laplace: true, predictive: "class-probability", classProbability: probitClassProbability, simulation: { stream: 5, options: {} } },
    })
    .register("logistic", {
      factory: () => logisticLikelihood(),
      options: [],
      description: "Bernoulli labels y in {0, 1} with p(y = 1 | f) = 1 / (1 + exp(-f))",
      traits: { responses: "binary", binaryCoding: "zeroOne", laplace: true, predictive: "class-probability", simulation: { stream: 1, options: {} } },
    })
    .register("poisson", {
      factory: (o) => poissonLikelihood({ exposure: o.exposure }),
      options: ["exposure"],
      description: "counts y ~ Poisson(m exp(f)) with exposure or cell area m (default 1)",
      traits: { responses: "count", laplace: true, predictive: "count", simulation: { stream: 2, options: {} } },
    })
    .register("volatility", {
      factory: () => volatilityLikelihood(),
      options: [],
      description: "stochastic volatility y ~ N(0, exp(f)^2)",
      traits: { responses: "real", laplace: true, predictive: "sd", simulation: { stream: 3, options: {} } },
    })
    .register("ordinal", {
      factory: (o) => {
        if (o.thresholds === undefined) throw new LikelihoodOptionError("thresholds", "the ordinal likelihood needs thresholds b_1 < ... < b_{r-1}");
        return ordinalLikelihood({ thresholds: o.thresholds, noiseSd: o.noiseSd });
      },
      options: ["thresholds", "noiseSd"],
      description: "ordinal probit, y in {1..r}: p(y = k | f) = Phi((b_k - f)/sigma) - Phi((b_{k-1} - f)/sigma)",
      // The comparison paper gives no thresholds for its simulated ordinal data (run/simulate.ts says why these).
      traits: { responses: "ordinal", laplace: false, predictive: "categories", simulation: { stream: 4, options: { thresholds: [-2, 0, 2], noiseSd: 1 } } },
    });
}

/** The shared registry the command line uses; register probit (and others) here. */
export const likelihoods: LikelihoodRegistry = builtinLikelihoods();

/** The shared registry's traits of the likelihood called name (undefined: no such likelihood). */
export function likelihoodTraits(name: string, registry: LikelihoodRegistry = likelihoods): LikelihoodTraits | undefined {
  return registry.entry(name)?.traits;
}

/** The names of the shared registry's likelihoods whose traits satisfy `has`, in registration order. */
export function likelihoodsWith(has: (traits: LikelihoodTraits, options: readonly LikelihoodOptionName[]) => boolean, registry: LikelihoodRegistry = likelihoods): string[] {
  return registry.names().filter((name) => {
    const e = registry.entry(name)!;
    return has(e.traits, e.options);
  });
}

/** The names of the shared registry's likelihoods with EP sites (EP, EP's whitening, AIS from EP's q). */
export function likelihoodsWithEpSites(registry: LikelihoodRegistry = likelihoods): string[] {
  return likelihoodsWith((t) => t.epSites !== undefined, registry);
}

/** The binary coding the likelihood's labels take (plusMinusOne for any but a zeroOne likelihood). */
export function binaryCodingOf(name: string, registry: LikelihoodRegistry = likelihoods): BinaryCoding {
  return registry.entry(name)?.traits.binaryCoding ?? "plusMinusOne";
}

/** Builds a likelihood by its command-line name from the given registry (default: the shared one). */
export function likelihoodByName(name: string, options: LikelihoodOptions = {}, registry: LikelihoodRegistry = likelihoods): Likelihood {
  return registry.create(name, options);
}
