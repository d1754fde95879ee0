import { test } from "node:test";
import assert from "node:assert/strict";
import { DiagnosticsInputError, rhat, rhatBulk, rhatClassic, rhatSplit, rhatTail } from "../../src/diagnostics/index.js";
import type { RhatClassicForm } from "../../src/diagnostics/index.js";
import { Rng } from "../../src/random/index.js";
import { assertClose, iidNormal } from "./helpers.js";
import { FIXTURES } from "./fixtures.js";

const FORMS: RhatClassicForm[] = ["gelman-rubin", "gelman-rubin-df", "basic"];
const toChains = (c: number[][]): Float64Array[] => c.map((x) => Float64Array.from(x));

test("classic R-hat by hand: chains (1,2,3,4) and (3,4,5,6)", () => {
  // n = 4, m = 2; means 2.5, 4.5; s^2 = 5/3 each, so W = 5/3; B = n var(means) = 4 * 2 = 8.
  // Gelman-Rubin: V = (3/4)(5/3) + (3/8)(8) = 1.25 + 3 = 4.25, R = sqrt(4.25 / (5/3)) = sqrt(2.55).
  // BDA3 basic:   V = 1.25 + B/n = 1.25 + 2 = 3.25,          R = sqrt(3.25 / (5/3)) = sqrt(1.95).
  const chains = [Float64Array.of(1, 2, 3, 4), Float64Array.of(3, 4, 5, 6)];
  assertClose(rhatClassic(chains), Math.sqrt(2.55), 1e-14, "gelman-rubin");
  assertClose(rhatClassic(chains, { form: "basic" }), Math.sqrt(1.95), 1e-14, "basic");
});

test("R-hat of chains from one distribution is within its sampling error of 1", () => {
  // For m iid chains of n draws, R^2 - 1 ~ (B/(nW) - 1/n) and B/W ~ chi2_{m-1}/(m-1), so
  // R - 1 ~ (chi2_{m-1}/(m-1) - 1) / (2n). With m = 4, n = 1000, R > 1.01 needs chi2_3 > 63
  // (probability < 1e-12); the split (8 half-chains of 500) needs chi2_7 > 77 (also < 1e-12).
  const rng = new Rng(401);
  const chains = Array.from({ length: 4 }, () => iidNormal(1000, rng));
  for (const form of FORMS) {
    const r = rhatClassic(chains, { form });
    assert.ok(Math.abs(r - 1) < 0.01, `${form}: ${r}`);
  }
  for (const [name, r] of [["rhat", rhat(chains)], ["rhatSplit", rhatSplit(chains)], ["rhatBulk", rhatBulk(chains)], ["rhatTail", rhatTail(chains)]] as const) {
    assert.ok(Math.abs(r - 1) < 0.01, `${name}: ${r}`);
  }
});

test("a chain with a shifted mean gives R-hat well above 1.1", () => {
  // Means 0, 0, 0, 2 with unit sd: var(means) = 1, so R ~ sqrt(1 + (m+1)/m) ~ 1.5 (1.41 for BDA3's form).
  const rng = new Rng(402);
  const chains = [iidNormal(1000, rng), iidNormal(1000, rng), iidNormal(1000, rng), iidNormal(1000, rng, 2)];
  for (const form of FORMS) {
    const r = rhatClassic(chains, { form });
    assert.ok(r > 1.3, `${form}: ${r}`);
  }
  assert.ok(rhat(chains) > 1.3, `rank R-hat ${rhat(chains)}`);
});

test("split R-hat catches a trend within chains that the classic R-hat cannot see", () => {
  // Every chain drifts from 0 to 3: the chains agree with each other (classic R-hat ~ 1) but the
  // halves do not (means 0.75 and 2.25): split R-hat ~ sqrt(1 + 0.64 / 1.19) ~ 1.24.
  const rng = new Rng(403);
  const n = 1000;
  const chains = Array.from({ length: 4 }, () => Float64Array.from(iidNormal(n, rng), (v, i) => v + (3 * i) / n));
  const classic = rhatClassic(chains);
  assert.ok(classic < 1.01, `classic ${classic}`);
  assert.ok(rhatSplit(chains) > 1.1, `split ${rhatSplit(chains)}`);
  assert.ok(rhat(chains) > 1.1, `rank split ${rhat(chains)}`);
  // One chain is enough for split R-hat.
  assert.ok(rhatSplit([chains[0]]) > 1.1);
});

test("folded (tail) R-hat catches a chain with a different scale; bulk and classic do not", () => {
  // Three N(0, 1) chains and one N(0, 9): equal means, so classic and bulk R-hat ~ 1, but |x - median|
  // is three times larger in the wide chain (numpy runs of this setting gave tail R-hat 1.13-1.16).
  const rng = new Rng(404);
  const chains = [iidNormal(1000, rng), iidNormal(1000, rng), iidNormal(1000, rng), iidNormal(1000, rng, 0, 3)];
  assert.ok(rhatClassic(chains) < 1.01, `classic ${rhatClassic(chains)}`);
  assert.ok(rhatBulk(chains) < 1.01, `bulk ${rhatBulk(chains)}`);
  assert.ok(rhatTail(chains) > 1.1, `tail ${rhatTail(chains)}`);
  assert.equal(rhat(chains), rhatTail(chains));
});

test("R-hat values equal the independent numpy/scipy reference values on fixed sequences", () => {
  const rel = 1e-12;
  for (const f of FIXTURES) {
    const chains = toChains(f.chains);
    const e = f.expected;
    assertClose(rhat(chains), e.rhat, rel, `${f.name}: rhat`);
    assertClose(rhatBulk(chains), e.rhatBulk, rel, `${f.name}: rhatBulk`);
    assertClose(rhatTail(chains), e.rhatTail, rel, `${f.name}: rhatTail`);
    assertClose(rhatSplit(chains), e.rhatSplit, rel, `${f.name}: rhatSplit`);
    if (chains.length > 1) {
      assertClose(rhatClassic(chains), e.rhatClassic, rel, `${f.name}: rhatClassic`);
      assertClose(rhatClassic(chains, { form: "gelman-rubin-df" }), e.rhatGelmanRubinDf, 1e-10, `${f.name}: gelman-rubin-df`);
      assertClose(rhatClassic(chains, { form: "basic" }), e.rhatBasicUnsplit, rel, `${f.name}: basic`);
    }
  }
});

test("R-hat edge cases: one chain refused by the classic form, constant draws NaN, stuck chains infinite", () => {
  const rng = new Rng(405);
  assert.throws(() => rhatClassic([iidNormal(100, rng)]), (e: unknown) => e instanceof DiagnosticsInputError && e.problem === "too-few-chains");
  assert.throws(() => rhatClassic([iidNormal(100, rng), iidNormal(100, rng)], { form: "nonsense" as RhatClassicForm }), DiagnosticsInputError);
  const constant = [new Float64Array(10).fill(3), new Float64Array(10).fill(3)];
  assert.ok(Number.isNaN(rhatClassic(constant)) && Number.isNaN(rhat(constant)));
  const stuck = [new Float64Array(10).fill(1), new Float64Array(10).fill(2)];
  assert.equal(rhatClassic(stuck), Infinity);
  assert.equal(rhat(stuck), Infinity);
  const withNaN = [iidNormal(10, rng), Float64Array.from(iidNormal(10, rng), (v, i) => (i === 2 ? NaN : v))];
  assert.ok(Number.isNaN(rhatClassic(withNaN)) && Number.isNaN(rhat(withNaN)));
});
