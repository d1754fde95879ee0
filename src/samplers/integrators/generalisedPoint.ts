/**
 * The phase points of the generalised leapfrog (generalisedLeapfrog.ts) as a `Dynamics`
 * (dynamics.ts) stores them.
 */
import type { LocalGeometry } from "../../targets/types.js";
import type { PhasePoint } from "./dynamics.js";

/**
 * A point of the generalised leapfrog's phase space: x with its geometry, and p. Positions of
 * successive steps alternate between the point's two `pool` buffers, so the buffer written by
 * step l + 1 is the one whose geometry (from step l - 1) is no longer used; `state` hands the
 * final one out and replaces it. A copy shares the geometry object (release it once).
 */
export interface GeneralisedPoint extends PhasePoint {
  readonly p: Float64Array;
  /** G(x)^-1 p scaled to the velocity dH/dp (`sharp`). */
  readonly v: Float64Array;
  readonly pool: [Float64Array, Float64Array];
  position: Float64Array;
  geometry: LocalGeometry | undefined;
  /** The geometry the trajectory started from: the caller's, never released here. */
  origin: LocalGeometry | undefined;
  /** Which of `pool` holds the position (-1: the start's, the caller's). */
  poolIndex: number;
}

export function newGeneralisedPoint(n: number): GeneralisedPoint {
  const pool: [Float64Array, Float64Array] = [new Float64Array(n), new Float64Array(n)];
  return { lp: NaN, p: new Float64Array(n), v: new Float64Array(n), pool, position: pool[0], geometry: undefined, origin: undefined, poolIndex: -1 };
}

/** to <- from: the momentum and position copied, the geometry shared (see `GeneralisedPoint`). */
export function copyGeneralisedPoint(from: GeneralisedPoint, to: GeneralisedPoint): void {
  to.p.set(from.p);
  to.poolIndex = from.poolIndex;
  if (from.poolIndex < 0) to.position = from.position;
  else (to.position = to.pool[from.poolIndex]).set(from.position);
  to.geometry = from.geometry;
  to.origin = from.origin;
  to.lp = from.lp;
}

/** Hands the point's position buffer out, replacing it in the pool (the start's is the caller's already). */
export function takePosition(point: GeneralisedPoint): Float64Array {
  const x = point.position;
  if (point.poolIndex >= 0) point.pool[point.poolIndex] = new Float64Array(x.length);
  return x;
}
