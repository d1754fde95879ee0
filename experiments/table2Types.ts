/** The configuration and results of the Table 2 experiment (experiments/table2.ts), as committed in its JSON files. */
import type { PaperModel, PaperSampler } from "./table2Paper.js";

/** The sizes of a grid of chains on simulated data (Table 2, Tables 3-6): settings, data sets, chains and their lengths, R-hat checkpoints. */
export interface ChainGridSizes {
  settings: { n: number; d: number }[];
  dataSets: number;
  chains: number;
  draws: number;
  burnIn: number;
  checkpoints: number[];
}

export interface Table2Config extends ChainGridSizes {
  likelihoods: PaperModel[];
  samplers: PaperSampler[];
  seed: number;
}

/**
 * The convergence and efficiency figures of one cell of the comparison paper's tables (Table 2
 * over the latent values; Tables 3-6 over theta's sampled components), over all data sets.
 */
export interface ConvergenceCellFigures {
  n: number;
  d: number;
  /** Min ESS of every chain of every data set (data set after data set). */
  minEss: number[];
  essMean: number;
  essSd: number;
  /** Per data set, per checkpoint: max over the cell's variables of the classic R-hat. */
  rhat: number[][];
  /** Median over data sets per checkpoint, and its code 0..3. */
  medianRhat: number[];
  codes: number[];
  /** R-hat of every variable of every data set at the last checkpoint (for the ordering). */
  lastRhats: number[];
  acceptanceRate: number;
}

/** One sampler on one (likelihood, n, d) cell, over all data sets. */
export interface Table2Cell extends ConvergenceCellFigures {
  likelihood: PaperModel;
  sampler: PaperSampler;
  /** Sampling plus burn-in seconds, all chains and data sets. */
  seconds: number;
}

export interface Table2Result {
  config: Table2Config;
  backend: string;
  /** OpenBLAS's core where recorded (see experimentScript.ts' ArithmeticRecord). */
  blasCore?: string;
  cells: Table2Cell[];
  /** Per likelihood and setting: the ordering row in the paper's notation (rows 1..6 = config.samplers order). */
  orderings: { likelihood: PaperModel; n: number; d: number; text: string }[];
  seconds: number;
}
