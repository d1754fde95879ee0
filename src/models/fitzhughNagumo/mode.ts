/**
 * The posterior mode of the Fitzhugh-Nagumo parameters, by BFGS on -L from a starting point
 * (the paper starts every chain at the mode, Section 10.1.1). The ODE posterior may have other
 * local maxima (the paper's remark there); this finds the one uphill of the start.
 */
import { minimizeBfgs } from "../../math/bfgs.js";
import type { FitzhughNagumoModel } from "./model.js";

export interface PosteriorMode {
  theta: Float64Array;
  logDensity: number;
  converged: boolean;
  reason: string;
}

export function posteriorMode(model: FitzhughNagumoModel, start: ArrayLike<number>): PosteriorMode {
  const grad = new Float64Array(3);
  const r = minimizeBfgs(
    (x) => {
      const l = model.logDensityAndGradient(x, grad);
      // outside the support (or where the solver fails) the line search backs off
      return { value: Number.isFinite(l) ? -l : Infinity, gradient: Float64Array.from(grad, (g) => -g) };
    },
    start,
    { gradientTolerance: 1e-6, initialStep: 0.01 },
  );
  return { theta: r.x, logDensity: -r.value, converged: r.converged, reason: r.reason };
}
