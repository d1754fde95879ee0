/**
 * Table 2 of Filippone, Zhong & Girolami ("A comparative evaluation of stochastic-based
 * inference methods for Gaussian process models"), transcribed from the extracted text of the
 * paper (shared/seeds/002_*.txt): sampling f | y, theta with theta at its true value, min ESS
 * over the n latent values, mean (sd) over 10 chains x 10 data sets, 20000 draws after 5000
 * burn-in.
 *
 * What the extraction lost: the R-hat convergence codes (stacked boxes in the paper) come out as
 * blank cells or stray glyphs, so they are not transcribed; in the ordering row the "|"
 * separators (significantly faster) merged with the cell boundaries, so the rows are kept as
 * extracted (a tab marks where a cell boundary fell), not interpreted. The ESS figures are
 * legible in every cell.
 */

/** Rows of the table, in the paper's order (row k of the ordering notation is ROWS[k - 1]). */
export const PAPER_SAMPLERS = ["mh-v1", "mh-v2", "smmala", "ess", "hmc-v1", "hmc-v2"] as const;
export type PaperSampler = (typeof PAPER_SAMPLERS)[number];
export const PAPER_SAMPLER_LABELS: Record<PaperSampler, string> = {
  "mh-v1": "MH v1", "mh-v2": "MH v2", "smmala": "SMMALA", "ess": "ELL-SS", "hmc-v1": "HMC v1", "hmc-v2": "HMC v2",
};

/** The four models: the paper's abbreviation and our likelihood name. */
export const PAPER_MODELS = [
  { label: "LRG", likelihood: "logistic" },
  { label: "LCX", likelihood: "poisson" },
  { label: "VLT", likelihood: "volatility" },
  { label: "ORD", likelihood: "ordinal" },
] as const;
export type PaperModel = (typeof PAPER_MODELS)[number]["likelihood"];

/** The (n, d) settings, in the paper's column order. */
export const PAPER_SETTINGS: readonly { n: number; d: number }[] = [
  { n: 100, d: 2 }, { n: 100, d: 10 }, { n: 400, d: 2 }, { n: 400, d: 10 },
];

/** Min ESS [mean, sd] per sampler, one pair per setting in PAPER_SETTINGS order. */
export type EssRow = readonly (readonly [number, number])[];

export const PAPER_TABLE2: Record<PaperModel, { ess: Record<PaperSampler, EssRow>; orderingAsExtracted: readonly string[] }> = {
  logistic: {
    ess: {
      "mh-v1": [[67, 15], [47, 3], [22, 7], [8, 1]],
      "mh-v2": [[204, 35], [151, 7], [67, 17], [30, 2]],
      "smmala": [[756, 284], [262, 30], [457, 212], [48, 5]],
      "ess": [[321, 61], [241, 11], [104, 25], [50, 2]],
      "hmc-v1": [[3395, 400], [5163, 268], [1352, 380], [2962, 155]],
      "hmc-v2": [[4004, 577], [5225, 224], [1566, 342], [2995, 129]],
    },
    orderingAsExtracted: ["6 5 3 4 2\t1", "6 5 3,4 2\t1", "6 5 3 4 2\t1", "6 5 4 3 2\t1"],
  },
  poisson: {
    ess: {
      "mh-v1": [[18, 16], [6, 2], [6, 5], [1, 0]],
      "mh-v2": [[23, 24], [6, 2], [8, 7], [1, 0]],
      "smmala": [[217, 155], [39, 4], [258, 177], [7, 1]],
      "ess": [[39, 42], [11, 4], [11, 11], [2, 0]],
      "hmc-v1": [[372, 277], [188, 123], [199, 200], [81, 30]],
      "hmc-v2": [[254, 197], [188, 125], [64, 37], [80, 30]],
    },
    orderingAsExtracted: ["6 5 3 4 2\t1", "6 5 3 4 1\t, 2", "5 3, 6 4 2\t1", "6 5 3 4\t2 1"],
  },
  volatility: {
    ess: {
      "mh-v1": [[28, 13], [10, 2], [15, 8], [2, 0]],
      "mh-v2": [[31, 16], [12, 2], [16, 8], [2, 0]],
      "smmala": [[424, 216], [117, 13], [418, 127], [61, 7]],
      "ess": [[46, 20], [18, 4], [22, 10], [4, 1]],
      "hmc-v1": [[1494, 667], [449, 42], [1384, 392], [249, 25]],
      "hmc-v2": [[418, 68], [443, 39], [183, 31], [245, 25]],
    },
    orderingAsExtracted: ["4 3 2 1, 5,\t6", "3 4 2 1,5\t5, 6", "3, 4 2 1, 5\t, 6", "3 6 4,5 2\t2 1"],
  },
  ordinal: {
    ess: {
      "mh-v1": [[14, 8], [6, 2], [7, 5], [1, 0]],
      "mh-v2": [[14, 9], [7, 2], [7, 5], [2, 0]],
      "smmala": [[48, 89], [2, 0], [107, 156], [1, 0]],
      "ess": [[21, 11], [10, 2], [9, 5], [2, 0]],
      "hmc-v1": [[539, 650], [472, 39], [176, 200], [257, 23]],
      "hmc-v2": [[175, 54], [483, 37], [61, 22], [255, 24]],
    },
    orderingAsExtracted: ["65341\t, 2", "6 5 4 2\t1 3", "6 5 3 4 1\t, 2", "6 5 2,4 1\t1,3"],
  },
};

/** The paper's [mean, sd] for one cell, or undefined for a setting the paper does not have. */
export function paperEss(likelihood: PaperModel, sampler: PaperSampler, n: number, d: number): readonly [number, number] | undefined {
  const k = PAPER_SETTINGS.findIndex((s) => s.n === n && s.d === d);
  return k < 0 ? undefined : PAPER_TABLE2[likelihood].ess[sampler][k];
}
