/**
 * Likelihoods by name, for the command line (`--likelihood NAME`). A registry maps a name to a
 * factory and the options it takes; likelihoodByName builds one, rejecting options that do not
 * apply. Further likelihoods are added with `register`, on the shared `likelihoods` registry or
 * on a fresh one from `builtinLikelihoods()`.
 */
import { logisticLikelihood } from "./logistic.js";
import { ordinalLikelihood } from "./ordinal.js";
import { LikelihoodOptionError, type LikelihoodOptions } from "./options.js";
import { poissonLikelihood } from "./poisson.js";
import { probit } from "./probit.js";
import type { Likelihood } from "./types.js";
import { volatilityLikelihood } from "./volatility.js";

export type LikelihoodOptionName = keyof LikelihoodOptions;
export type LikelihoodFactory = (options: LikelihoodOptions) => Likelihood;

export interface LikelihoodEntry {
  readonly factory: LikelihoodFactory;
  /** The options this likelihood takes; any other option given is an error. */
  readonly options: readonly LikelihoodOptionName[];
  /** One line for --help. */
  readonly description: string;
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
    })
    .register("logistic", {
      factory: () => logisticLikelihood(),
      options: [],
      description: "Bernoulli labels y in {0, 1} with p(y = 1 | f) = 1 / (1 + exp(-f))",
    })
    .register("poisson", {
      factory: (o) => poissonLikelihood({ exposure: o.exposure }),
      options: ["exposure"],
      description: "counts y ~ Poisson(m exp(f)) with exposure or cell area m (default 1)",
    })
    .register("volatility", {
      factory: () => volatilityLikelihood(),
      options: [],
      description: "stochastic volatility y ~ N(0, exp(f)^2)",
    })
    .register("ordinal", {
      factory: (o) => {
        if (o.thresholds === undefined) throw new LikelihoodOptionError("thresholds", "the ordinal likelihood needs thresholds b_1 < ... < b_{r-1}");
        return ordinalLikelihood({ thresholds: o.thresholds, noiseSd: o.noiseSd });
      },
      options: ["thresholds", "noiseSd"],
      description: "ordinal probit, y in {1..r}: p(y = k | f) = Phi((b_k - f)/sigma) - Phi((b_{k-1} - f)/sigma)",
    });
}

/** The shared registry the command line uses; register probit (and others) here. */
export const likelihoods: LikelihoodRegistry = builtinLikelihoods();

/** Builds a likelihood by its command-line name from the given registry (default: the shared one). */
export function likelihoodByName(name: string, options: LikelihoodOptions = {}, registry: LikelihoodRegistry = likelihoods): Likelihood {
  return registry.create(name, options);
}
