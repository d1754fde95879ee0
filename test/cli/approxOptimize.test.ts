/**
 * `gpmcmc laplace --optimize` and `gpmcmc ep --optimize`: the reported optimum is maximiseLogZ's
 * from the given start, log Z is the approximation's there (a stationary point: the gradient of
 * log Z vanishes), and --out holds the approximation at the optimum.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readApproximationFile } from "../../src/approx/approximationFile.js";
import { logZAndGradient, maximiseLogZ } from "../../src/approx/logZGradient.js";
import { probitSites } from "../../src/likelihoods/epSites.js";
import type { CommandIO } from "../../src/cli/commandIO.js";
import { runEp } from "../../src/cli/ep.js";
import { runLaplace } from "../../src/cli/laplace.js";
import { readDataset } from "../../src/io/index.js";
import { likelihoodByName } from "../../src/likelihoods/index.js";
import { fixture, scratchDir } from "../fixtures.js";

const SMALL = fixture("data", "approx_small.csv"); // n = 20, d = 2, labels -1/+1
const silent: CommandIO = { stdout: () => {}, stderr: () => {} };

for (const method of ["laplace", "ep"] as const) {
  test(`${method} --optimize: the optimum of maximiseLogZ, log Z there, and --out at the optimum`, () => {
    const s = scratchDir();
    try {
      const out = join(s.dir, "q.json");
      const raw = { data: SMALL, lengthscale: "0.8", signalSd: "1.5", optimize: true, out };
      const { summary } = method === "ep" ? runEp(raw, silent) : runLaplace(raw, silent);
      const ds = readDataset(SMALL, { labels: "binary" });
      const how = method === "ep" ? { method, sites: probitSites(ds.y) } as const : { method, y: ds.y, likelihood: likelihoodByName("probit") } as const;
      const want = maximiseLogZ(ds.X, { logLengthscale: [Math.log(0.8)], logSignalSd: Math.log(1.5) }, how);
      assert.ok(summary.optimize?.converged);
      assert.equal(summary.optimize!.iterations, want.iterations);
      assert.deepEqual(summary.lengthscale, want.theta.logLengthscale.map(Math.exp));
      assert.equal(summary.signalSd, Math.exp(want.theta.logSignalSd));
      assert.ok(Math.abs(summary.logZ - want.logZ) < 1e-9);
      const g = logZAndGradient(ds.X, [...want.theta.logLengthscale, want.theta.logSignalSd], how).gradient;
      assert.ok(Math.max(...Array.from(g, Math.abs)) < 1e-3, `gradient ${Array.from(g)}`);
      const file = readApproximationFile(out);
      assert.deepEqual(file.kernel.logLengthscale, want.theta.logLengthscale);
      assert.equal(file.kernel.logSignalSd, want.theta.logSignalSd);
      // without --optimize the given hyperparameters are kept and nothing is searched
      const plain = method === "ep" ? runEp({ data: SMALL, lengthscale: "0.8", signalSd: "1.5" }, silent) : runLaplace({ data: SMALL, lengthscale: "0.8", signalSd: "1.5" }, silent);
      assert.equal(plain.summary.optimize, null);
      assert.ok(plain.summary.logZ < summary.logZ);
    } finally {
      s.cleanup();
    }
  });
}
