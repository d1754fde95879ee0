/**
 * The one shape of a sampler registry entry, for every kind of target: the latent GP's f | y,
 * theta (registry.ts), a parametric model with a dense metric (parametricRegistry.ts), the
 * log-Gaussian Cox process field and the stochastic volatility model's blocks (models/), and the
 * hyperparameters theta (hyper/thetaSamplers.ts). An entry is plain data (name, description,
 * defaults, the tunable, the fields a spec may have) plus two functions: `refuses`, which says
 * without building anything why the sampler cannot run on a target, and `build`, which makes the
 * kernel a complete spec describes.
 *
 * A spec is plain data too ({ sampler: name, ...fields }): what a worker thread, a checkpoint or
 * summary.json needs to rebuild the same kernel. `completeSpec` fills in the defaults and refuses
 * a field the sampler does not have, so every registry checks specs the same way.
 */
import { checkPositive, checkPositiveInteger, checkProbability } from "./kernels/metropolis.js";
import type { Kernel } from "./types.js";
import { renamedSampler } from "./renamedSamplers.js";

/** The spec field holding the initial value of what burn-in adaptation tunes. */
export type TunableField = "stepSize" | "alpha" | "proposalSd";

/** Words for a tunable in messages and summaries. */
export const TUNABLE_WORDS: { readonly [F in TunableField]: string } = { alpha: "alpha", proposalSd: "proposal sd", stepSize: "step size" };

/** A sampler's spec: its name and its fields. */
export interface SamplerSpecBase {
  sampler: string;
}

/**
 * One sampler of one kind of target. T: the target it builds on; S: its complete spec; C: what
 * else building needs besides target and spec (a chain's starting point, its burn-in length); K:
 * the kernel it builds (a kernel with its own coordinates says how they map back).
 */
export interface SamplerEntry<T, S extends SamplerSpecBase, C = undefined, K extends Kernel = Kernel> {
  /** One line for help texts. */
  readonly description: string;
  /** The complete spec of the sampler's defaults (what an unset field means). */
  readonly defaults: S;
  /** The spec field burn-in adaptation starts from (undefined: nothing to tune). */
  readonly tunable: TunableField | undefined;
  /** The fields a spec may have besides `sampler`, in the order a spec is written out. */
  readonly fields: readonly string[];
  /** Why the sampler cannot run on `target` (undefined: it can); builds nothing. */
  refuses?(target: T): string | undefined;
  /** Throws a RangeError where the spec's fields do not go together (checkSpec runs it); builds nothing. */
  checkFields?(spec: S): void;
  /** The kernel `spec` describes on `target`. */
  build(target: T, spec: S, context: C): K;
}

/** A registry: the entries of one kind of target, by name, in the order help texts list them. */
export type SamplerRegistry<T, S extends SamplerSpecBase, C = undefined> = { readonly [name: string]: SamplerEntry<T, S, C> };

/**
 * The fields of an entry: those of `defaults` (but the name and targetAcceptance), then the
 * `optional` ones (no default: unset means off, or the kernel's own default), then
 * targetAcceptance where the defaults have one.
 */
export function specFields(defaults: SamplerSpecBase, optional: readonly string[] = []): string[] {
  const named = Object.keys(defaults).filter((k) => k !== "sampler" && k !== "targetAcceptance");
  return [...named, ...optional, ...("targetAcceptance" in defaults ? ["targetAcceptance"] : [])];
}

/**
 * The complete spec: the entry's defaults, overridden by the fields `given` has (a field given as
 * undefined is unset). `what` names the registry in messages ("sampler", "sampler of theta").
 * Throws a RangeError on an unknown name or a field the sampler does not have.
 */
export function completeSpec<S extends SamplerSpecBase>(registry: { readonly [name: string]: { defaults: S; fields: readonly string[] } }, given: { sampler: string } & Record<string, unknown>, what = "sampler"): S {
  const name = given.sampler;
  const entry = typeof name === "string" && Object.hasOwn(registry, name) ? registry[name] : undefined;
  if (entry === undefined) {
    const renamed = typeof name === "string" ? renamedSampler(name) : undefined;
    throw new RangeError(renamed !== undefined ? `${what}: ${renamed}` : `unknown ${what} ${JSON.stringify(name)} (known: ${Object.keys(registry).join(", ")})`);
  }
  for (const [field, value] of Object.entries(given)) {
    if (field !== "sampler" && value !== undefined && !entry.fields.includes(field)) {
      const known = entry.fields.length > 0 ? `its fields: ${entry.fields.join(", ")}` : "it has none";
      throw new RangeError(`${field} does not apply to ${what} ${name} (${known})`);
    }
  }
  // Fields in the registry's order, so that a spec written out reads the same however it was given.
  const defaults = entry.defaults as unknown as Record<string, unknown>;
  const spec: Record<string, unknown> = { sampler: name };
  for (const field of entry.fields) {
    const value = given[field] ?? defaults[field];
    if (value !== undefined) spec[field] = value;
  }
  return spec as unknown as S;
}

/** The check each field's value gets, by the field's name, wherever it appears. */
const FIELD_CHECKS: { readonly [field: string]: (name: string, value: number) => void } = {
  stepSize: checkPositive,
  leapfrogSteps: checkPositiveInteger,
  maxLeapfrogSteps: checkPositiveInteger,
  maxTreeDepth: checkPositiveInteger,
  proposalSd: checkPositive,
  trajectoryLength: checkPositive,
  targetAcceptance: checkProbability,
  alpha: (name, v) => {
    if (!(v > 0 && v <= 1)) throw new RangeError(`${name} must lie in (0, 1], got ${v}`);
  },
};

/**
 * Checks a complete spec without building a kernel: each field's value (FIELD_CHECKS), the
 * entry's own rule for fields that must go together, and whether it can run on `target`. Throws
 * a RangeError naming the sampler and what is wrong.
 */
export function checkSpec<T, S extends SamplerSpecBase>(entry: Pick<SamplerEntry<T, S, never, Kernel>, "refuses" | "checkFields">, spec: S, target: T): void {
  for (const [field, value] of Object.entries(spec)) {
    const check = FIELD_CHECKS[field];
    if (check !== undefined && value !== undefined) {
      try {
        check(field, value as number);
      } catch (e) {
        throw new RangeError(`${spec.sampler}: ${(e as Error).message}`);
      }
    }
  }
  entry.checkFields?.(spec);
  const refusal = entry.refuses?.(target);
  if (refusal !== undefined) throw new RangeError(refusal);
}

/** The samplers of a registry whose spec has `field` (what an option setting it applies to). */
export function samplersWithField(registry: { readonly [name: string]: { fields: readonly string[] } }, field: string): string[] {
  return Object.keys(registry).filter((name) => registry[name].fields.includes(field));
}
