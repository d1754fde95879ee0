import { logGamma } from "../../src/math/index.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  betaCdf,
  betaQuantile,
  DiagnosticsInputError,
  drawsArray,
  drawsFromChains,
  essGeyerByChain,
  essGeyerSingle,
  median,
  minEssByChain,
  quantile,
  summarize,
  summarizeDraws,
  summaryRow,
  variableChains,
} from "../../src/diagnostics/index.js";
import type { VariableSummary } from "../../src/diagnostics/index.js";
import { argsort, averageRanks } from "../../src/diagnostics/argsort.js";
import { normalQuantileAS241 } from "../../src/diagnostics/transforms.js";
import { normalQuantile } from "../../src/math/index.js";
import { Rng } from "../../src/random/index.js";
import { ar1, assertClose, iidNormal } from "./helpers.js";
import { BETA, FIXTURES } from "./fixtures.js";

const toChains = (c: number[][]): Float64Array[] => c.map((x) => Float64Array.from(x));
const FIELDS: (keyof VariableSummary)[] = ["mean", "sd", "mcseMean", "q5", "q50", "q95", "essBulk", "essTail", "rhat", "essGeyer", "rhatClassic"];

test("quantiles are type 7 (R's default): hand-computed values", () => {
  // sorted 1, 2, 4, 8, 16: h = 4p; Q(0.1) = 1 + 0.4 (2 - 1) = 1.4; Q(0.5) = 4; Q(0.9) = 8 + 0.6 * 8 = 12.8.
  const x = Float64Array.of(8, 1, 16, 4, 2);
  assertClose(quantile(x, 0.1), 1.4, 1e-15, "Q(0.1)");
  assertClose(quantile(x, 0.9), 12.8, 1e-15, "Q(0.9)");
  assert.equal(median(x), 4);
  assert.equal(quantile(x, 0), 1);
  assert.equal(quantile(x, 1), 16);
  assert.equal(median([Float64Array.of(1, 2), Float64Array.of(3, 10)]), 2.5); // pooled over chains
  assert.throws(() => quantile(x, 1.5), DiagnosticsInputError);
  assert.ok(Number.isNaN(quantile(Float64Array.of(1, NaN, 3), 0.5)));
});

test("summarize equals the independent numpy/scipy reference summary on fixed sequences", () => {
  for (const f of FIXTURES) {
    const s = summarize(toChains(f.chains));
    for (const k of FIELDS) {
      const rel = k.startsWith("ess") || k === "mcseMean" ? 1e-9 : 1e-12;
      assertClose(s[k], f.expected[k], rel, `${f.name}: ${k}`, 1e-12);
    }
  }
});

test("summarizeDraws over a chains x draws x variables block equals summarize per variable", () => {
  const rng = new Rng(501);
  const chainsByVariable = [0.9, 0.3, -0.4, 0].map((phi, v) => Array.from({ length: 3 }, (_, c) => ar1(200, phi, rng, v + 0.1 * c)));
  const d = drawsFromChains(chainsByVariable);
  // The stated layout: data[(c * draws + i) * variables + v].
  assert.equal(d.data[(2 * 200 + 17) * 4 + 1], chainsByVariable[1][2][17]);
  assert.deepEqual(variableChains(d, 3)[1], chainsByVariable[3][1]);
  const table = summarizeDraws(d);
  for (let v = 0; v < 4; v++) {
    const one = summarize(chainsByVariable[v]);
    const row = summaryRow(table, v);
    for (const k of FIELDS) assert.equal(row[k], one[k], `variable ${v}: ${k}`);
  }
  const perChain = essGeyerByChain(d);
  for (let c = 0; c < 3; c++) for (let v = 0; v < 4; v++) assert.equal(perChain[c * 4 + v], essGeyerSingle(chainsByVariable[v][c]));
  const minimum = minEssByChain(d);
  for (let c = 0; c < 3; c++) assert.equal(minimum[c], Math.min(...[0, 1, 2, 3].map((v) => perChain[c * 4 + v])));
});

