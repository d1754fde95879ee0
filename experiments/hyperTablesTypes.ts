/** The configuration and results of the Tables 3-6 experiment (experiments/hyperTables.ts), as committed in its JSON files. */
import type { ChainGridSizes, ConvergenceCellFigures } from "./table2Types.js";

export type HyperTable = 3 | 4 | 5 | 6;

/** Sizes as Table 2's; settings are empty for Table 6 (each data set has its own (n, d)) and dataSets is 1 there (the real data). */
export interface HyperTablesConfig extends ChainGridSizes {
  table: HyperTable;
  /**
   * The blocks of the table: Table 3 ["f"] (theta | f does not depend on the likelihood);
   * Table 4 likelihoods; Table 5 ["logistic"]; Table 6 data set names.
   */
  groups: string[];
  /** Table 3, 4: theta samplers (mh, hmc, smmala); Table 5, 6: schemes (aa, asis, khr, sa, surr). */
  methods: string[];
  /** Updates of f per iteration (Tables 5, 6: the paper's 1 and 5). */
  latentUpdates: number;
  seed: number;
}

/** O(n^3) operations per iteration after burn-in: Cholesky factorisations, triangular solves with n x n right-hand sides (two make an inversion), n x n products. */
export interface CellOps {
  cholesky: number;
  solves: number;
  products: number;
}

/**
 * One method on one block and setting, over all data sets and chains. Its variables are theta's
 * sampled components (min ESS: the single-chain Geyer ESS); the acceptance rate is that of the
 * theta update after burn-in (SURR: first slice point accepted).
 */
export interface HyperCell extends ConvergenceCellFigures {
  group: string;
  method: string;
  ops: CellOps;
  /** Mean leapfrog steps (HMC) or density evaluations (SURR's slice) per theta update after burn-in. */
  stepsPerUpdate: number;
  /** Milliseconds per iteration after burn-in (all chains and data sets). */
  msPerIteration: number;
  /** All chains and data sets, burn-in included. */
  seconds: number;
}

export interface HyperTablesResult {
  config: HyperTablesConfig;
  backend: string;
  /** OpenBLAS's core where recorded (see experimentScript.ts' ArithmeticRecord). */
  blasCore?: string;
  cells: HyperCell[];
  /** Per block and setting: the ordering row in the paper's notation (rows 1.. = config.methods order). */
  orderings: { group: string; n: number; d: number; text: string }[];
  seconds: number;
}
