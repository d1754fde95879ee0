import { test } from "node:test";
import assert from "node:assert/strict";
import type { BrokenScheme, SchemeName } from "../../src/hyper/schemes.js";
import type { ThetaSamplerName } from "../../src/hyper/thetaSamplers.js";
import { GRID_X, GRID_Y, gridProblem, invarianceFailures } from "./hyperGrid.js";

const problem = gridProblem(GRID_X, GRID_Y);

/** Statistics (mean and mean square of psi and log sigma) whose error exceeds 4 MCSE. */
function failures(scheme: SchemeName, thetaSampler: ThetaSamplerName | undefined, seed: number, broken?: BrokenScheme): string[] {
  return invarianceFailures(problem, scheme, thetaSampler, seed, broken);
}

const CASES: [SchemeName, ThetaSamplerName | undefined, BrokenScheme][] = [
  ["sa", "mh", "gibbs-shape"],
  ["sa", "hmc", "no-jacobian"],
  ["sa", "smmala", "no-jacobian"],
  ["aa", "mh", "no-jacobian"],
  ["aa", "hmc", "no-jacobian"],
  ["aa", "smmala", "no-jacobian"],
  ["asis", "mh", "gibbs-shape"],
  ["khr", "mh", "no-proposal-density"],
  ["surr", undefined, "no-jacobian"],
];

for (const [scheme, sampler, broken] of CASES) {
  test(`${scheme} with theta sampler ${sampler ?? "slice"} leaves p(theta | y) invariant (probit, n = 2, exact grid)`, () => {
    const bad = failures(scheme, sampler, 11);
    assert.deepEqual(bad, []);
  });
  test(`${scheme} with theta sampler ${sampler ?? "slice"}, broken (${broken}): the same check fails`, () => {
    const bad = failures(scheme, sampler, 11, broken);
    assert.ok(bad.length > 0, "the broken variant passed the invariance check");
  });
}
