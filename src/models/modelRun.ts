/**
 * How a model of the registry (registry.ts) declares its run, once for the command line, the
 * grid's jobs and the library alike: its data reader, its options' defaults as data, the target
 * built from its data and options, and its samplers by name on that target. Read data -> build
 * target -> sampler -> chains:
 *
 *   const m = modelInfo["logistic-regression"];
 *   const target = m.buildTarget(m.readData("data.csv"), { polynomialDegree: 2 });
 *   const { kernel, init, adapt } = m.sampler(target, "rmhmc", { burnIn: 500 });
 */
import type { AdaptOptions } from "../samplers/chain/adaptation.js";
import { buildParametricSampler, isParametricSamplerName, parametricSamplerSpec, type ParametricSamplerSpec } from "../samplers/parametricRegistry.js";
import type { Kernel } from "../samplers/types.js";
import type { DenseMetricTarget } from "../targets/denseMetric.js";

/** A model's sampler on its target: the kernel, where its chains start, and its burn-in adaptation (undefined: none). */
export interface ModelSampler {
  readonly kernel: Kernel;
  readonly init: Float64Array;
  readonly adapt: AdaptOptions | undefined;
}

export interface ModelRun<Data, Options, Target, SamplerOptions, Sampler extends ModelSampler = ModelSampler> {
  /** The value of each option a run does not give. */
  readonly defaults: Readonly<Options>;
  /** Reads the model's data file; a bad file is a DataError naming the file, line and column. */
  readData(path: string): Data;
  /** The model's target from its data and options (an option not given: its default). */
  buildTarget(data: Data, options?: Partial<Options>): Target;
  /** The sampler `name` (one of the model's samplers) on the target, with the given options over its defaults. */
  sampler(target: Target, name: string, options?: SamplerOptions): Sampler;
}

/** A parametric sampler's given spec fields, the burn-in length (the component-wise scales adapt over it) and whether the step size adapts (default true). */
export type ParametricModelSamplerOptions = Partial<Omit<ParametricSamplerSpec, "sampler">> & { burnIn?: number; adapt?: boolean };

/** The parametric sampler `name` on a dense-metric target from `init`, over the preset of `model` when it has one (samplers/parametricRegistry.ts). */
export function parametricModelSampler(target: DenseMetricTarget, init: Float64Array, model: string, name: string, options: ParametricModelSamplerOptions = {}, preset = false): ModelSampler {
  if (!isParametricSamplerName(name)) throw new RangeError(`${model} has no sampler ${JSON.stringify(name)}`);
  const { burnIn = 0, adapt = true, ...given } = options;
  const spec = parametricSamplerSpec(name, given, preset ? model : undefined);
  const { kernel, adapt: adaptation } = buildParametricSampler(target, spec, { init, burnIn }, adapt);
  return { kernel, init, adapt: adaptation };
}

/** The options given (those undefined left out) over the defaults. */
export function withDefaults<O extends object>(defaults: Readonly<O>, given: Partial<O> = {}): O {
  return { ...defaults, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) } as O;
}
