import { test } from "node:test";
import assert from "node:assert/strict";
import { DiagnosticsInputError, exactDistribution, mannWhitneyU, orderMethods } from "../../src/diagnostics/index.js";
import { normalCdf } from "../../src/math/index.js";
import { Rng } from "../../src/random/index.js";
import { assertClose, iidNormal } from "./helpers.js";
import { MANN_WHITNEY } from "./fixtures.js";

test("textbook example: Hollander & Wolfe's permeability data, W = 35, exact one-sided p = 0.1272", () => {
  // Hollander & Wolfe (1973, Nonparametric Statistical Methods, p. 69; R's ?wilcox.test example):
  // wilcox.test(x, y, alternative = "greater") gives W = 35, p-value = 0.1272 (exact).
  const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
  const y = [1.15, 0.88, 0.9, 0.74, 1.21];
  const r = mannWhitneyU(x, y, { alternative: "greater" });
  assert.equal(r.method, "exact");
  assert.equal(r.u, 35);
  assert.equal(r.uY, 15);
  assert.equal(r.pValue.toFixed(4), "0.1272");
  // Exact p = #{arrangements with U >= 35} / C(15, 5) = 382 / 3003 (counted by enumeration below).
  assertClose(r.pValue, 382 / 3003, 1e-13, "exact p");
});

test("hand-computed example with ties, normal approximation", () => {
  // x = 1 2 2 3 5 5, y = 2 4 5 6 6 7 8 (N = 13). Average ranks: 1 -> 1; the three 2s -> 3;
  // 3 -> 5; 4 -> 6; the three 5s -> 8; the two 6s -> 10.5; 7 -> 12; 8 -> 13.
  // R_x = 1 + 3 + 3 + 5 + 8 + 8 = 28, U_x = 28 - 6*7/2 = 7; E U = 6*7/2 = 21.
  // Tie term: (27 - 3) + (27 - 3) + (8 - 2) = 54; var U = 42/12 (14 - 54/(13*12)) = 47.78846...
  // z = (7 - 21 + 1/2) / sqrt(47.78846) = -1.95287; two-sided p = 2 Phi(-1.95287) = 0.05084.
  const r = mannWhitneyU([1, 2, 2, 3, 5, 5], [2, 4, 5, 6, 6, 7, 8]);
  assert.equal(r.method, "asymptotic");
  assert.ok(r.ties);
  assert.equal(r.u, 7);
  const variance = (42 / 12) * (14 - 54 / (13 * 12));
  assertClose(variance, 47.78846153846154, 1e-12, "var U");
  const z = (7 - 21 + 0.5) / Math.sqrt(variance);
  assertClose(r.z, z, 1e-14, "z");
  assertClose(z, -1.95287, 1e-5, "z by hand");
  assertClose(r.pValue, 2 * normalCdf(z), 1e-14, "p");
  assert.equal(r.pValue.toFixed(4), "0.0508");
});

test("Mann-Whitney U and p-values equal scipy.stats.mannwhitneyu", () => {
  for (const f of MANN_WHITNEY) {
    const r = mannWhitneyU(f.x, f.y, { alternative: f.alternative, method: f.method, continuity: f.continuity });
    assert.equal(r.u, f.u, `${f.name} ${f.alternative} ${f.method}: U`);
    assertClose(r.pValue, f.pValue, 1e-10, `${f.name} ${f.alternative} ${f.method} cc=${f.continuity}: p`);
  }
});

test("exact null distribution of U equals enumeration of all arrangements", () => {
  for (const [m, n] of [[1, 1], [3, 4], [5, 5], [10, 5]]) {
    const counts = new Float64Array(m * n + 1);
    let arrangements = 0;
    // Every subset of size m of positions 0..m+n-1 holds the x's; U = sum over x of #y below it.
    const total = m + n;
    for (let mask = 0; mask < 1 << total; mask++) {
      let bits = 0;
      for (let b = 0; b < total; b++) if (mask & (1 << b)) bits++;
      if (bits !== m) continue;
      let u = 0, ysBelow = 0;
      for (let b = 0; b < total; b++) {
        if (mask & (1 << b)) u += ysBelow;
        else ysBelow++;
      }
      counts[u]++;
      arrangements++;
    }
    const dist = exactDistribution(m, n);
    for (let u = 0; u <= m * n; u++) assertClose(dist[u], counts[u] / arrangements, 1e-13, `m=${m} n=${n} P(U=${u})`, 1e-16);
    if (m === 10 && n === 5) {
      let upper = 0;
      for (let u = 35; u <= 50; u++) upper += counts[u];
      assert.equal(upper, 382); // the Hollander-Wolfe exact p-value's numerator above
    }
  }
});

test("Mann-Whitney rejects bad input", () => {
  assert.throws(() => mannWhitneyU([], [1, 2]), (e: unknown) => e instanceof DiagnosticsInputError && e.problem === "too-few-draws");
  assert.throws(() => mannWhitneyU([1, NaN], [1, 2]), DiagnosticsInputError);
  assert.throws(() => mannWhitneyU([1, 2, 2], [2, 3], { method: "exact" }), (e: unknown) => e instanceof DiagnosticsInputError && /ties/.test(e.message));
  // All values tied: no evidence either way.
  assert.equal(mannWhitneyU([1, 1, 1], [1, 1]).pValue, 1);
});

test("orderMethods ranks methods by median and separates them where one-sided tests reject", () => {
  const rng = new Rng(601);
  // Three methods' min ESS over 20 runs: clearly different levels, and two that are the same.
  const a = iidNormal(20, rng, 10); // method 1
  const b = iidNormal(20, rng, 30); // method 2
  const c = iidNormal(20, rng, 30); // method 3, same as 2
  const d = iidNormal(20, rng, 50); // method 4
  const byEss = orderMethods([a, b, c, d], { better: "larger" });
  assert.equal(byEss.order[0], 3);
  assert.equal(byEss.order[3], 0);
  assert.match(byEss.text, /^4\|[23],[23]\|1$/);
  // R-hat: smaller is better.
  const byRhat = orderMethods([d, a], { better: "smaller", labels: ["wide", "narrow"] });
  assert.equal(byRhat.text, "narrow|wide");
  assert.ok(byRhat.pValues[1][0] < 1e-6);
  assert.throws(() => orderMethods([a], { better: "bigger" as "larger" }), DiagnosticsInputError);
});
