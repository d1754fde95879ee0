/**
 * The Cox process field model with either grid covariance (gridCovariance.ts): "euclidean", the
 * paper's eq. 31, sampled in whitened torus coordinates (euclideanCoxProcess.ts, circulant
 * embedding, O(N log N) per gradient); "separable", the L1 form sigma^2 (E kron E), sampled in x
 * (coxProcess.ts, Kronecker algebra, O(N^1.5)). What the samplers need beyond the CoxField
 * interface, the mode of x and the dense Sigma^-1 of Christensen's transform, dispatched here.
 */
import type { Matrix } from "../../linalg/matrix.js";
import { coxProcessModel, type CoxProcessModel } from "./coxProcess.js";
import type { CoxHyperparameters } from "./coxField.js";
import { denseEuclideanPrecision, denseGridPrecision } from "./christensen.js";
import { euclideanCoxProcessModel, type EuclideanCoxModel } from "./euclideanCoxProcess.js";
import type { GridDistance } from "./gridCovariance.js";
import { coxProcessMode, euclideanCoxProcessMode, type ModeResult } from "./mode.js";

export type CoxModel = CoxProcessModel | EuclideanCoxModel;

/** The paper's covariance is the default. */
export const DEFAULT_GRID_COVARIANCE: GridDistance = "euclidean";

export function coxFieldModel(side: number, counts: ArrayLike<number>, hyper: CoxHyperparameters, covariance: GridDistance = DEFAULT_GRID_COVARIANCE, cellArea = 1 / (side * side)): CoxModel {
  return covariance === "euclidean" ? euclideanCoxProcessModel(side, counts, hyper, cellArea) : coxProcessModel(side, counts, hyper, cellArea);
}

/** The posterior mode of x | y (Newton-CG, no N x N matrix). */
export function coxFieldMode(model: CoxModel): ModeResult {
  return model.covariance === "euclidean" ? euclideanCoxProcessMode(model) : coxProcessMode(model);
}

/** Sigma^-1 written out (N x N), for Christensen's transform. */
export function denseFieldPrecision(model: CoxModel): Matrix {
  return model.covariance === "euclidean" ? denseEuclideanPrecision(model) : denseGridPrecision(model);
}
