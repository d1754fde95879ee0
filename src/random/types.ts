/** What samplers ask of a random number generator. Implemented by `Rng` (xoshiro256**). */
export interface RandomSource {
  /** Uniform on the open interval (0, 1). */
  uniform(): number;
  /** Standard normal. */
  normal(): number;
  /** Fills `out` with independent standard normals and returns it. */
  fillNormal(out: Float64Array): Float64Array;
  /** Exponential with rate 1. */
  exponential(): number;
  /** Gamma with the given shape and scale 1. */
  gamma(shape: number): number;
  /** Student-t with nu degrees of freedom. */
  studentT(nu: number): number;
  /** Standard normal truncated to [lower, upper] (either may be infinite). */
  truncatedNormal(lower: number, upper: number): number;
  /** Uniform integer in [0, n), for an integer 1 <= n <= 2^53. */
  integer(n: number): number;
}
