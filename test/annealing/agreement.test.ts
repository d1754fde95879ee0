// AIS from the prior and AISq from EP's q estimate the same log Z: on a synthetic GP probit
// problem with n = 100 (1-D inputs, labels drawn from the model), by HMC (M^-1 = K), the two
// estimates must agree within 3 combined standard errors, and both sit near EP's log Z.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runAis, type AisSpec } from "../../src/annealing/index.js";
import { epApproximation, expectationPropagation, probitSites } from "../../src/approx/index.js";
import { seKernel } from "../../src/gp/index.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";

test("AIS from the prior and from EP's q agree within their standard errors on a synthetic n = 100 probit problem", async () => {
  const n = 100;
  const rng = new Rng(42, 0);
  const X = new Matrix(n, 1);
  for (let i = 0; i < n; i++) X.data[i] = 10 * rng.uniform();
  const logLengthscale = Math.log(1.5);
  const logSignalSd = 0;
  const k = seKernel({ logLengthscale, logSignalSd }).matrix(X);
  // labels: sign of f + noise, f a smooth function of x
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) y[i] = Math.sin(X.data[i]) + rng.normal() > 0 ? 1 : -1;
  const ep = expectationPropagation(k, probitSites(y), { onWarning: () => {} });
  const q = epApproximation(ep);
  const base: Omit<AisSpec, "start" | "schedule"> = {
    model: { likelihood: "probit", logLengthscale: [logLengthscale], logSignalSd, jitter: 1e-8 },
    transition: { sampler: "hmc", stepSize: 0.15, leapfrogSteps: 10 },
    runs: 12,
    seed: 9,
  };
  const fromPrior = await runAis({ X, y }, { ...base, start: { kind: "prior" }, schedule: { kind: "geometric", temperatures: 600, betaMin: 1e-3 } });
  const fromQ = await runAis({ X, y }, { ...base, start: { kind: "q", mean: Array.from(q.mean), sitePrecisions: Array.from(q.sitePrecisions ?? []) }, schedule: { kind: "linear", temperatures: 20 } });
  const se = Math.hypot(fromPrior.standardError, fromQ.standardError);
  const msg = `prior ${fromPrior.logZ} +- ${fromPrior.standardError}, q ${fromQ.logZ} +- ${fromQ.standardError}, EP ${ep.logZ}`;
  assert.ok(se > 0 && se < 0.2, msg);
  assert.ok(Math.abs(fromPrior.logZ - fromQ.logZ) < 3 * se, msg);
  assert.ok(Math.abs(fromQ.logZ - ep.logZ) < 0.5, msg);
});
