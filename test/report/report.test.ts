import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildReport, chooseVariables, echartsSource, loadRun, renderReport, UnknownVariableError } from "../../src/report/index.js";
import { summarize } from "../../src/diagnostics/index.js";
import { columnValues, DataError, writeCmdStanCsv } from "../../src/io/index.js";
import { fixture, scratchDir } from "../fixtures.js";
import { writeSyntheticAis, writeSyntheticRun } from "./fixtures.js";
import { chartData, chartIds, externalReferences, sections } from "./page.js";

const CHAIN_SECTIONS = ["diagnostics", "trace", "rank", "autocorrelation", "density", "energy", "sampler"];

test("the page is self-contained: ECharts inlined, nothing fetched", () => {
  const s = scratchDir();
  try {
    writeSyntheticRun(s.dir, { draws: 200 });
    const html = buildReport(s.dir);
    assert.deepEqual(externalReferences(html), []);
    assert.ok(html.includes(echartsSource()), "the ECharts build is inlined whole");
    assert.ok(echartsSource().length > 300_000 && /echarts/i.test(echartsSource().slice(0, 2000)));
    assert.equal((html.match(/<script\b/g) ?? []).length, 3, "chart data, ECharts, and the start-up script");
    // The checker itself finds what it is meant to find.
    for (const bad of [
      '<script src="https://cdn.jsdelivr.net/npm/echarts"></script>',
      '<link rel="stylesheet" href="http://example.org/a.css">',
      '<img src="plot.png">',
      "<style>body { background: url(https://example.org/x.png) }</style>",
      '<a href="report2.html">next</a>',
    ]) {
      const end = html.lastIndexOf("</body>");
      assert.notDeepEqual(externalReferences(html.slice(0, end) + bad + html.slice(end)), [], bad);
    }
  } finally {
    s.cleanup();
  }
});

test("every section has its charts: one per variable where per variable, with series", () => {
  const s = scratchDir();
  try {
    writeSyntheticRun(s.dir, { variables: 5, draws: 300, divergentEvery: 50 });
    writeSyntheticAis(s.dir);
    const html = buildReport(s.dir, { maxVariables: 4 });
    const secs = sections(html);
    assert.deepEqual([...secs.keys()], ["run", ...CHAIN_SECTIONS, "ais"]);
    const data = chartData(html);
    for (const id of ["trace", "rank", "autocorrelation", "density"]) {
      const ids = chartIds(secs.get(id) as string);
      assert.equal(ids.length, 4, `${id}: one chart per variable`);
      for (const c of ids) assert.ok((data[c].series ?? []).length >= 4, `${id} ${c}: a series per chain`);
    }
    assert.equal(chartIds(secs.get("energy") as string).length, 1);
    assert.equal(chartIds(secs.get("sampler") as string).length, 2);
    assert.equal(chartIds(secs.get("ais") as string).length, 2);
    assert.equal(chartIds(secs.get("diagnostics") as string).length, 0);
    assert.equal(Object.keys(data).length, chartIds(html).length, "an option for every chart and no more");
    // The trace of a chain with divergences marks them.
    const trace = data[chartIds(secs.get("trace") as string)[1]] as { series: { name: string; data: unknown[] }[] };
    assert.equal(trace.series.find((x) => x.name === "divergent")?.data.length, 5);
    // The energy section reports E-BFMI for each chain.
    assert.match(secs.get("energy") as string, /E-BFMI(<\/th>)?(<td[^>]*>[0-9.]+<\/td>){4}/);
  } finally {
    s.cleanup();
  }
});

