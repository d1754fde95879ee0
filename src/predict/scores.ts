/**
 * Scores of predictive probabilities against test responses: the mean log predictive density,
 * the error rate, the Brier score and the area under the ROC curve (binary responses).
 */

/** Mean of log p_j. */
export function meanLogPredictiveDensity(p: ArrayLike<number>): number {
  let s = 0;
  for (let j = 0; j < p.length; j++) s += Math.log(p[j]!);
  return s / p.length;
}

/** Binary: the fraction of test points where p(y = +1) >= 1/2 disagrees with the label (positive: +1 or 1). */
export function binaryErrorRate(pPositive: ArrayLike<number>, positive: ArrayLike<boolean>): number {
  let wrong = 0;
  for (let j = 0; j < pPositive.length; j++) if ((pPositive[j]! >= 0.5) !== positive[j]) wrong++;
  return wrong / pPositive.length;
}

/** Binary: mean of (p_j - t_j)^2 with t_j = 1 for a positive label, 0 otherwise. */
export function brierScore(pPositive: ArrayLike<number>, positive: ArrayLike<boolean>): number {
  let s = 0;
  for (let j = 0; j < pPositive.length; j++) s += (pPositive[j]! - (positive[j] ? 1 : 0)) ** 2;
  return s / pPositive.length;
}

/**
 * Binary: the area under the ROC curve, the probability that a random positive case scores above
 * a random negative one (ties count one half), from the rank sum of the positives (Mann-Whitney).
 * NaN when either class is absent.
 */
export function areaUnderRoc(score: ArrayLike<number>, positive: ArrayLike<boolean>): number {
  const n = score.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => score[a]! - score[b]!);
  const rank = new Float64Array(n);
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && score[order[j + 1]!] === score[order[i]!]) j++;
    const mid = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) rank[order[k]!] = mid;
    i = j + 1;
  }
  let nPos = 0;
  let rankSum = 0;
  for (let i = 0; i < n; i++) if (positive[i]) { nPos++; rankSum += rank[i]!; }
  const nNeg = n - nPos;
  if (nPos === 0 || nNeg === 0) return NaN;
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/** Ordinal: the fraction of test points whose most probable class (1-based) is not y. */
export function classErrorRate(classProbabilities: ArrayLike<number>, classes: number, y: ArrayLike<number>): number {
  let wrong = 0;
  for (let j = 0; j < y.length; j++) {
    let best = 0;
    for (let k = 1; k < classes; k++) if (classProbabilities[j * classes + k]! > classProbabilities[j * classes + best]!) best = k;
    if (best + 1 !== y[j]) wrong++;
  }
  return wrong / y.length;
}
