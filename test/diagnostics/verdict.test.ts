/**
 * The verdict on a run (src/diagnostics/verdict.ts), the one `gpmcmc diagnose` and every sampling
 * command's summary give: each check fires at its threshold and not below it, names what to do,
 * and a run with nothing to judge is never passed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ebfmi, judgeRun, verdictFigures, verdictLines, withRunWarnings, type JudgedQuantity, type RunEvidence } from "../../src/diagnostics/verdict.js";
import { Rng } from "../../src/random/index.js";
import { ar1 } from "./helpers.js";

const good = (name: string): JudgedQuantity => ({ name, rhat: 1.001, essBulk: 1500, essTail: 1200 });

/** Two chains of 1000 draws of lp__ and f.1..f.3, all well past the thresholds, with NUTS's counts and white-noise energies. */
function evidence(over: Partial<RunEvidence> = {}): RunEvidence {
  const rng = new Rng(7);
  return {
    quantities: ["lp__", "f.1", "f.2", "f.3"].map(good),
    chains: 2,
    draws: 1000,
    divergences: [0, 0],
    transitions: 2000,
    treeDepth: { saturated: [0, 0], maxDepth: 10 },
    energy: [ar1(1000, 0, rng), ar1(1000, 0, rng)],
    ...over,
  };
}

const checks = (e: RunEvidence, remedies = {}) => judgeRun(e, remedies).warnings.map((w) => w.check);

test("a run past every threshold gets the all-clear, naming each check that applied", () => {
  const v = judgeRun(evidence());
  assert.equal(v.ok, true);
  assert.deepEqual(v.warnings, []);
  assert.equal(v.suggestedDraws, null);
  assert.deepEqual(v.thresholds, { rhat: 1.01, ess: 200, ebfmi: 0.3 });
  assert.deepEqual(verdictLines(v), [
    "No warnings: R_hat <= 1.01, ESS_bulk and ESS_tail >= 200 for lp__ and every variable, no divergent transitions, no tree at the largest depth, E-BFMI >= 0.3 in every chain.",
  ]);
  // a sampler without divergences, trees or energies: those clauses are left out, not claimed
  const plain = judgeRun(evidence({ divergences: null, treeDepth: undefined, energy: [new Float64Array(1000).fill(NaN), new Float64Array(1000).fill(NaN)] }));
  assert.deepEqual(verdictLines(plain), ["No warnings: R_hat <= 1.01, ESS_bulk and ESS_tail >= 200 for lp__ and every variable."]);
  assert.equal(plain.ebfmi, null);
  // the figures are over the variables, lp__ left out
  const q = [{ name: "lp__", rhat: 1.5, essBulk: 3, essTail: 3 }, { name: "f.1", rhat: 1.002, essBulk: 900, essTail: 800 }, { name: "f.2", rhat: 1.004, essBulk: 700, essTail: 950 }];
  assert.equal(verdictFigures(judgeRun(evidence({ quantities: q }))), "ESS_bulk min 700 (f.2), ESS_tail min 800 (f.1), R_hat max 1.004 (f.2)");
});

test("R-hat and ESS: flagged past their thresholds only, worst first, with the draws that would do", () => {
  const at = (rhat: number, essBulk: number, essTail: number) => evidence({ quantities: [good("lp__"), { name: "f.1", rhat, essBulk, essTail }, good("f.2")] });
  assert.deepEqual(checks(at(1.01, 200, 200)), [], "at the thresholds themselves: not flagged");
  const r = judgeRun(at(1.05, 1500, 1500));
  assert.deepEqual(r.flags.rhat, ["f.1"]);
  // R-hat alone: twice the draws
  assert.equal(r.warnings[0].text, "R_hat > 1.01 for 1 of 3 quantities, worst: f.1 (1.050): the chains have not mixed; run longer: --draws 2000");
  const e = judgeRun(at(1.001, 50, 1500), { draws: "--draws" });
  // ESS 50 of 200: 1000 x 1.25 x 200 / 50 = 5000 draws per chain
  assert.equal(e.suggestedDraws, 5000);
  assert.equal(e.warnings[0].text, "ESS_bulk < 200 (100 per chain x 2 chains) for 1 of 3 quantities, lowest: f.1 (50): posterior means and medians may be unreliable; run longer: --draws 5000");
  const t = judgeRun(at(1.001, 1500, 7));
  assert.equal(t.warnings[0].check, "ess-tail");
  assert.match(t.warnings[0].text, /: the 5% and 95% quantiles may be unreliable; run longer: --draws 36000$/);
  assert.equal(t.ok, false);
});