test("default variables: lp__, the first three, then the highest R-hat; --variables as given", () => {
  const s = scratchDir();
  try {
    // f.7 sits apart in chain 3: its R-hat is the highest.
    writeSyntheticRun(s.dir, { variables: 10, draws: 300, shift: { variable: 7, chain: 3, by: 2 } });
    const run = loadRun(s.dir);
    const choice = chooseVariables(run, { maxVariables: 6 });
    assert.deepEqual(choice.variables.slice(0, 5), ["lp__", "f.1", "f.2", "f.3", "f.7"]);
    assert.deepEqual(choice.reasons.slice(0, 5), ["log density", "first", "first", "first", "highest R-hat"]);
    assert.equal(choice.variables.length, 6);
    assert.ok((choice.rhatAll.get("f.7") as number) > 1.1);
    assert.deepEqual(chooseVariables(run, { maxVariables: 2 }).variables, ["lp__", "f.1"]);
    assert.deepEqual(chooseVariables(run, { variables: ["f.9", "energy__", "f.9"] }).variables, ["f.9", "energy__"]);
    assert.throws(() => chooseVariables(run, { variables: ["f.11"] }), (e: unknown) => e instanceof UnknownVariableError && /no column "f\.11" in the draws/.test(e.message));

    const html = renderReport(run, { maxVariables: 6 });
    const diag = sections(html).get("diagnostics") as string;
    // The table shows src/diagnostics' numbers, and flags the R-hat of f.7 but not of f.1.
    const f1 = summarize(run.chains.map((c) => columnValues(c, "f.1")));
    const row = (name: string) => (new RegExp(`<tr><th><code>${name.replace(".", "\\.")}</code></th>.*?</tr>`).exec(diag) as RegExpExecArray)[0];
    assert.ok(row("f.1").includes(`>${Number(f1.mean.toPrecision(4))}<`), row("f.1"));
    assert.ok(row("f.1").includes(`>${f1.rhat.toFixed(3)}<`));
    assert.doesNotMatch(row("f.1"), /num warn">1\.\d{3}</);
    assert.match(row("f.7"), /num warn">1\.\d{3}</);
    assert.match(diag, /highest R-hat 1\.\d{3} \(<code>f\.7<\/code>\)/);
  } finally {
    s.cleanup();
  }
});

test("what the page says is escaped: no markup from the draws files reaches the page", () => {
  const s = scratchDir();
  try {
    writeSyntheticRun(s.dir, { draws: 50, model: "m</script><script>alert(1)</script>" });
    const html = buildReport(s.dir);
    assert.ok(!html.includes("<script>alert(1)"));
    assert.ok(html.includes("m&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert.equal((html.match(/<\/script>/g) ?? []).length, 3);
  } finally {
    s.cleanup();
  }
});

test("a CmdStan run (one chain, NUTS, theta) and chains of different lengths", () => {
  const s = scratchDir();
  try {
    copyFileSync(fixture("cmdstan", "bernoulli_nuts.csv"), join(s.dir, "draws_1.csv"));
    const html = buildReport(s.dir);
    assert.deepEqual(chooseVariables(loadRun(s.dir)).variables, ["lp__", "theta", "z.1", "z.2"]);
    assert.match(html, /<code>theta<\/code>/);
    assert.equal(chartIds(sections(html).get("trace") as string).length, 4);
  } finally {
    s.cleanup();
  }
  const t = scratchDir();
  try {
    writeSyntheticRun(t.dir, { chains: 2, drawsPerChain: [120, 80] });
    const html = buildReport(t.dir);
    assert.match(html, /the diagnostics use the first 80 of each/);
  } finally {
    t.cleanup();
  }
});

test("an AIS run without draws gives the AIS section alone; summary.json is shown", () => {
  const s = scratchDir();
  try {
    const trace = writeSyntheticAis(s.dir, { runs: 3 });
    writeFileSync(join(s.dir, "summary.json"), JSON.stringify({ seed: 11, timings: { totalSeconds: 3.5 }, sampler: "rmhmc" }));
    const html = buildReport(s.dir);
    const secs = sections(html);
    assert.deepEqual([...secs.keys()], ["run", "ais"]);
    assert.match(secs.get("run") as string, /timings\.totalSeconds<\/th><td>3\.5</);
    const data = chartData(html);
    const [paths, finals] = chartIds(secs.get("ais") as string);
    assert.equal((data[paths].series ?? []).length, 3, "a line per run");
    const finalSeries = (data[finals].series ?? []) as { name: string; data: [number, number][]; markLine?: { data: { name: string }[] } }[];
    assert.deepEqual(
      finalSeries[0].data.map((p) => p[1]),
      trace.runs.map((r) => Number(r.points[r.points.length - 1].logWeight.toPrecision(6))),
    );
    const labels = finalSeries.flatMap((x) => x.markLine?.data.map((d) => d.name) ?? []);
    assert.deepEqual(labels, ["log Z ± SE", "EP", "corrected EP"]);
  } finally {
    s.cleanup();
  }
});

test("bad run directories: DataError naming the directory or file", () => {
  const s = scratchDir();
  try {
    assert.throws(() => buildReport(join(s.dir, "nope")), (e: unknown) => e instanceof DataError && e.message === `${join(s.dir, "nope")}: no such directory`);
    assert.throws(() => buildReport(s.dir), (e: unknown) => e instanceof DataError && e.message === `${s.dir}: no draws files (draws_1.csv, draws_2.csv, ...) in this directory`);
    writeFileSync(join(s.dir, "ais.json"), '{"logZ": 1, "standardError": 0.1, "runs": []}');
    assert.throws(() => buildReport(s.dir), (e: unknown) => e instanceof DataError && /ais\.json: runs: must be a non-empty array of runs, got \[\]$/.test(e.message));
  } finally {
    s.cleanup();
  }
  const t = scratchDir();
  try {
    writeSyntheticRun(t.dir, { chains: 2, variables: 3, draws: 20 });
    writeSyntheticRun(join(t.dir), { chains: 1, variables: 4, draws: 20 }); // draws_1.csv now has another column set
    assert.throws(() => buildReport(t.dir), (e: unknown) => e instanceof DataError && e.message.endsWith("draws_2.csv: its columns differ from those of draws_1.csv: the files are not chains of one run"));
  } finally {
    t.cleanup();
  }
});

test("variables that cannot be ranked or correlated get a message in place of the chart", () => {
  const s = scratchDir();
  try {
    for (let c = 1; c <= 2; c++) {
      const draws = 40;
      const values = new Float64Array(draws * 3);
      for (let t = 0; t < draws; t++) {
        values[t * 3] = t === 7 ? NaN : Math.sin(t + c); // f.1: one NaN draw
        values[t * 3 + 1] = 1.5; // f.2: constant
        values[t * 3 + 2] = Math.cos(3 * t + c); // f.3: fine
      }
      const stats = Array.from({ length: draws }, () => ({ lp: -1, acceptStat: 0.9, stepSize: 0.1, nLeapfrog: 5, divergent: false, energy: NaN }));
      writeCmdStanCsv(join(s.dir, `draws_${c}.csv`), { model: "m", sampler: "mh", draws, burnIn: 0, chain: c }, { variables: ["f.1", "f.2", "f.3"], stats, values, timing: { warmupSeconds: 0, samplingSeconds: 1 } });
    }
    const secs = sections(buildReport(s.dir, { variables: ["f.1", "f.2", "f.3"] }));
    assert.match(secs.get("rank") as string, /f\.1<\/figcaption><p class="warn">Non-finite draws: no ranks\./);
    assert.match(secs.get("rank") as string, /f\.2<\/figcaption><p class="warn">Constant draws: no ranks\./);
    assert.match(secs.get("autocorrelation") as string, /f\.2<\/figcaption><p class="warn">Constant draws: no autocorrelation\./);
    assert.match(secs.get("density") as string, /f\.2<\/figcaption><p class="warn">Constant draws: no density\./);
    for (const id of ["rank", "autocorrelation"]) assert.equal(chartIds(secs.get(id) as string).length, 1, `${id}: only f.3 is drawn`);
    assert.equal(chartIds(secs.get("trace") as string).length, 3, "traces of all three");
    assert.match(secs.get("energy") as string, /records no energy/);
    assert.match(secs.get("diagnostics") as string, /<code>f\.2<\/code><\/th><td class="why">requested<\/td>(<td class="num( warn)?">[^<]*<\/td>){8}<td class="num warn">undefined<\/td>/);
  } finally {
    s.cleanup();
  }
});
