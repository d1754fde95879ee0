/**
 * The published numbers of Tables 3-6 of the comparison paper (Filippone, Zhong & Girolami,
 * Sections 4.2.2, 4.2.3, 4.3 and 5; ../shared/seeds/002_*.txt), printed beside ours by
 * experiments/hyperTables.ts. ESS is "mean (sd)" of the min ESS over 10 chains x 10 data sets
 * (Table 6: 10 chains on one data set), out of 20000 draws after 5000 burn-in. The R-hat boxes
 * did not survive the text extraction; the ordering rows are kept as extracted (the "|" of
 * "significantly faster" is often lost, so "1 2 3" may be "1|2|3").
 */

/** The columns (n, d) of Tables 3-5, in the paper's order. */
export const PAPER_HYPER_SETTINGS: readonly { n: number; d: number }[] = [
  { n: 100, d: 2 },
  { n: 100, d: 10 },
  { n: 400, d: 2 },
  { n: 400, d: 10 },
];

export const THETA_METHODS = ["mh", "hmc", "smmala"] as const;
export type ThetaMethod = (typeof THETA_METHODS)[number];

/** The paper's row order of Tables 5 and 6. */
export const SCHEME_METHODS = ["aa", "asis", "khr", "sa", "surr"] as const;
export type SchemeMethod = (typeof SCHEME_METHODS)[number];

export const METHOD_LABELS: { readonly [k: string]: string } = { mh: "MH", hmc: "HMC", smmala: "SMMALA", aa: "AA", asis: "ASIS", khr: "KHR", sa: "SA", surr: "SURR" };

/** The four likelihoods of Table 4 (and the labels of the paper). */
export const TABLE4_LIKELIHOODS = ["logistic", "poisson", "volatility", "ordinal"] as const;
export const LIKELIHOOD_LABELS: { readonly [k: string]: string } = { logistic: "LRG", poisson: "LCX", volatility: "VLT", ordinal: "ORD" };

type Ess = readonly [number, number];
/** Per method, the four settings of PAPER_HYPER_SETTINGS; ordering rows as extracted. */
interface PaperBlock {
  ess: { readonly [method: string]: readonly Ess[] };
  orderingAsExtracted: readonly string[];
}

/** Table 3: theta | f (psi only; f at its true value), one block: theta | f does not depend on y. */
export const PAPER_TABLE3: PaperBlock = {
  ess: {
    mh: [[2024, 144], [156, 37], [2124, 125], [77, 33]],
    hmc: [[11325, 915], [830, 269], [12556, 661], [293, 137]],
    smmala: [[9592, 2052], [61, 23], [10241, 2672], [47, 17]],
  },
  orderingAsExtracted: ["1 2, 3", "2 1 3", "1 2 3", "2 1 3"],
};

/** Table 4: theta | y, nu (nu at its true value), one block per likelihood. */
export const PAPER_TABLE4: { readonly [likelihood: string]: PaperBlock } = {
  logistic: {
    ess: {
      mh: [[556, 201], [131, 33], [512, 177], [56, 11]],
      hmc: [[2572, 1382], [859, 278], [2666, 973], [223, 39]],
      smmala: [[3833, 2032], [65, 42], [6877, 1584], [47, 21]],
    },
    orderingAsExtracted: ["1, 3 2", "2 1 3", "1 3 2", "1 2,3"],
  },
  poisson: {
    ess: {
      mh: [[818, 386], [6, 4], [1030, 397], [3, 1]],
      hmc: [[5169, 3297], [11, 8], [7145, 3852], [4, 3]],
      smmala: [[6158, 2788], [9, 6], [8377, 1815], [6, 4]],
    },
    orderingAsExtracted: ["3 1,2", "1,2 3", "1, 2, 3", "1, 2 3"],
  },
  volatility: {
    ess: {
      mh: [[859, 318], [22, 6], [795, 270], [8, 6]],
      hmc: [[5680, 2634], [48, 20], [5233, 2482], [11, 11]],
      smmala: [[6274, 1896], [14, 9], [6950, 2763], [11, 9]],
    },
    orderingAsExtracted: ["1, 2, 3", "1 2 3", "1,2,3", "1 2 3"],
  },
  ordinal: {
    ess: {
      mh: [[689, 159], [14, 7], [552, 168], [9, 6]],
      hmc: [[155, 296], [14, 11], [79, 115], [4, 4]],
      smmala: [[3356, 1661], [11, 8], [2328, 1423], [19, 27]],
    },
    orderingAsExtracted: ["1, 3 2", "1, 3 2", "1, 3 2", "1, 3 2"],
  },
};

