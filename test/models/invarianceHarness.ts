/**
 * The invariance check shared by the parametric samplers' tests: the three targets (a 2-D
 * Gaussian with a constant non-identity metric, a banana with a position-dependent metric, a small
 * logistic regression) with their closed-form or quadrature moments, a run of two chains with
 * burn-in, and batch-means z-scores of the means and second moments.
 */
import assert from "node:assert/strict";
import { sample } from "../../src/samplers/chain/driver.js";
import type { AdaptOptions } from "../../src/samplers/chain/adaptation.js";
import type { Kernel } from "../../src/samplers/types.js";
import type { DenseMetricModel } from "../../src/targets/denseMetric.js";
import { describe, maxAbsZ, momentZScores } from "../samplers/mcse.js";
import { bananaModel, GAUSS_COV, GAUSS_MEAN, gaussianModel, quadratureMoments, smallLogistic, type Moments } from "./parametricFixtures.js";

export const PASS_Z = 4;
export const FAIL_Z = 6;
export const BURN_IN = 500;
export const DRAWS = 3000;

export interface Case {
  name: string;
  model: () => DenseMetricModel;
  moments: () => Moments;
  init: number[];
}

export const cases: Case[] = [
  { name: "gaussian", model: gaussianModel, moments: () => ({ mean: GAUSS_MEAN, cov: GAUSS_COV }), init: [0.5, -1.5] },
  { name: "banana", model: bananaModel, moments: () => quadratureMoments(bananaModel(), -5, 5), init: [0.5, 0.5] },
  { name: "logistic", model: smallLogistic, moments: () => quadratureMoments(smallLogistic(), -4, 7), init: [0, 0] },
];

const momentCache = new Map<string, Moments>();
function momentsOf(c: Case): Moments {
  if (!momentCache.has(c.name)) momentCache.set(c.name, c.moments());
  return momentCache.get(c.name)!;
}

export function run(kernel: Kernel, c: Case, adapt: AdaptOptions | undefined, seed: number) {
  const m = momentsOf(c);
  const result = sample(kernel, { draws: DRAWS, burnIn: BURN_IN, chains: 2, seed, init: c.init, adapt });
  return momentZScores(result, m.mean, (i, j) => m.cov[i][j]);
}

type Ctx = { diagnostic(message: string): void };

export function expectPass(t: Ctx, checks: ReturnType<typeof momentZScores>, label: string): void {
  t.diagnostic(`${label}: max |z| = ${maxAbsZ(checks).toFixed(2)}`);
  assert.ok(maxAbsZ(checks) < PASS_Z, `${label}: a moment is off\n${describe(checks)}`);
}

export function expectFail(t: Ctx, checks: ReturnType<typeof momentZScores>, label: string): void {
  t.diagnostic(`${label}: max |z| = ${maxAbsZ(checks).toFixed(2)}`);
  assert.ok(maxAbsZ(checks) > FAIL_Z, `${label}: the broken variant was not detected\n${describe(checks)}`);
}

