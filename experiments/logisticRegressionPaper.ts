/**
 * Girolami & Calderhead's (2011) published figures for Bayesian logistic regression (Matlab,
 * 5000 burn-in + 5000 draws, 10 runs averaged): Tables 2-10, keyed by our data-set and sampler
 * names. Tables 4-9 give (time s, min ESS, s / min-ESS) per method; "no convergence" and N/A rows
 * are absent.
 */

export type PaperRow = [time: number, minEss: number, secondsPerMinEss: number];

/** Which table holds each data set. */
export const PAPER_TABLE: Record<string, string> = {
  australian: "Table 4", german_numeric: "Table 5", pima532: "Table 6", heart_statlog: "Table 7", synth_tr: "Table 8", caravan_train: "Table 9",
};

/** Tables 4-9 (Metropolis, Aux. Var., MALA, HMC, IWLS, mMALA, mMALA Simp., RM-HMC, RM-HMC (Stud. t)). */
export const PAPER_TABLES_4_9: Record<string, Record<string, PaperRow>> = {
  australian: {
    "mh-componentwise": [9.1, 15, 0.61], "holmes-held": [757.2, 46, 16.5], iwls: [4.9, 3.7, 1.32], mmala: [11.8, 730, 0.0162],
    smmala: [2.6, 459, 0.0057], rmhmc: [115.3, 4940, 0.023], "rmhmc-t": [145.8, 1745, 0.084],
  },
  german_numeric: {
    "mh-componentwise": [20.9, 10, 2.09], "holmes-held": [1155.1, 1071, 1.08], mala: [2.7, 3, 0.9], hmc: [3161.6, 2707, 1.17], iwls: [9.37, 4, 2.34],
    mmala: [36.2, 616, 0.059], smmala: [4.1, 463, 0.009], rmhmc: [287.9, 4791, 0.06], "rmhmc-t": [360.5, 1665, 0.22],
  },
  pima532: {
    "mh-componentwise": [4.1, 14, 0.29], "holmes-held": [565.4, 1176, 0.48], mala: [1.63, 3, 0.54], hmc: [1499.1, 3149, 0.48], iwls: [3.2, 6, 0.53],
    mmala: [4.4, 1124, 0.0039], smmala: [1.9, 1022, 0.0019], rmhmc: [50.9, 5000, 0.01], "rmhmc-t": [56.0, 2090, 0.027],
  },
  heart_statlog: {
    "mh-componentwise": [5.2, 8, 0.65], "holmes-held": [281.5, 721, 0.39], hmc: [2018, 368, 5.48], iwls: [2.9, 3, 0.97],
    mmala: [6.4, 649, 0.01], smmala: [1.7, 373, 0.004], rmhmc: [59.2, 4925, 0.012], "rmhmc-t": [67.0, 936, 0.072],
  },
  synth_tr: {
    "mh-componentwise": [2.5, 11, 0.23], "holmes-held": [258.6, 72, 3.59], mala: [1.1, 4, 0.28], hmc: [52.8, 1365, 0.039], iwls: [1.7, 8, 0.21],
    mmala: [3.0, 857, 0.0035], smmala: [1.4, 682, 0.0021], rmhmc: [25.3, 4999, 0.0051], "rmhmc-t": [27.9, 813, 0.034],
  },
  caravan_train: {
    "mh-componentwise": [388.7, 3.8, 101.9], "holmes-held": [4628, 6.7, 687], mala: [17.4, 2.8, 6.2], hmc: [12519, 33.8, 369.7],
    mmala: [305.3, 7.5, 305.3], smmala: [48.9, 7.5, 6.5], rmhmc: [45760, 877, 52.1], "rmhmc-t": [45877, 279, 164],
  },
};

/** Table 2: s / min-ESS of component-wise MH keeping every k-th draw, k = 1, 2, 5, 10, 20, 50. */
export const PAPER_TABLE_2: Record<string, number[]> = {
  australian: [0.59, 0.91, 0.99, 1.03, 0.97, 0.97],
  german_numeric: [2.02, 2.87, 3.96, 4.7, 4.97, 4.84],
  pima532: [0.29, 0.35, 0.34, 0.36, 0.39, 0.38],
  heart_statlog: [0.65, 0.86, 1.2, 1.53, 1.33, 1.44],
  synth_tr: [0.22, 0.4, 0.51, 0.56, 0.56, 0.59],
};
export const TABLE_2_THINNING = [1, 2, 5, 10, 20, 50];

/** Table 3 (German credit, RM-HMC): eps L, max eps, mean time (s), min ESS, s / min-ESS (the rows the text keeps). */
export const PAPER_TABLE_3: [number, number, number, number, number][] = [
  [1, 0.5, 149.5, 637, 0.234],
  [2, 0.5, 224.7, 2085, 0.108],
  [3, 0.5, 287.9, 4791, 0.06],
];

/** Table 10: smallest and largest marginal posterior sd. */
export const PAPER_TABLE_10: Record<string, [number, number]> = {
  pima532: [0.0043, 0.9646], australian: [0.00017, 1.0667], german_numeric: [0.0038, 1.1492], heart_statlog: [0.004, 2.9221], synth_tr: [1.2575, 7.556], caravan_train: [0.042, 9.916],
};
