/**
 * The log-Gaussian Cox process's run (Girolami & Calderhead 2011, Section 9) as the model
 * registry declares it: the counts on a square grid (io/countGrid.ts), the hyperparameters'
 * defaults (Section 9.1: sigma^2 = 1.91, beta = 1/33, mu = log(126) - sigma^2/2, which follows a
 * given sigma^2) and the paper's Euclidean covariance, the field's model on either covariance
 * (fieldModel.ts), and the field's samplers (samplers.ts).
 */
import { readCountGrid, type CountGrid } from "../../io/countGrid.js";
import type { ModelRun } from "../modelRun.js";
import { paperMu, PAPER_BETA, PAPER_SIGMA2, type CoxHyperparameters } from "./coxProcess.js";
import { coxFieldModel, DEFAULT_GRID_COVARIANCE, type CoxModel } from "./fieldModel.js";
import type { GridDistance } from "./gridCovariance.js";
import { coxProcessSampler, isCoxProcessSamplerName, type CoxProcessSampler, type CoxProcessSamplerOptions } from "./samplers.js";

/** The model's options: the hyperparameters of the field and the grid's distance (`--sigma2`, `--beta`, `--mu`, `--covariance`). */
export interface CoxProcessRunOptions extends CoxHyperparameters {
  covariance: GridDistance;
}

export const COX_PROCESS_DEFAULTS: Readonly<CoxProcessRunOptions> = { sigma2: PAPER_SIGMA2, beta: PAPER_BETA, mu: paperMu(PAPER_SIGMA2), covariance: DEFAULT_GRID_COVARIANCE };

/** The options over their defaults; mu not given follows sigma^2 (log(126) - sigma^2/2, as Section 9.1 sets it). */
export function coxProcessRunOptions(given: Partial<CoxProcessRunOptions> = {}): CoxProcessRunOptions {
  const sigma2 = given.sigma2 ?? COX_PROCESS_DEFAULTS.sigma2;
  return { sigma2, beta: given.beta ?? COX_PROCESS_DEFAULTS.beta, mu: given.mu ?? paperMu(sigma2), covariance: given.covariance ?? COX_PROCESS_DEFAULTS.covariance };
}

export const coxProcessRun: ModelRun<Pick<CountGrid, "side" | "counts">, CoxProcessRunOptions, CoxModel, CoxProcessSamplerOptions, CoxProcessSampler> = {
  defaults: COX_PROCESS_DEFAULTS,
  readData: readCountGrid,
  buildTarget(grid, options) {
    const { sigma2, beta, mu, covariance } = coxProcessRunOptions(options);
    return coxFieldModel(grid.side, grid.counts, { sigma2, beta, mu }, covariance);
  },
  sampler(model, name, options) {
    if (!isCoxProcessSamplerName(name)) throw new RangeError(`lgcp has no sampler ${JSON.stringify(name)}`);
    return coxProcessSampler(model, name, options);
  },
};