/** Table 5: the five schemes on LRG data, with its complexity columns (#I, #C over T iterations). */
export const PAPER_TABLE5: PaperBlock & { complexity: { readonly [method: string]: string } } = {
  ess: {
    aa: [[131, 57], [117, 34], [94, 38], [47, 17]],
    asis: [[138, 63], [168, 49], [98, 39], [60, 25]],
    khr: [[856, 360], [177, 48], [481, 219], [116, 32]],
    sa: [[8, 6], [59, 18], [5, 2], [14, 6]],
    surr: [[173, 95], [90, 32], [157, 51], [35, 15]],
  },
  orderingAsExtracted: ["3 5 1,2 4", "1, 2 3, 4, 5", "3 5 1,2 4", "2, 3 1 4, 5"],
  complexity: { aa: "#I 0, #C T", asis: "#I 0, #C 2T", khr: "#I 0, #C (kappa+2)T", sa: "#I 0, #C T", surr: "#I T, #C 2T" },
};

/** The four UCI data sets of Table 6, the paper's (n, d), and the files we read (data/). */
export const TABLE6_DATA_SETS = [
  { name: "pima", label: "Pima", n: 768, d: 8, file: "data/pima768.csv" },
  { name: "wisconsin", label: "Wisconsin", n: 683, d: 9, file: "data/breast_cancer_wisconsin683.csv" },
  { name: "spect", label: "SPECT", n: 80, d: 22, file: "data/spect_train.csv" },
  { name: "ionosphere", label: "Ionosphere", n: 351, d: 34, file: "data/ionosphere.csv" },
] as const;

/** Table 6: per data set, per scheme (no ordering row in the paper). */
export const PAPER_TABLE6: { readonly [dataSet: string]: { readonly [method: string]: Ess } } = {
  pima: { aa: [34, 4], asis: [35, 8], khr: [153, 14], sa: [5, 2], surr: [76, 10] },
  wisconsin: { aa: [42, 15], asis: [47, 11], khr: [20, 10], sa: [7, 3], surr: [25, 14] },
  spect: { aa: [99, 18], asis: [215, 23], khr: [101, 16], sa: [97, 12], surr: [84, 14] },
  ionosphere: { aa: [12, 5], asis: [24, 8], khr: [2, 2], sa: [11, 7], surr: [9, 4] },
};

/**
 * Table 1's O(n^3) counts per iteration (#M products, #I inversions, #C Cholesky), lambda the
 * mean number of leapfrog steps, for the samplers of theta | f (Table 3) and theta | y, nu (Table 4).
 */
export const PAPER_TABLE1: { readonly [table: number]: { readonly [method: string]: string } } = {
  3: { mh: "#M 0, #I 0, #C 1", hmc: "#M 0, #I lambda, #C 1", smmala: "#M d, #I 1, #C 1" },
  4: { mh: "#M 0, #I 0, #C 1", hmc: "#M 0, #I 0, #C 1 + d lambda", smmala: "#M 0, #I 0, #C 1 + d" },
};

/** The paper's ESS (mean, sd) of a cell, if it has one. */
export function paperHyperEss(table: number, group: string, method: string, n: number, d: number): Ess | undefined {
  if (table === 6) return PAPER_TABLE6[group]?.[method];
  const k = PAPER_HYPER_SETTINGS.findIndex((s) => s.n === n && s.d === d);
  if (k < 0) return undefined;
  const block = table === 3 ? PAPER_TABLE3 : table === 4 ? PAPER_TABLE4[group] : PAPER_TABLE5;
  return block?.ess[method]?.[k];
}

/** The paper's ordering row (as extracted) of a block and setting, if it has one. */
export function paperHyperOrdering(table: number, group: string, n: number, d: number): string | undefined {
  const k = PAPER_HYPER_SETTINGS.findIndex((s) => s.n === n && s.d === d);
  if (k < 0 || table === 6) return undefined;
  const block = table === 3 ? PAPER_TABLE3 : table === 4 ? PAPER_TABLE4[group] : PAPER_TABLE5;
  return block?.orderingAsExtracted[k];
}
