/** The configuration and results of the Tables 3-6 experiment (experiments/hyperTables.ts), as committed in its JSON files. */

export type HyperTable = 3 | 4 | 5 | 6;

export interface HyperTablesConfig {
  table: HyperTable;
  /**
   * The blocks of the table: Table 3 ["f"] (theta | f does not depend on the likelihood);
   * Table 4 likelihoods; Table 5 ["logistic"]; Table 6 data set names.
   */
  groups: string[];
  /** Table 3, 4: theta samplers (mh, hmc, smmala); Table 5, 6: schemes (aa, asis, khr, sa, surr). */
  methods: string[];
  /** (n, d) of the simulated data (Tables 3-5); empty for Table 6 (each data set has its own). */
  settings: { n: number; d: number }[];
  /** Simulated data sets per setting (Table 6: 1, the real data). */
  dataSets: number;
  chains: number;
  draws: number;
  burnIn: number;
  checkpoints: number[];
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

/** One method on one block and setting, over all data sets and chains. */
export interface HyperCell {
  group: string;
  method: string;
  n: number;
  d: number;
  /** Min over theta's sampled components of the single-chain Geyer ESS, every chain of every data set (data set after data set). */
  minEss: number[];
  essMean: number;
  essSd: number;
  /** Per data set, per checkpoint: max over theta's sampled components of the classic R-hat. */
  rhat: number[][];
  /** Median over data sets per checkpoint, and its code 0..3. */
  medianRhat: number[];
  codes: number[];
  /** R-hat of every sampled component of every data set at the last checkpoint (for the ordering). */
  lastRhats: number[];
  /** Of the theta update after burn-in (SURR: first slice point accepted). */
  acceptanceRate: number;
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
  cells: HyperCell[];
  /** Per block and setting: the ordering row in the paper's notation (rows 1.. = config.methods order). */
  orderings: { group: string; n: number; d: number; text: string }[];
  seconds: number;
}
