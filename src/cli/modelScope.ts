/**
 * Where an option of `gpmcmc sample` applies, derived from the registries rather than written
 * per command: a model's own options from the model registry (models/registry.ts), a sampler's
 * from the fields of its registry entry (samplers/samplerEntry.ts). Each refusal is one line
 * naming the option and where it does apply.
 */
import { modelInfo, optionOutsideModel, samplersOfModelWithField, type ModelName } from "../models/registry.js";
import { OptionError, parsePositiveInteger, parsePositiveNumber, refuseRenamedSampler } from "./options.js";

/** --option-name of a Commander key (camelCase). */
export function optionName(key: string): string {
  return "--" + key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

/** "a", "a or b", "a, b or c". */
function orList(items: readonly string[], last = "or"): string {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}` : items[0];
}

/** Refuses an option that belongs to other models only ("--interweave: applies only to --model volatility"). */
export function refuseOtherModelsOptions(model: ModelName, raw: object): void {
  const outside = optionOutsideModel(model, raw as Record<string, unknown>);
  if (outside === undefined) return;
  const gpOnly = outside.models.length === 1 && outside.models[0] === "latent-gp";
  throw new OptionError(optionName(outside.key), `applies only to --model ${orList(outside.models)}${gpOnly ? " (the GP models)" : ""}`);
}

/**
 * Refuses an option of `gpmcmc simulate` that belongs to other models' data sets only: "applies
 * only to --model lgcp or volatility", or, where the GP data sets (made without --model) take it,
 * "does not apply to --model lgcp (only to ...)".
 */
export function refuseOtherModelsSimulateOptions(model: ModelName, raw: object): void {
  const outside = optionOutsideModel(model, raw as Record<string, unknown>, "simulate");
  if (outside === undefined) return;
  if (!outside.models.includes("latent-gp")) throw new OptionError(optionName(outside.key), `applies only to --model ${orList(outside.models)}`);
  const named = outside.models.map((m) => (m === "latent-gp" ? "the GP data sets made without --model" : `--model ${m}`));
  throw new OptionError(optionName(outside.key), `does not apply to --model ${model} (only to ${orList(named, "and")})`);
}

/** The sampler `raw` names (or the model's default), refused where the model has no such sampler. */
export function modelSampler(model: ModelName, raw: string | undefined): string {
  const m = modelInfo[model];
  refuseRenamedSampler("--sampler", raw);
  const sampler = raw ?? m.defaultSampler;
  if (!m.samplers.includes(sampler)) throw new OptionError("--sampler", `${sampler} does not apply to --model ${model} (its samplers: ${m.samplers.join(", ")})`);
  return sampler;
}

/** How each sampler option's value is read. */
const SAMPLER_OPTION_PARSERS: { readonly [key: string]: (option: string, raw: string) => number } = {
  stepSize: parsePositiveNumber,
  leapfrogSteps: parsePositiveInteger,
  targetAcceptance: parseAcceptanceRate,
};

/** An acceptance rate strictly between 0 and 1. */
function parseAcceptanceRate(option: string, raw: string): number {
  const a = parsePositiveNumber(option, raw);
  if (!(a < 1)) throw new OptionError(option, `must be between 0 and 1 (exclusive), got ${JSON.stringify(raw)}`);
  return a;
}

/**
 * The sampler options of `model` given in `raw` (its registry entry's samplerOptions), read into
 * the spec fields of their names; one the sampler's spec does not have is refused, naming the
 * samplers it applies to.
 */
export function samplerOptionsGiven(model: ModelName, sampler: string, raw: object): Record<string, number> {
  const given: Record<string, number> = {};
  for (const key of modelInfo[model].samplerOptions) {
    const value = (raw as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (!modelInfo[model].samplerFields(sampler).includes(key)) {
      throw new OptionError(optionName(key), `applies only to --sampler ${samplersOfModelWithField(model, key).join(", ")}, not ${sampler}`);
    }
    given[key] = SAMPLER_OPTION_PARSERS[key](optionName(key), String(value));
  }
  if (given.targetAcceptance !== undefined && (raw as { adapt?: boolean }).adapt === false) {
    throw new OptionError("--target-acceptance", "applies only with step-size adaptation; it cannot be combined with --no-adapt");
  }
  return given;
}

/** --model's help: each model and what it is, from the registry. */
export function modelHelp(): string {
  return Object.entries(modelInfo).map(([name, m]) => `${name} (${m.description})`).join("; ");
}
