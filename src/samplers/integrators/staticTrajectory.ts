/**
 * Static trajectories: L steps of step size e from a point over a `Dynamics` (dynamics.ts).
 *
 * `stepTrajectory` runs `step` L times, stopping at the first step that fails (returns its
 * reason, or throws a numerical failure: "numerical-error"): the generalised leapfrog's
 * trajectories (integrators/generalisedLeapfrog.ts: RMHMC's, its reversibility check's, and
 * delayed rejection's second stage and ghost, kernels/delayedRejection.ts).
 *
 * `staticTrajectory` runs split dynamics, as static HMC does (kernels/hmc.ts). The closing half-kick of one step and
 * the opening half-kick of the next are merged into one kick of e, so L steps cost L force
 * evaluations:
 *
 *   kick(e/2), then L times: drift(e), kick(e) (e/2 for the last).
 *
 * The divergence checks: a force that is not finite inside the trajectory, or a log density
 * that is not finite at its end, stops it as "non-finite"; a numerical failure of the target
 * (metropolis.ts's `isNumericalFailure`) stops it as "numerical-error". The rise of H over the
 * divergence threshold is the accept step's (metropolis.ts), which sees the ends' energies.
 * Nothing is allocated.
 */
import { isNumericalFailure } from "../kernels/metropolis.js";
import type { DivergenceReason, SamplerState } from "../types.js";
import type { Dynamics, PhasePoint, SplitDynamics } from "./dynamics.js";

/** How a trajectory ended: the steps completed (the last one's drift included) and why it stopped, if it did. */
export interface TrajectoryEnd {
  steps: number;
  failure: DivergenceReason | undefined;
}

/** `steps` leapfrog steps of `eps` from `point`, in place; `end` says how it ended (module comment). */
export function staticTrajectory<P extends PhasePoint, S extends SamplerState>(dyn: SplitDynamics<P, S>, point: P, eps: number, steps: number, end: TrajectoryEnd): void {
  end.steps = 0;
  end.failure = undefined;
  try {
    dyn.kick(point, 0.5 * eps);
    for (let l = 1; l <= steps; l++) {
      // Inside the trajectory only the force is needed; the density at its end.
      const withDensity = dyn.drift(point, eps, l === steps);
      end.steps = l;
      const sum = dyn.kick(point, l === steps ? 0.5 * eps : eps);
      if (!Number.isFinite(withDensity ? point.lp : sum)) {
        end.failure = "non-finite";
        break;
      }
    }
  } catch (e) {
    if (!isNumericalFailure(e)) throw e;
    end.failure = "numerical-error";
  }
}

/** `steps` steps of `eps` from `point`, in place, stopping at the first failure; `end` says how it ended (module comment). */
export function stepTrajectory<P extends PhasePoint, S extends SamplerState>(dyn: Dynamics<P, S>, point: P, eps: number, steps: number, end: TrajectoryEnd): void {
  end.steps = 0;
  end.failure = undefined;
  try {
    for (let l = 1; l <= steps; l++) {
      const failure = dyn.step(point, eps);
      if (failure) {
        end.failure = failure;
        return;
      }
      end.steps = l;
    }
  } catch (e) {
    if (!isNumericalFailure(e)) throw e;
    end.failure = "numerical-error";
  }
}
