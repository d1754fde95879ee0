/**
 * The low-level interface both linear-algebra backends implement. It mirrors BLAS/LAPACK:
 * matrices are column-major Float64Arrays with an explicit leading dimension, and every
 * routine works in place on the caller's arrays (no copies). Vectors have unit stride.
 */
export type Uplo = "L" | "U";
export type Trans = "N" | "T";
export type Side = "L" | "R";
export type Diag = "N" | "U";

export interface LinalgBackend {
  readonly name: "js" | "native";
  /** Cholesky factorisation in place (LAPACK dpotrf). Returns 0, or the 1-based index of the failing pivot. */
  potrf(uplo: Uplo, n: number, a: Float64Array, lda: number): number;
  /**
   * A <- A^-1 in place, A triangular (LAPACK dtrtri). Returns 0, or the 1-based index of a zero
   * diagonal entry. Optional: the native backend has it; elsewhere `invertLowerTriangularInPlace`
   * inverts by triangular solves (linalg/triangular.ts).
   */
  trtri?(uplo: Uplo, diag: Diag, n: number, a: Float64Array, lda: number): number;
  /** B <- alpha op(A)^-1 B (side L) or alpha B op(A)^-1 (side R), A triangular (BLAS dtrsm). */
  trsm(side: Side, uplo: Uplo, transA: Trans, diag: Diag, m: number, n: number, alpha: number,
    a: Float64Array, lda: number, b: Float64Array, ldb: number): void;
  /** x <- op(A)^-1 x, A triangular (BLAS dtrsv). */
  trsv(uplo: Uplo, trans: Trans, diag: Diag, n: number, a: Float64Array, lda: number, x: Float64Array): void;
  /** C <- alpha op(A) op(A)' + beta C on the uplo triangle; op(A) is n x k (trans N) or A is k x n (trans T) (BLAS dsyrk). */
  syrk(uplo: Uplo, trans: Trans, n: number, k: number, alpha: number, a: Float64Array, lda: number,
    beta: number, c: Float64Array, ldc: number): void;
  /** C <- alpha op(A) op(B) + beta C, C m x n (BLAS dgemm). */
  gemm(transA: Trans, transB: Trans, m: number, n: number, k: number, alpha: number,
    a: Float64Array, lda: number, b: Float64Array, ldb: number, beta: number, c: Float64Array, ldc: number): void;
  /** y <- alpha op(A) x + beta y, A m x n (BLAS dgemv). */
  gemv(trans: Trans, m: number, n: number, alpha: number, a: Float64Array, lda: number,
    x: Float64Array, beta: number, y: Float64Array): void;
  /** y <- alpha A x + beta y, A symmetric, only the uplo triangle read (BLAS dsymv). */
  symv(uplo: Uplo, n: number, alpha: number, a: Float64Array, lda: number, x: Float64Array,
    beta: number, y: Float64Array): void;
  /**
   * B <- diag(w) A, A and B m x n (B may be A). Not BLAS: an element-wise kernel that both backends
   * compute with the same operations in the same order, so with the same bits.
   */
  scaleRows(m: number, n: number, w: Float64Array, a: Float64Array, lda: number, b: Float64Array, ldb: number): void;
  /** out_i <- sum_j a_ij^2 over j = 0..n-1 in that order, A m x n (like scaleRows, the same bits on both backends). */
  rowSumsOfSquares(m: number, n: number, a: Float64Array, lda: number, out: Float64Array): void;
  /**
   * u <- A v, u_i <- w_i u_i u_i, out <- A' u (A m x n): two gemv with the element-wise step between
   * them, in one call (the same bits as those gemv and that loop).
   */
  crossWeightedSquares(m: number, n: number, a: Float64Array, lda: number, v: Float64Array, w: Float64Array, u: Float64Array, out: Float64Array): void;
  /**
   * out_i <- sqrt(s_i (1 - s_i)), s_i = 1 / (1 + exp(-e_i)), as sqrt(z w w) with z = exp(-|e_i|),
   * w = 1 / (1 + z) (the roots of the logistic model's weights; like scaleRows, the same bits on
   * both backends: the addon's exp is fdlibm's, which V8's Math.exp is).
   */
  logisticWeightRoots(n: number, e: Float64Array, out: Float64Array): void;
  /** Number of threads the backend's BLAS uses (1 for js). */
  getThreads(): number;
  setThreads(n: number): void;
  /** What the backend is built on (library, CPU core it tuned for, threads), for `gpmcmc info`. */
  describe(): BackendDescription;
}

export interface BackendDescription {
  backend: "js" | "native";
  library: string;
  core?: string;
  threads: number;
  cores?: number;
  config?: string;
}