test("divergences, trees at the largest depth and a low E-BFMI: each flagged with what the command offers against it", () => {
  const d = evidence({ divergences: [0, 3] });
  const offered = { targetAcceptance: { option: "--target-acceptance", value: 0.8 }, stepSize: "--step-size" };
  assert.equal(
    judgeRun(d, offered).warnings[0].text,
    "3 of 2000 transitions (0.1%) after burn-in were divergent (chain 2: 3): the estimates may be biased; raise --target-acceptance above 0.8 (e.g. 0.95), or give a smaller --step-size",
  );
  assert.match(judgeRun(d, { targetAcceptance: { option: "--target-acceptance", value: 0.95 } }).warnings[0].text, /raise --target-acceptance above 0\.95 \(e\.g\. 0\.99\)$/);
  assert.match(judgeRun(d).warnings[0].text, /the estimates may be biased; see where they happen \(gpmcmc report\)$/, "nothing to change: where to look");
  assert.deepEqual(checks(evidence({ divergences: null })), [], "a sampler without divergences");

  const tree = judgeRun(evidence({ treeDepth: { saturated: [4, 0], maxDepth: 10 } }), { maxTreeDepth: { option: "--max-tree-depth", value: 10 } });
  assert.equal(tree.treeDepthSaturations, 4);
  assert.equal(tree.warnings[0].text, "4 of 2000 transitions (0.2%) reached the largest tree depth, 10: their trajectories were cut short, which costs efficiency, not correctness; raise --max-tree-depth (e.g. 12)");

  // E-BFMI of an AR(1) energy is about 2 (1 - phi): 0.2 at phi = 0.9
  const rng = new Rng(3);
  const slow = judgeRun(evidence({ energy: [ar1(4000, 0.9, rng), ar1(4000, 0, rng)] }));
  assert.deepEqual(slow.warnings.map((w) => w.check), ["e-bfmi"]);
  assert.ok(slow.ebfmi![0]! < 0.3 && slow.ebfmi![1]! > 1.5, String(slow.ebfmi));
  assert.match(slow.warnings[0].text, /^E-BFMI < 0\.3 in 1 of 2 chains \(chain 1: 0\.\d\d\): the sampler moves slowly between energy levels/);
});

test("nothing to judge is never passed: no quantities, or too few draws to compute R-hat and ESS", () => {
  const none = judgeRun(evidence({ quantities: [] }));
  assert.equal(none.ok, false);
  assert.deepEqual(verdictLines(none), ["Warnings:", "  nothing to judge: the run has no quantities"]);
  const nan = judgeRun(evidence({ quantities: ["lp__", "f.1"].map((name) => ({ name, rhat: NaN, essBulk: NaN, essTail: NaN })) }));
  assert.equal(nan.ok, false);
  assert.deepEqual(nan.flags.notComputable, ["lp__", "f.1"]);
  assert.match(nan.warnings[0].text, /^R_hat or ESS cannot be computed for 2 of 2 quantities/);
  // warnings about the run's files end the all-clear too
  const cut = withRunWarnings(judgeRun(evidence()), ["chains cut to their first 80 draws (the files hold 100, 80)"]);
  assert.equal(cut.ok, false);
  assert.deepEqual(verdictLines(cut), ["Warnings:", "  chains cut to their first 80 draws (the files hold 100, 80)"]);
});

test("E-BFMI: sum of squared successive differences over the sum of squared deviations", () => {
  const e = [1, 3, 2, 6];
  // mean 3; deviations 4 + 0 + 1 + 9 = 14; differences 4 + 1 + 16 = 21
  assert.equal(ebfmi(e), 21 / 14);
  assert.ok(Number.isNaN(ebfmi([1, 1, 1])));
  assert.ok(Number.isNaN(ebfmi([1, NaN, 2])));
});
