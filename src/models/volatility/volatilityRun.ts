/**
 * The stochastic volatility model's run (Girolami & Calderhead 2011, Section 8) as the model
 * registry declares it: the returns y of a data file (column y, an optional increasing time column
 * t), the defaults of its two-block Gibbs sampler (gibbs.ts) and of the interweaving block, the
 * target (the returns and the chains' starting point, svInitialPoint), and the Gibbs sampler named
 * P,V (one sampler for the parameters, one for the volatilities) or P (both).
 */
import { readDataset } from "../../io/dataset.js";
import { DataError } from "../../io/errors.js";
import type { ModelRun, ModelSampler } from "../modelRun.js";
import { isSvSamplerName, svGibbsKernel, svInitialPoint, type SvBlockChoice, type SvGibbsOptions, type SvSamplerName } from "./gibbs.js";
import { SV_MIN_OBSERVATIONS } from "./svModel.js";

/** The model's own option (`--interweave`). */
export interface VolatilityRunOptions {
  /** After the two blocks, the interweaving block of (sigma, phi) with the innovations fixed (interweave.ts). */
  interweave: boolean;
}

/**
 * Without a sampler named: RMHMC for both blocks with 3 leapfrog steps for the parameters and 10
 * for the volatilities (the paper: 10 and 50), and the interweaving block. Why this configuration:
 * EXPERIMENTS.md, "Stochastic volatility".
 */
export const SV_DEFAULT = { samplers: ["rmhmc", "rmhmc"] as [SvSamplerName, SvSamplerName], leapfrogSteps: [3, 10] as [number, number], interweave: true };

/** The returns and where chains start. */
export interface VolatilityTarget {
  readonly y: Float64Array;
  readonly init: Float64Array;
  readonly interweave: boolean;
}

/** Each block's step size, leapfrog steps and adaptation, the interweaving block's scale and adaptation (the block is there when the target's interweave is), whether the blocks adapt in the chain's burn-in (default true). */
export type VolatilitySamplerOptions = Partial<Omit<SvGibbsOptions, "parameters" | "volatilities">> & {
  parameters?: Omit<SvBlockChoice, "sampler">;
  volatilities?: Omit<SvBlockChoice, "sampler">;
};

/** The returns y of a volatility data file, checked: at least SV_MIN_OBSERVATIONS rows, columns y and optionally t (increasing). */
export function readReturns(file: string): Float64Array {
  // every column read as an input (numbers checked cell by cell), so that a file of y alone is valid
  const data = readDataset(file, { responseColumn: "", responseOptional: true });
  const column = (name: string) => {
    const j = data.inputNames.indexOf(name);
    return j < 0 ? undefined : data.X.data.slice(j * data.n, (j + 1) * data.n);
  };
  const y = column("y");
  if (y === undefined) throw new DataError({ file, line: 1 }, `no column "y" (the returns) in the header (columns: ${data.inputNames.join(", ")})`);
  const others = data.inputNames.filter((n) => n !== "t" && n !== "y");
  if (others.length > 0) throw new DataError({ file, line: 1 }, `the volatility model reads the returns y (and an optional time column t); unexpected column ${JSON.stringify(others[0])}`);
  if (data.n < SV_MIN_OBSERVATIONS) throw new DataError({ file }, `${data.n} returns; the volatility model needs at least ${SV_MIN_OBSERVATIONS} (below that its parameter metric is not positive definite everywhere)`);
  const t = column("t");
  if (t !== undefined) {
    for (let i = 1; i < data.n; i++) {
      if (!(t[i] > t[i - 1])) throw new DataError({ file, line: i + 2, columnName: "t" }, `t must increase (rows in time order), got ${t[i]} after ${t[i - 1]}`);
    }
  }
  return y;
}

export const volatilityRun: ModelRun<Float64Array, VolatilityRunOptions, VolatilityTarget, VolatilitySamplerOptions, ModelSampler & { kernel: ReturnType<typeof svGibbsKernel> }> = {
  defaults: { interweave: SV_DEFAULT.interweave },
  readData: readReturns,
  buildTarget: (y, options = {}) => ({ y, init: svInitialPoint(y), interweave: options.interweave ?? SV_DEFAULT.interweave }),
  sampler(target, name, options = {}) {
    const names = name.split(",");
    if (names.length > 2 || !names.every(isSvSamplerName)) throw new RangeError(`volatility: the sampler is P,V or one for both blocks, each of rmhmc, mmala, mala, hmc; got ${JSON.stringify(name)}`);
    const [p, v] = [names[0] as SvSamplerName, names[names.length - 1] as SvSamplerName];
    const { parameters, volatilities, interweave, adapt = true, ...prior } = options;
    const kernel = svGibbsKernel(target.y, {
      ...prior,
      parameters: { sampler: p, ...parameters }, volatilities: { sampler: v, ...volatilities },
      ...(target.interweave ? { interweave: interweave ?? {} } : {}),
      adapt,
    });
    return { kernel, init: target.init, adapt: undefined };
  },
};
