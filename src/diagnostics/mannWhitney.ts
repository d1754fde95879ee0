/**
 * The Mann-Whitney U test (Wilcoxon rank-sum test) of two independent samples, and the
 * ordering of several methods by pairwise tests that the comparison paper prints under its
 * tables (Filippone, Zhong & Girolami, sec. 4.1: pairwise Mann-Whitney tests at level 0.05).
 *
 * U_x = R_x - n_x (n_x + 1) / 2, R_x the sum of the ranks of x in the pooled sample (ties
 * get average ranks), i.e. the number of pairs with x_i > y_j plus half the tied pairs. It is
 * R's wilcox.test statistic W and scipy's mannwhitneyu U1.
 *
 * Normal approximation (Hollander & Wolfe 1999, sec. 4.1; Lehmann 1975, ch. 1 sec. 4):
 *   E U = n_x n_y / 2,
 *   var U = n_x n_y / 12 ((N + 1) - sum_ties (t^3 - t) / (N (N - 1))),   N = n_x + n_y,
 * with a continuity correction of 1/2 towards the mean by default (as R and scipy).
 * Exact: the null distribution of U without ties, by the recursion
 *   P_{m,n}(u) = m/(m+n) P_{m-1,n}(u - n) + n/(m+n) P_{m,n-1}(u)
 * (Mann & Whitney 1947, eq. 2, on probabilities rather than counts so nothing overflows).
 */
import { normalCdf } from "../math/index.js";
import { DiagnosticsInputError } from "./errors.js";

export type Alternative = "two-sided" | "less" | "greater";

export interface MannWhitneyOptions {
  /** "greater": x tends to be larger than y; "less": smaller. Default "two-sided". */
  alternative?: Alternative;
  /**
   * "exact" (no ties allowed), "asymptotic", or "auto" (the default): exact when there are no
   * ties and both samples have fewer than 50 values, as R's wilcox.test does.
   */
  method?: "auto" | "exact" | "asymptotic";
  /** Continuity correction in the normal approximation (default true). */
  continuity?: boolean;
}

export interface MannWhitneyResult {
  /** U for the first sample: #(x_i > y_j) + #(x_i = y_j) / 2. */
  readonly u: number;
  /** U for the second sample: n_x n_y - u. */
  readonly uY: number;
  /** The standardised statistic of the normal approximation (NaN when exact). */
  readonly z: number;
  readonly pValue: number;
  readonly method: "exact" | "asymptotic";
  readonly alternative: Alternative;
  /** Whether any values were tied. */
  readonly ties: boolean;
}

export function mannWhitneyU(x: ArrayLike<number>, y: ArrayLike<number>, options: MannWhitneyOptions = {}): MannWhitneyResult {
  const alternative = options.alternative ?? "two-sided";
  const method = options.method ?? "auto";
  const continuity = options.continuity ?? true;
  if (alternative !== "two-sided" && alternative !== "less" && alternative !== "greater") {
    throw new DiagnosticsInputError("bad-argument", `mannWhitneyU: unknown alternative "${String(alternative)}"`);
  }
  if (method !== "auto" && method !== "exact" && method !== "asymptotic") {
    throw new DiagnosticsInputError("bad-argument", `mannWhitneyU: unknown method "${String(method)}"`);
  }
  const nx = x.length, ny = y.length;
  if (nx < 1 || ny < 1) throw new DiagnosticsInputError("too-few-draws", `mannWhitneyU: both samples need at least one value (got ${nx} and ${ny})`);
  for (const [name, s] of [["x", x], ["y", y]] as const) {
    for (let i = 0; i < s.length; i++) {
      if (Number.isNaN(s[i])) throw new DiagnosticsInputError("bad-argument", `mannWhitneyU: ${name}[${i}] is NaN`);
    }
  }
  // Pooled ranks with ties averaged, and the tie term sum (t^3 - t).
  const n = nx + ny;
  const order = Array.from({ length: n }, (_, i) => i);
  const value = (i: number): number => (i < nx ? x[i] : y[i - nx]);
  order.sort((a, b) => value(a) - value(b));
  let rankSumX = 0;
  let tieTerm = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && value(order[j + 1]) === value(order[i])) j++;
    const t = j - i + 1;
    const averageRank = (i + 1 + j + 1) / 2;
    for (let k = i; k <= j; k++) if (order[k] < nx) rankSumX += averageRank;
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  const u = rankSumX - (nx * (nx + 1)) / 2;
  const uY = nx * ny - u;
  const ties = tieTerm > 0;
  const useExact = method === "exact" || (method === "auto" && !ties && nx < 50 && ny < 50);
  if (useExact) {
    if (ties) throw new DiagnosticsInputError("bad-argument", "mannWhitneyU: the exact test needs samples without ties; use method \"asymptotic\"");
    const dist = exactDistribution(nx, ny);
    let upper = 0; // P(U >= u)
    let lower = 0; // P(U <= u)
    for (let k = 0; k < dist.length; k++) {
      if (k >= u) upper += dist[k];
      if (k <= u) lower += dist[k];
    }
    const p = alternative === "greater" ? upper : alternative === "less" ? lower : Math.min(1, 2 * Math.min(upper, lower));
    return { u, uY, z: NaN, pValue: Math.min(1, p), method: "exact", alternative, ties };
  }
  const mu = (nx * ny) / 2;
  const variance = ((nx * ny) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (!(variance > 0)) {
    // Every value tied: no evidence of a difference either way.
    return { u, uY, z: 0, pValue: 1, method: "asymptotic", alternative, ties };
  }
  const sd = Math.sqrt(variance);
  const cc = continuity ? 0.5 : 0;
  let z: number, p: number;
  if (alternative === "greater") {
    z = (u - mu - cc) / sd;
    p = normalCdf(-z);
  } else if (alternative === "less") {
    z = (u - mu + cc) / sd;
    p = normalCdf(z);
  } else {
    const d = u - mu;
    z = (d - Math.sign(d) * cc) / sd;
    if (Math.abs(d) <= cc) z = 0; // the correction does not cross the mean
    p = Math.min(1, 2 * normalCdf(-Math.abs(z)));
  }
  return { u, uY, z, pValue: p, method: "asymptotic", alternative, ties };
}

