import { test } from "node:test";
import assert from "node:assert/strict";
import { chiSquareSurvival, chiSquareTest, meanAndStandardError } from "./stats.js";

test("chi-square survival function matches scipy.stats.chi2.sf to 1e-12 relative", () => {
  const cases: Array<[number, number, number]> = [
    [3.841458820694124, 1, 0.04999999999999989],
    [18.307038053275146, 10, 0.05000000000000005],
    [150, 100, 0.0009039320423540184],
    [0.5, 3, 0.9188914116546758],
    [40, 20, 0.0049954123083075785],
    [1e-3, 2, 0.9995001249791693],
    [300, 200, 5.924540335483916e-6],
    [12, 30, 0.9985996461666381],
  ];
  for (const [x, k, want] of cases) {
    const got = chiSquareSurvival(x, k);
    assert.ok(Math.abs(got - want) <= 1e-12 * want, `chi2.sf(${x}, ${k}) = ${got}, want ${want}`);
  }
});

test("chiSquareTest pools small bins and separates a fair from a loaded die", () => {
  const fair = chiSquareTest([100, 98, 103, 99, 101, 99], [1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6]);
  assert.equal(fair.df, 5);
  assert.ok(fair.pValue > 0.9);
  // Pearson statistic 60^2/100 + 5 * 12^2/100 = 43.2 on 5 df (scipy: p = 3.37e-8).
  const loaded = chiSquareTest([160, 88, 88, 88, 88, 88], [1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6]);
  assert.ok(Math.abs(loaded.statistic - 43.2) < 1e-9);
  assert.ok(loaded.pValue < 1e-7, `p = ${loaded.pValue}`);
  // Expected counts 1000*[0.5, 0.49, 0.004, 0.003, 0.002, 0.001]: the last four pool into one bin.
  const pooled = chiSquareTest([500, 490, 4, 3, 2, 1], [0.5, 0.49, 0.004, 0.003, 0.002, 0.001]);
  assert.equal(pooled.bins, 3);
  assert.ok(Math.abs(pooled.statistic) < 1e-9);
});

test("meanAndStandardError of a known sequence", () => {
  const { mean, se } = meanAndStandardError([1, 2, 3, 4]);
  assert.equal(mean, 2.5);
  assert.ok(Math.abs(se - Math.sqrt(5 / 3 / 4)) < 1e-15);
});
