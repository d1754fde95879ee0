/**
 * A metric that is a Fisher information (plus a prior's negative Hessian) against the Monte
 * Carlo covariance of the scores: how many standard errors the worst entry is off, and how close
 * twice the metric comes on the diagonal (the negative control: it must be far).
 */
import type { Matrix } from "../../src/linalg/matrix.js";

export function fisherAgreement(G: Matrix, priorHessianDiagonal: ArrayLike<number>, draws: number, score: () => ArrayLike<number>): { worstTrue: number; bestWrong: number } {
  const m = G.rows;
  const sum = new Float64Array(m * m), sumSq = new Float64Array(m * m);
  for (let r = 0; r < draws; r++) {
    const s = score();
    for (let k = 0; k < m; k++) for (let l = 0; l < m; l++) {
      const v = s[k]! * s[l]!;
      sum[k * m + l] += v;
      sumSq[k * m + l] += v * v;
    }
  }
  let worstTrue = 0, bestWrong = Infinity;
  for (let k = 0; k < m; k++) for (let l = 0; l < m; l++) {
    const mean = sum[k * m + l]! / draws;
    const se = Math.sqrt((sumSq[k * m + l]! / draws - mean * mean) / draws);
    const fisher = G.get(k, l) + (k === l ? priorHessianDiagonal[k]! : 0);
    worstTrue = Math.max(worstTrue, Math.abs(mean - fisher) / se);
    if (k === l) bestWrong = Math.min(bestWrong, Math.abs(mean - 2 * fisher) / se);
  }
  return { worstTrue, bestWrong };
}
