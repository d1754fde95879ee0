/**
 * Gauss-Hermite quadrature for expectations under a normal distribution:
 *
 *   E[g(X)], X ~ N(m, v)  ~=  sum_k w_k g(m + sqrt(v) z_k),
 *
 * with nodes z_k and weights w_k (summing to 1) of the rule for the weight exp(-z^2 / 2) (the
 * "probabilists'" form), exact for polynomials g of degree up to 2N - 1. The nodes are the roots
 * of the probabilists' Hermite polynomial He_N, found by Newton's method from the asymptotic
 * starting values of the physicists' polynomial H_N (He_N(z) = 2^(-N/2) H_N(z / sqrt 2)), using
 * the normalised three-term recurrence so that no factorial overflows; w_k = 1 / (N p_{N-1}(z_k)^2)
 * for the orthonormal p.
 */

export interface GaussHermiteRule {
  readonly nodes: Float64Array;
  readonly weights: Float64Array;
}

const cache = new Map<number, GaussHermiteRule>();

/** The N-point rule (N from 1 to 200), computed once and cached. */
export function gaussHermite(points: number): GaussHermiteRule {
  if (!Number.isInteger(points) || points < 1 || points > 200) throw new RangeError(`Gauss-Hermite: points must be a whole number from 1 to 200, got ${points}`);
  let rule = cache.get(points);
  if (!rule) {
    rule = computeRule(points);
    cache.set(points, rule);
  }
  return rule;
}

/**
 * The orthonormal physicists' Hermite polynomials (weight exp(-x^2)) at x: returns
 * [p_N(x), p_{N-1}(x)], from p_{j+1} = x sqrt(2/(j+1)) p_j - sqrt(j/(j+1)) p_{j-1}.
 */
function orthonormalHermite(n: number, x: number): [number, number] {
  let p0 = Math.PI ** -0.25;
  let p1 = 0;
  for (let j = 0; j < n; j++) {
    const p2 = p1;
    p1 = p0;
    p0 = x * Math.sqrt(2 / (j + 1)) * p1 - Math.sqrt(j / (j + 1)) * p2;
  }
  return [p0, p1];
}

function computeRule(n: number): GaussHermiteRule {
  const x = new Float64Array(n);
  const w = new Float64Array(n);
  const half = Math.floor((n + 1) / 2);
  let z = 0;
  for (let i = 0; i < half; i++) {
    // Starting guesses for the largest roots first (the classical asymptotic formulas).
    if (i === 0) z = Math.sqrt(2 * n + 1) - 1.85575 * (2 * n + 1) ** -0.16667;
    else if (i === 1) z -= (1.14 * n ** 0.426) / z;
    else if (i === 2) z = 1.86 * z - 0.86 * x[0]!;
    else if (i === 3) z = 1.91 * z - 0.91 * x[1]!;
    else z = 2 * z - x[i - 2]!;
    let pp = 0;
    for (let it = 0; it < 100; it++) {
      const [p, pm1] = orthonormalHermite(n, z);
      pp = Math.sqrt(2 * n) * pm1; // p_N' = sqrt(2N) p_{N-1}
      const dz = p / pp;
      z -= dz;
      if (Math.abs(dz) <= 1e-15 * Math.max(1, Math.abs(z))) break;
    }
    x[i] = z;
    x[n - 1 - i] = -z;
    const wi = 2 / (pp * pp);
    w[i] = wi;
    w[n - 1 - i] = wi;
  }
  // Physicists' rule (weight exp(-x^2), weights summing to sqrt(pi)) to the normal expectation:
  // z = sqrt(2) x, weights divided by sqrt(pi).
  const nodes = new Float64Array(n);
  const weights = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    nodes[k] = Math.SQRT2 * x[n - 1 - k]!;
    weights[k] = w[n - 1 - k]! / Math.sqrt(Math.PI);
  }
  return { nodes, weights };
}

/** E[g(X)] for X ~ N(mean, variance) by the N-point rule (default 32). */
export function normalExpectation(g: (x: number) => number, mean: number, variance: number, points = 32): number {
  const { nodes, weights } = gaussHermite(points);
  const s = Math.sqrt(Math.max(variance, 0));
  let e = 0;
  for (let k = 0; k < nodes.length; k++) e += weights[k]! * g(mean + s * nodes[k]!);
  return e;
}
