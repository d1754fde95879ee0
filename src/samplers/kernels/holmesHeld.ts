/**
 * The auxiliary-variable Gibbs sampler of Holmes & Held (2005) for Bayesian logistic regression,
 * with the joint update of {z, beta} (their Section 3.2 and Appendix A3; Girolami & Calderhead
 * 2011, Section 7.1.2). The model is written with latent utilities and a scale mixture of normals:
 *
 *   y_i = 1 if z_i > 0 else 0,   z_i = x_i' beta + eps_i,   eps_i ~ N(0, lambda_i),
 *   lambda_i = (2 psi_i)^2, psi_i ~ Kolmogorov-Smirnov,  beta ~ N(0, alpha I),
 *
 * so that eps_i is logistic and beta's marginal is the logistic-regression posterior. One
 * transition, given lambda:
 *
 *   V = (X' Lambda^-1 X + I / alpha)^-1,  S = V X',  B = S Lambda^-1 z     (one syrk, one Cholesky, two trsm)
 *   for each i: z_i ~ p(z_i | z_-i, y, lambda) with beta integrated out, a normal truncated to the
 *     side of 0 that y_i says, of mean m_i - w_i (z_i - m_i) and variance lambda_i (1 + w_i),
 *     m_i = x_i' B, h_i = x_i' S_i, w_i = h_i / (lambda_i - h_i)   (the leave-one-out posterior of
 *     beta by Sherman-Morrison); then B <- B + (z_i^new - z_i^old) / lambda_i S_i
 *   beta ~ N(B, V)
 *   each lambda_i ~ p(lambda_i | z_i - x_i' beta)   (Appendix A4, holmesHeldDraws.ts)
 *
 * {z, beta} | lambda is drawn exactly (z by a Gibbs sweep of its marginal, then beta | z), then
 * lambda | z, beta: each step leaves the joint posterior of (beta, z, lambda) invariant. No tuning.
 * The state carries z and lambda beside beta.
 */
import { cholesky } from "../../linalg/cholesky.js";
import { Matrix } from "../../linalg/matrix.js";
import { crossprod, matvec, scaleRows } from "../../linalg/products.js";
import type { RandomSource } from "../../random/types.js";
import type { Target } from "../../targets/types.js";
import { logisticMixingVariance, truncatedNormalByInversion } from "./holmesHeldDraws.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import type { CountedStepInfo, Kernel, SamplerState } from "../types.js";
import { packNumbers } from "../../math/packNumbers.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** What the sampler needs of a logistic-regression model (models/logisticRegression.ts has it). */
export interface BinaryRegressionData {
  /** N x D design (intercept included). */
  readonly design: Matrix;
  /** Labels in {0, 1}. */
  readonly labels: Float64Array;
  /** alpha of the prior N(0, alpha I). */
  readonly priorVariance: number;
}

/** Whether a model carries a design, 0/1 labels and a prior variance (so Holmes & Held applies). */
export function isBinaryRegression(model: unknown): model is BinaryRegressionData {
  const m = model as Partial<BinaryRegressionData> | undefined;
  return !!m && m.design instanceof Matrix && m.labels instanceof Float64Array && typeof m.priorVariance === "number";
}

export interface HolmesHeldState extends SamplerState {
  /** The latent utilities z (N). */
  readonly z: Float64Array;
  /** The mixing variances lambda (N). */
  readonly lambda: Float64Array;
}

export interface HolmesHeldOptions {
  /**
   * Test-only negative controls: "no-squeeze" takes lambda's GIG proposal without its acceptance
   * test; "no-leave-one-out" draws each z_i around x_i' B, the mean that still holds z_i's own
   * contribution, with variance lambda_i (w_i = 0); "stale-mean" leaves B as it was before the
   * sweep, so each z_i is drawn given the others' old values. @internal
   */
  broken?: FaultOf<"holmes-held">;
}