/** P(U = u), u = 0 .. m n, for samples of sizes m and n without ties. */
export function exactDistribution(m: number, n: number): Float64Array {
  // layer[i] holds P_{i,j}(.) for the current j, i = 0 .. m; P_{i,0} and P_{0,j} are a point mass at 0.
  let layer: Float64Array[] = Array.from({ length: m + 1 }, () => Float64Array.of(1));
  for (let j = 1; j <= n; j++) {
    const next: Float64Array[] = [Float64Array.of(1)];
    for (let i = 1; i <= m; i++) {
      const p = new Float64Array(i * j + 1);
      const a = next[i - 1]; // P_{i-1,j}: the largest value is the x's (adds j to U)
      const b = layer[i]; // P_{i,j-1}: the largest value is a y (adds nothing)
      const wa = i / (i + j), wb = j / (i + j);
      for (let k = 0; k < a.length; k++) p[k + j] += wa * a[k];
      for (let k = 0; k < b.length; k++) p[k] += wb * b[k];
      next.push(p);
    }
    layer = next;
  }
  return layer[m];
}

export interface MethodOrdering {
  /** Method indices (0-based), best first. */
  readonly order: number[];
  /**
   * separated[k]: whether order[k] is significantly better than order[k + 1] (one-sided
   * Mann-Whitney test at level alpha).
   */
  readonly separated: boolean[];
  /** The ordering in the paper's notation: labels best first, "|" where separated, "," where not. */
  readonly text: string;
  /** pValues[i][j]: one-sided p-value for "method i is better than method j". */
  readonly pValues: number[][];
}

/**
 * Orders methods (each a sample of, e.g., R-hat at the last checkpoint or min ESS) by their
 * medians, best first, and marks where a method is significantly better than the next by a
 * one-sided Mann-Whitney test (asymptotic with continuity correction, or exact when small and
 * untied). Labels default to "1", "2", ... (the rows of the paper's tables).
 */
export function orderMethods(
  samples: readonly ArrayLike<number>[],
  options: { better: "smaller" | "larger"; alpha?: number; labels?: readonly string[] },
): MethodOrdering {
  const alpha = options.alpha ?? 0.05;
  if (options.better !== "smaller" && options.better !== "larger") {
    throw new DiagnosticsInputError("bad-argument", `orderMethods: better must be "smaller" or "larger", got "${String(options.better)}"`);
  }
  if (!(alpha > 0 && alpha < 1)) throw new DiagnosticsInputError("bad-argument", `orderMethods: alpha must be in (0, 1), got ${alpha}`);
  const k = samples.length;
  if (k < 1) throw new DiagnosticsInputError("no-chains", "orderMethods: no methods given");
  const labels = options.labels ?? samples.map((_, i) => String(i + 1));
  if (labels.length !== k) throw new DiagnosticsInputError("bad-argument", `orderMethods: ${labels.length} labels for ${k} methods`);
  const betterAlt: Alternative = options.better === "smaller" ? "less" : "greater";
  const pValues = samples.map((a, i) => samples.map((b, j) => (i === j ? 1 : mannWhitneyU(a, b, { alternative: betterAlt }).pValue)));
  const medians = samples.map((s) => {
    const v = Float64Array.from(s).sort();
    const h = (v.length - 1) / 2;
    return (v[Math.floor(h)] + v[Math.ceil(h)]) / 2;
  });
  const sign = options.better === "smaller" ? 1 : -1;
  const order = medians.map((_, i) => i).sort((a, b) => sign * (medians[a] - medians[b]) || a - b);
  const separated = order.slice(0, -1).map((a, idx) => pValues[a][order[idx + 1]] < alpha);
  let text = labels[order[0]];
  for (let idx = 1; idx < k; idx++) text += (separated[idx - 1] ? "|" : ",") + labels[order[idx]];
  return { order, separated, text, pValues };
}
