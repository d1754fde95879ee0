// The small Cox process problem the algebra tests of both covariances check against dense algebra:
// a 5 x 5 grid, hyperparameters away from the paper's, fixed counts; and the largest difference of two arrays.
export const SIDE = 5;
export const N = SIDE * SIDE;
export const HYPER = { sigma2: 1.3, beta: 0.4, mu: 0.7 };
export const COUNTS = Array.from({ length: N }, (_, k) => (k * 7) % 5);

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