export function holmesHeld(target: Target, data: BinaryRegressionData, options: HolmesHeldOptions = {}): Kernel<HolmesHeldState, CountedStepInfo> {
  const x = data.design;
  const n = x.rows;
  const d = x.cols;
  if (target.dim !== d) throw new RangeError(`holmes-held: the target has dimension ${target.dim}, the design ${d} columns`);
  if (data.labels.length !== n) throw new RangeError(`holmes-held: ${data.labels.length} labels for ${n} rows of the design`);
  const alpha = data.priorVariance;
  // X' (D x N): column i is x_i, contiguous for the sweep over cases
  const xt = new Matrix(d, n);
  for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) xt.data[k + i * d] = x.data[i + k * n];
  const positive = Array.from(data.labels, (v) => v === 1);
  const broken = options.broken;

  function init(x0: Float64Array): HolmesHeldState {
    const beta = initialPosition("holmes-held", x0, d);
    const logDensity = finiteInitialLogDensity("holmes-held", target.logDensity(beta));
    // lambda = 1 and each z_i on the side of 0 its label says: a valid start of the augmented chain
    const lambda = new Float64Array(n).fill(1);
    const eta = matvec(x, beta);
    const z = new Float64Array(n);
    for (let i = 0; i < n; i++) z[i] = (positive[i] ? 1 : -1) * (Math.abs(eta[i]) + 1);
    return { position: beta, logDensity, z, lambda };
  }

  function step(state: HolmesHeldState, rng: RandomSource): { state: HolmesHeldState; info: CountedStepInfo } {
    const z = Float64Array.from(state.z);
    const lambda = Float64Array.from(state.lambda);
    // V^-1 = X' Lambda^-1 X + I / alpha
    const root = new Float64Array(n);
    for (let i = 0; i < n; i++) root[i] = 1 / Math.sqrt(lambda[i]);
    const precision = crossprod(scaleRows(x, root));
    for (let k = 0; k < d; k++) precision.data[k + k * d] += 1 / alpha;
    const chol = cholesky(precision, { what: "X' Lambda^-1 X + I / alpha" });
    const s = chol.solveMatrix(xt); // S = V X', D x N
    const zScaled = new Float64Array(n);
    for (let i = 0; i < n; i++) zScaled[i] = z[i] / lambda[i];
    const b = matvec(s, zScaled); // B = S Lambda^-1 z
    const sd = s.data;
    const xd = xt.data;
    for (let i = 0; i < n; i++) {
      const o = i * d;
      let h = 0;
      let m = 0;
      for (let k = 0; k < d; k++) {
        h += xd[o + k] * sd[o + k];
        m += xd[o + k] * b[k];
      }
      const zOld = z[i];
      const w = broken === "no-leave-one-out" ? 0 : h / (lambda[i] - h);
      z[i] = truncatedNormalByInversion(rng, m - w * (zOld - m), lambda[i] * (1 + w), positive[i]);
      const c = (z[i] - zOld) / lambda[i];
      if (broken !== "stale-mean") for (let k = 0; k < d; k++) b[k] += c * sd[o + k];
    }
    // beta ~ N(B, V): V = L'^-1 L^-1, so B + L'^-1 t with t ~ N(0, I)
    const beta = chol.solveUpperInPlace(rng.fillNormal(new Float64Array(d)));
    for (let k = 0; k < d; k++) beta[k] += b[k];
    const eta = matvec(x, beta);
    for (let i = 0; i < n; i++) lambda[i] = logisticMixingVariance(rng, z[i] - eta[i], broken === "no-squeeze");
    const logDensity = target.logDensity(beta);
    const info: CountedStepInfo = {
      accepted: true, acceptanceProbability: 1, divergent: false, energy: NaN, energyError: NaN, stepSize: NaN,
      leapfrogSteps: 0, gradientCalls: 0, metricCalls: 0, fixedPointIterations: 0, densityEvaluations: 1,
    };
    return { state: { position: beta, logDensity, z, lambda }, info };
  }

  // z and lambda are part of the augmented chain's state, not functions of beta:
  // [log density, beta (d), z (n), lambda (n)]
  const saveState = (state: HolmesHeldState) => packNumbers([[state.logDensity], state.position, state.z, state.lambda]);
  function restoreState(saved: Float64Array): HolmesHeldState {
    if (saved.length !== 1 + d + 2 * n) throw new RangeError(`holmes-held: a saved state has ${1 + d + 2 * n} numbers, got ${saved.length}`);
    return { logDensity: saved[0], position: saved.slice(1, 1 + d), z: saved.slice(1 + d, 1 + d + n), lambda: saved.slice(1 + d + n) };
  }

  return { name: "holmes-held", init, step, saveState, restoreState };
}
