import { test } from "node:test";
import assert from "node:assert/strict";
import {
  autocovariance,
  DiagnosticsInputError,
  essBulk,
  essGeyer,
  essGeyerSingle,
  essQuantile,
  mcseQuantile,
  rhat,
  rhatClassic,
  summarize,
} from "../../src/diagnostics/index.js";
import type { DiagnosticsInputProblem } from "../../src/diagnostics/index.js";

function refuses(f: () => unknown, problem: DiagnosticsInputProblem, pattern: RegExp): void {
  assert.throws(f, (e: unknown) => e instanceof DiagnosticsInputError && e.problem === problem && pattern.test(e.message), `expected ${problem} matching ${pattern}`);
}

const four = () => Float64Array.of(1, 2, 3, 5);

test("chains of different lengths are refused with both lengths in the message", () => {
  for (const f of [essGeyer, essBulk, rhat, rhatClassic, summarize]) {
    refuses(() => f([four(), Float64Array.of(1, 2, 3, 4, 5)]), "ragged-chains", /chain 0 has 4 draws, chain 1 has 5/);
  }
});

test("fewer than 4 draws are refused", () => {
  for (const f of [essGeyer, essBulk, rhat, summarize]) refuses(() => f([Float64Array.of(1, 2, 3)]), "too-few-draws", /at least 4 draws per chain, got 3/);
  refuses(() => essGeyerSingle(Float64Array.of(1, 2)), "too-few-draws", /at least 4 draws, got 2/);
});

test("no chains, or chains that are not Float64Arrays, are refused", () => {
  refuses(() => summarize([]), "no-chains", /at least one chain/);
  refuses(() => essGeyer([[1, 2, 3, 4] as unknown as Float64Array]), "not-float64", /chain 0 is an array of length 4, not a Float64Array/);
  refuses(() => autocovariance([1, 2] as unknown as Float64Array), "not-float64", /Float64Array/);
});

test("the classic R-hat needs two chains; probabilities must lie in [0, 1]", () => {
  refuses(() => rhatClassic([four()]), "too-few-chains", /at least 2 chains, got 1/);
  refuses(() => essQuantile([four()], 1.2), "bad-argument", /probability must be in \[0, 1\], got 1.2/);
  refuses(() => mcseQuantile([four()], -0.1), "bad-argument", /got -0.1/);
});

test("short chains: split-chain ESS needs 6 draws per half, otherwise NaN (not an error)", () => {
  const x = Float64Array.of(1, 4, 2, 8, 5, 7, 3, 6, 9, 0);
  assert.ok(Number.isNaN(essBulk([x]))); // halves of 5 draws
  assert.ok(Number.isFinite(essGeyer([x]))); // unsplit Geyer works from 4 draws
  assert.ok(Number.isFinite(summarize([x, x.map((v) => v + 1)]).rhat));
});
