/**
 * Euclidean Hamiltonian dynamics on a target's log density with a constant mass matrix M
 * (massMatrix.ts; note eq. 9, Girolami & Calderhead Section 3, eqs. 5-7):
 *
 *   H(x, p) = -L(x) + 1/2 p' M^-1 p,   p ~ N(0, M),
 *   p(t + e/2) = p(t) + e/2 dL/dx(x(t))
 *   x(t + e)   = x(t) + e M^-1 p(t + e/2)
 *   p(t + e)   = p(t + e/2) + e/2 dL/dx(x(t + e))
 *
 * as a `SplitDynamics` (dynamics.ts): `step` is the whole leapfrog step (what NUTS runs), `kick`
 * and `drift` its parts (what a static HMC trajectory runs, with the kicks between steps merged).
 * Inside a static trajectory the drift asks the target for the gradient alone where it has
 * `Target.gradient`; the density is computed where asked for (a trajectory's last step).
 * With the identity mass M^-1 p is p itself, read in place; any other mass writes it into the
 * point's `v`. Nothing is allocated after construction except the states handed out.
 */
import type { RandomSource } from "../../random/types.js";
import type { Target } from "../../targets/types.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import type { SamplerState } from "../types.js";
import type { PhasePoint, SplitDynamics } from "./dynamics.js";
import type { MassMatrix } from "./massMatrix.js";

/** A chain state of Euclidean dynamics: the position, L and dL/dx there. */
export interface EuclideanState extends SamplerState {
  /** dL/dx at the position. */
  readonly gradient: Float64Array;
}

/** A point of Euclidean phase space: x, p, g = dL/dx(x), and room for v = M^-1 p. */
export interface EuclideanPoint extends PhasePoint {
  x: Float64Array;
  p: Float64Array;
  g: Float64Array;
  v: Float64Array;
}

export interface EuclideanDynamics extends SplitDynamics<EuclideanPoint, EuclideanState> {
  /** The state as a point of phase space with the given momentum (copied). */
  place(state: EuclideanState, momentum: Float64Array, to: EuclideanPoint): void;
}

/** The dynamics of the module comment; `sampler` names the kernel in the initial point's errors. */
export function euclideanDynamics(target: Target, mass: MassMatrix, sampler: string): EuclideanDynamics {
  const n = target.dim;
  const gradientOf = target.logDensityAndGradient?.bind(target);
  if (!gradientOf) throw new Error(`${sampler}: the target has no logDensityAndGradient`);
  if (mass.dim !== n) throw new RangeError(`${sampler}: the mass matrix has dimension ${mass.dim}, the target ${n}`);
  const gradientAlone = target.gradient?.bind(target);
  const identity = mass.kind === "identity";

  /** M^-1 p: p itself for the identity, else written into the point's v. */
  function velocity(pt: EuclideanPoint): Float64Array {
    if (identity) return pt.p;
    mass.applyInverse(pt.p, pt.v);
    return pt.v;
  }

  return {
    dim: n,
    newPoint: () => ({ x: new Float64Array(n), p: new Float64Array(n), g: new Float64Array(n), v: new Float64Array(n), lp: NaN }),
    copy(from, to) {
      to.x.set(from.x);
      to.p.set(from.p);
      to.g.set(from.g);
      to.lp = from.lp;
    },
    start(state, rng: RandomSource, to) {
      to.x.set(state.position);
      to.g.set(state.gradient);
      to.lp = state.logDensity;
      mass.sampleMomentum(rng, to.p);
    },
    place(state, momentum, to) {
      to.x.set(state.position);
      to.g.set(state.gradient);
      to.lp = state.logDensity;
      to.p.set(momentum);
    },
    step(pt, eps) {
      const { x, p, g } = pt;
      for (let i = 0; i < n; i++) p[i] += 0.5 * eps * g[i];
      const v = velocity(pt);
      for (let i = 0; i < n; i++) x[i] += eps * v[i];
      pt.lp = gradientOf(x, g);
      for (let i = 0; i < n; i++) p[i] += 0.5 * eps * g[i];
    },
    kick(pt, h) {
      const { p, g } = pt;
      let sum = 0;
      for (let i = 0; i < n; i++) {
        p[i] += h * g[i];
        sum += g[i];
      }
      return sum;
    },
    drift(pt, eps, density) {
      const x = pt.x;
      const v = velocity(pt);
      for (let i = 0; i < n; i++) x[i] += eps * v[i];
      if (!density && gradientAlone !== undefined) {
        gradientAlone(x, pt.g);
        return false;
      }
      pt.lp = gradientOf(x, pt.g);
      return true;
    },
    energy: (pt) => -pt.lp + mass.kineticEnergy(pt.p),
    momentum: (pt) => pt.p,
    sharp: velocity,
    state: (pt) => ({ position: pt.x.slice(), logDensity: pt.lp, gradient: pt.g.slice() }),
    init(x0) {
      const position = initialPosition(sampler, x0, n);
      const gradient = new Float64Array(n);
      const logDensity = finiteInitialLogDensity(sampler, gradientOf(position, gradient));
      for (let i = 0; i < n; i++) {
        if (!Number.isFinite(gradient[i])) throw new RangeError(`${sampler}: the gradient at the initial point has ${gradient[i]} at ${i}`);
      }
      return { position, logDensity, gradient };
    },
  };
}