test("summary of a variable with a NaN draw reports NaN diagnostics without failing the others", () => {
  const rng = new Rng(502);
  const good = [iidNormal(50, rng), iidNormal(50, rng)];
  const bad = [iidNormal(50, rng), Float64Array.from(iidNormal(50, rng), (v, i) => (i === 7 ? NaN : v))];
  const table = summarizeDraws(drawsFromChains([good, bad]));
  assert.ok(Number.isFinite(table.essBulk[0]) && Number.isFinite(table.rhat[0]));
  for (const k of FIELDS) assert.ok(Number.isNaN(table[k][1]), `${k} of the NaN variable`);
});

test("drawsArray checks its layout", () => {
  assert.throws(() => drawsArray(new Float64Array(11), 2, 3, 2), (e: unknown) => e instanceof DiagnosticsInputError && e.problem === "bad-layout" && /need 12/.test(e.message));
  assert.throws(() => drawsArray(new Float64Array(0), 0, 3, 2), DiagnosticsInputError);
  assert.throws(() => summarizeDraws(drawsArray(new Float64Array(6), 2, 3, 1)), (e: unknown) => e instanceof DiagnosticsInputError && e.problem === "too-few-draws");
  assert.throws(() => variableChains(drawsArray(new Float64Array(8), 2, 4, 1), 1), DiagnosticsInputError);
});

test("beta distribution function and quantile agree with scipy.stats.beta", () => {
  for (const [p, a, b, ppf, cdf03] of BETA) {
    assertClose(betaQuantile(p, a, b), ppf, 1e-10, `betaQuantile(${p}, ${a}, ${b})`);
    assertClose(betaCdf(0.3, a, b), cdf03, 1e-10, `betaCdf(0.3, ${a}, ${b})`, 1e-300);
    assertClose(betaCdf(betaQuantile(p, a, b), a, b), p, 1e-11, `round trip (${p}, ${a}, ${b})`);
  }
  // log Gamma at integers is log((n-1)!) and Gamma(1/2) = sqrt(pi).
  assertClose(logGamma(10), Math.log(362880), 1e-14, "logGamma(10)");
  assertClose(logGamma(0.5), 0.5 * Math.log(Math.PI), 1e-14, "logGamma(0.5)");
  assertClose(logGamma(1000), 5905.220423209181, 1e-14, "logGamma(1000)"); // scipy.special.gammaln(1000)
});

test("average ranks by radix argsort equal ranks by comparison, with ties, signs, -0/+0 and infinities", () => {
  const rng = new Rng(503);
  const values = Float64Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? Math.round(rng.normal()) : rng.normal() * 10 ** rng.integer(6)));
  values[5] = -0;
  values[6] = 0;
  values[7] = Infinity;
  values[8] = -Infinity;
  values[9] = -1e-310; // subnormal
  const ranks = averageRanks(values);
  // By definition: rank = #(values < v) + (#(values == v) + 1) / 2.
  for (let i = 0; i < values.length; i++) {
    let below = 0, equal = 0;
    for (let j = 0; j < values.length; j++) {
      if (values[j] < values[i]) below++;
      else if (values[j] === values[i]) equal++;
    }
    assert.equal(ranks[i], below + (equal + 1) / 2, `value ${values[i]}`);
  }
  const order = argsort(values);
  for (let k = 1; k < order.length; k++) assert.ok(values[order[k - 1]] <= values[order[k]]);
});

test("rank normalisation uses Wichura's AS 241 quantile, equal to math's normalQuantile to rounding", () => {
  for (let k = 1; k < 2000; k++) {
    const p = k < 1000 ? k / 2000 : Math.exp(-k / 40); // the centre, then tails down to p ~ 1.4e-22
    const z = normalQuantileAS241(p);
    const ref = normalQuantile(p);
    assert.ok(Math.abs(z - ref) <= 2e-15 * Math.max(1, Math.abs(ref)), `p = ${p}: ${z} vs ${ref}`);
  }
});
