/**
 * log Gamma(x) for x > 0 and log n! for integers n >= 0.
 *
 * For x >= 15 Stirling's series log Gamma(x) = (x - 1/2) log x - x + log sqrt(2 pi)
 * + sum_k B_2k / (2k (2k - 1) x^(2k-1)) is summed to the x^-9 term; the first omitted term,
 * 691 / (360360 x^11), is below 2.3e-16 there. Smaller x are shifted up by the recurrence
 * Gamma(x) = Gamma(x + k) / (x (x + 1) ... (x + k - 1)). Integers below 21 use the exact
 * factorial (20! < 2^63 has few enough significant bits to be exact in float64).
 */

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

function stirling(x: number): number {
  const r = 1 / x;
  const r2 = r * r;
  // B2/(1*2), B4/(3*4), B6/(5*6), B8/(7*8), B10/(9*10)
  const series = r * (1 / 12 + r2 * (-1 / 360 + r2 * (1 / 1260 + r2 * (-1 / 1680 + r2 * (1 / 1188)))));
  return (x - 0.5) * Math.log(x) - x + LOG_SQRT_2PI + series;
}

const EXACT_FACTORIALS: number[] = (() => {
  const t = [1];
  for (let n = 1; n <= 20; n++) t.push(t[n - 1] * n);
  return t;
})();

/** log Gamma(x) for x > 0 (NaN for x <= 0 or NaN; Infinity for x = Infinity). */
export function logGamma(x: number): number {
  if (!(x > 0)) return NaN;
  if (x === Infinity) return Infinity;
  if (Number.isInteger(x) && x <= 21) return Math.log(EXACT_FACTORIALS[x - 1]);
  if (x >= 15) return stirling(x);
  let prod = 1;
  let z = x;
  while (z < 15) {
    prod *= z;
    z += 1;
  }
  return stirling(z) - Math.log(prod);
}

/** log n! for a non-negative integer n (NaN otherwise). */
export function logFactorial(n: number): number {
  if (!(n >= 0) || !Number.isInteger(n)) return NaN;
  if (n <= 20) return Math.log(EXACT_FACTORIALS[n]);
  return stirling(n + 1);
}
