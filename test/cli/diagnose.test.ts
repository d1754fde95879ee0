/**
 * `gpmcmc diagnose`: runs written with the draws-file writer (AR(1) chains, so ESS and R-hat
 * are known to be good or bad) and CmdStan's own files, read back; every number must equal
 * src/diagnostics' computed directly on the chains, and bad input must give one line, exit
 * code 2 and no output.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { essGeyer, rhatClassic, summarize, type VariableSummary } from "../../src/diagnostics/index.js";
import { diagnoseRun, prepareOutputDir, vectorNames, writeCmdStanCsv, type DrawStats } from "../../src/io/index.js";
import { Rng } from "../../src/random/index.js";
import { formatDiagnosis, formatEss, formatRhat, formatValue, runDiagnose } from "../../src/cli/diagnose.js";
import { reportError } from "../../src/cli/errors.js";
import { ar1 } from "../diagnostics/helpers.js";
import { fixture, scratchDir } from "../fixtures.js";
import { cliWithoutDebug as cli } from "./cliRun.js";

/** The verdict's warnings as printed, one line each. */
const warningTexts = (d: { verdict: { warnings: { text: string }[] } } | Record<string, any>): string[] => (d.verdict.warnings as { text: string }[]).map((w) => w.text);

const SUMMARY_FIELDS: (keyof VariableSummary)[] = ["mean", "sd", "mcseMean", "q5", "q50", "q95", "essBulk", "essTail", "rhat", "essGeyer", "rhatClassic"];
const SAMPLER = ["lp__", "accept_stat__", "stepsize__", "n_leapfrog__", "divergent__", "energy__"];

interface RunSpec {
  chains: number;
  /** Draws per chain (one entry per chain, or one for all). */
  draws: number | number[];
  /** One variable per entry: its AR(1) coefficient. */
  phis: number[];
  /** Added to variable v in chain c. */
  shift?: (v: number, c: number) => number;
  divergent?: (c: number, t: number) => boolean;
  names?: string[];
  seed?: number;
  /** Mark the chains' files incomplete (stopped early), and `declaredDraws` per chain in the config. */
  incomplete?: boolean;
  declaredDraws?: number;
  declaredChains?: number;
  /** Leave the output directory's marker at complete: false. */
  unfinished?: boolean;
}

/** What was written: byColumn[name][c] is chain c's draws of a column. */
interface WrittenRun {
  dir: string;
  names: string[];
  byColumn: Map<string, Float64Array[]>;
  divergences: number[];
}

/** Writes a run directory (draws_1.csv, ...) as the sample command lays it out. */
function writeRun(dir: string, spec: RunSpec): WrittenRun {
  const rng = new Rng(spec.seed ?? 2024);
  const nv = spec.phis.length;
  const names = spec.names ?? vectorNames("f", nv);
  const out = prepareOutputDir(dir);
  const byColumn = new Map<string, Float64Array[]>([...SAMPLER, ...names].map((n) => [n, []]));
  const divergences: number[] = [];
  for (let c = 0; c < spec.chains; c++) {
    const n = Array.isArray(spec.draws) ? spec.draws[c] : spec.draws;
    const series = spec.phis.map((phi, v) => ar1(n, phi, rng, spec.shift?.(v, c) ?? 0));
    const values = new Float64Array(n * nv);
    const stats: DrawStats[] = [];
    let div = 0;
    for (let t = 0; t < n; t++) {
      let ss = 0;
      for (let v = 0; v < nv; v++) {
        values[t * nv + v] = series[v][t];
        ss += series[v][t] ** 2;
      }
      const divergent = spec.divergent?.(c, t) ?? false;
      if (divergent) div++;
      stats.push({ lp: -0.5 * ss, acceptStat: 0.6 + 0.4 * rng.uniform(), stepSize: 0.25, nLeapfrog: 10 + (t % 3), divergent, energy: 0.5 * ss + rng.uniform() });
    }
    divergences.push(div);
    const col = (f: (t: number) => number) => Float64Array.from({ length: n }, (_, t) => f(t));
    byColumn.get("lp__")!.push(col((t) => stats[t].lp));
    byColumn.get("accept_stat__")!.push(col((t) => stats[t].acceptStat));
    byColumn.get("stepsize__")!.push(col((t) => stats[t].stepSize));
    byColumn.get("n_leapfrog__")!.push(col((t) => stats[t].nLeapfrog));
    byColumn.get("divergent__")!.push(col((t) => (stats[t].divergent ? 1 : 0)));
    byColumn.get("energy__")!.push(col((t) => stats[t].energy));
    names.forEach((name, v) => byColumn.get(name)!.push(series[v]));
    writeCmdStanCsv(
      out.open(`draws_${c + 1}.csv`),
      { model: "gp_probit", sampler: "rmhmc", draws: spec.declaredDraws ?? n, burnIn: 100, chain: c + 1, chains: spec.declaredChains ?? spec.chains, seed: 7 },
      { variables: names, stats, values, timing: { warmupSeconds: 0.5, samplingSeconds: 1.25 }, incomplete: spec.incomplete },
    );
  }
  out.finish(!spec.unfinished);
  return { dir, names, byColumn, divergences };
}


/** JSON turns NaN into null. */
const json = (x: number) => (Number.isFinite(x) ? x : null);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : 0.5 * (s[k - 1] + s[k]);
}

test("AR(1) chains written as a run: every row, and the run's Geyer ESS and classic R-hat figures, equal src/diagnostics computed on the chains", () => {
  const s = scratchDir();
  try {
    // f.4 mixes slowly (ESS ~ 4000 / 99); f.5 is shifted in chain 4 (R-hat well above 1.01).
    const run = writeRun(join(s.dir, "run"), {
      chains: 4,
      draws: 1000,
      phis: [0.2, 0.5, 0.9, 0.98, 0.3],
      shift: (v, c) => (v === 4 && c === 3 ? 1 : 0),
      divergent: (c, t) => c === 2 && t % 250 === 7,
    });
    const d = JSON.parse(runDiagnose([run.dir], { json: true })) as Record<string, any>;
    for (const key of [
      "files", "model", "chains", "draws", "truncated", "variables", "samplerColumns", "rows", "minEss", "medianEss", "maxEss", "minEssVariable",
      "rhatMax", "rhatMaxVariable", "divergences", "transitions", "samplingSeconds", "minEssPerSecond", "verdict",
    ]) {
      assert.ok(key in d, `--json output has ${key}`);
    }
    assert.equal(d.chains, 4);
    assert.equal(d.draws, 1000);
    assert.equal(d.variables, 5);
    assert.equal(d.model, "gp_probit");
    assert.deepEqual(d.samplerColumns, SAMPLER);
    assert.deepEqual(
      d.rows.map((r: { name: string }) => r.name),
      [...SAMPLER, ...run.names],
    );
    for (const row of d.rows) {
      const want = summarize(run.byColumn.get(row.name)!);
      for (const f of SUMMARY_FIELDS) assert.equal(row[f], json(want[f]), `${row.name}.${f}`);
      assert.equal(row.kind, row.name.endsWith("__") ? "sampler" : "variable");
    }

    // The run-level figures, as the sample command's summary computes them.
    const ess = run.names.map((n) => essGeyer(run.byColumn.get(n)!));
    const rhat = run.names.map((n) => rhatClassic(run.byColumn.get(n)!));
    assert.equal(d.minEss, Math.min(...ess));
    assert.equal(d.minEssVariable, run.names[ess.indexOf(Math.min(...ess))]);
    assert.equal(d.medianEss, median(ess));
    assert.equal(d.maxEss, Math.max(...ess));
    assert.equal(d.rhatMax, Math.max(...rhat));
    assert.equal(d.rhatMaxVariable, "f.5");
    assert.ok(["f.4", "f.5"].includes(d.minEssVariable), d.minEssVariable);
    const sums = new Map([...run.byColumn].map(([n, chains]) => [n, summarize(chains)]));
    const bulk = run.names.map((n) => sums.get(n)!.essBulk);
    assert.equal(d.verdict.essBulkMin, Math.min(...bulk));
    assert.equal(d.verdict.essBulkMinVariable, run.names[bulk.indexOf(Math.min(...bulk))]);
    const tail = run.names.map((n) => sums.get(n)!.essTail);
    assert.equal(d.verdict.essTailMin, Math.min(...tail));
    const rank = run.names.map((n) => sums.get(n)!.rhat);
    assert.equal(d.verdict.rhatRankMax, Math.max(...rank));
    assert.equal(d.verdict.rhatRankMaxVariable, run.names[rank.indexOf(Math.max(...rank))]);
    assert.equal(d.samplingSeconds, 5);
    assert.equal(d.minEssPerSecond, d.minEss / 5);

    // Divergences and flags.
    assert.equal(d.divergences, 4);
    assert.deepEqual(run.divergences, [0, 0, 4, 0]);
    assert.deepEqual(d.files.map((f: { divergences: number }) => f.divergences), [0, 0, 4, 0]);
    assert.equal(d.transitions, 4000);
    assert.deepEqual(d.verdict.thresholds, { rhat: 1.01, ess: 400, ebfmi: 0.3 });
    // Flags: lp__ and the variables past the thresholds, worst first.
    const checked = ["lp__", ...run.names];
    const flagged = (bad: (x: VariableSummary) => boolean, key: (x: VariableSummary) => number) =>
      checked.filter((n) => bad(sums.get(n)!)).sort((a, b) => key(sums.get(a)!) - key(sums.get(b)!));
    assert.deepEqual(d.verdict.flags.rhat, flagged((x) => x.rhat > 1.01, (x) => -x.rhat));
    assert.deepEqual(d.verdict.flags.essBulk, flagged((x) => x.essBulk < 400, (x) => x.essBulk));
    assert.deepEqual(d.verdict.flags.essTail, flagged((x) => x.essTail < 400, (x) => x.essTail));
    for (const f of ["f.4", "f.5"]) assert.ok(d.verdict.flags.rhat.includes(f) && d.verdict.flags.essBulk.includes(f), `${f} is flagged`);
    for (const f of ["f.1", "f.2"]) assert.ok(!d.verdict.flags.rhat.includes(f) && !d.verdict.flags.essBulk.includes(f), `${f} is not flagged`);
    assert.deepEqual(d.verdict.flags.notComputable, []);
    const k = d.verdict.flags.rhat.length;
    assert.ok(warningTexts(d).some((w: string) => w.startsWith(`R_hat > 1.01 for ${k} of 6 quantities, worst: ${d.verdict.flags.rhat[0]} (`)));
    assert.ok(warningTexts(d).includes("4 of 4000 transitions (0.1%) after burn-in were divergent (chain 3: 4): the estimates may be biased; raise --target-acceptance (e.g. 0.95), or give a smaller --step-size"), warningTexts(d).join("\n"));
    // Low ESS and R-hat say how many draws would do: the lowest flagged ESS brought to 400, with a quarter to spare.
    const lowest = Math.min(...["lp__", ...run.names].flatMap((n) => [sums.get(n)!.essBulk, sums.get(n)!.essTail]));
    assert.ok(d.verdict.suggestedDraws >= (1000 * 1.25 * 400) / lowest, String(d.verdict.suggestedDraws));
    assert.ok(warningTexts(d).some((w) => w.startsWith("ESS_bulk < 400 ") && w.endsWith(`: posterior means and medians may be unreliable; run longer: --draws ${d.verdict.suggestedDraws}`)));

    // The human table: the same numbers, laid out as stansummary does.
    const r = cli("diagnose", run.dir);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    const lines = r.stdout.split("\n");
    assert.equal(lines[0], "Inference for gp_probit: 4 chains of 1000 draws (4000 in all)");
    const h = lines.findIndex((l) => /^\s+Mean\s/.test(l));
    assert.deepEqual(lines[h].trim().split(/\s+/), ["Mean", "MCSE", "StdDev", "5%", "50%", "95%", "ESS_bulk", "ESS_tail", "R_hat"]);
    const table = lines.slice(h + 1, h + 8).map((l) => l.trim().split(/\s+/));
    assert.deepEqual(
      table.map((c) => c[0]),
      ["lp__", "accept_stat__", "f.1", "f.2", "f.3", "f.4", "f.5"],
    );
    for (const cells of table) {
      const w = summarize(run.byColumn.get(cells[0])!);
      const want = [w.mean, w.mcseMean, w.sd, w.q5, w.q50, w.q95].map((x) => formatValue(x)).concat([formatEss(w.essBulk), formatEss(w.essTail), formatRhat(w.rhat)]);
      assert.deepEqual(cells.slice(1, 10), want, cells[0]);
      const flagged = w.rhat > 1.01 || w.essBulk < 400 || w.essTail < 400;
      assert.equal(cells[10] === "*", flagged, `${cells[0]} flag`);
    }
    assert.equal(table[5][10], "*");
    assert.equal(table[6][10], "*");
    assert.ok(r.stdout.includes(`  ESS (Geyer's initial monotone sequence, chains pooled): min ${formatEss(d.minEss)} (${d.minEssVariable}), median ${formatEss(d.medianEss)}, max ${formatEss(d.maxEss)}\n`));
    assert.ok(r.stdout.includes(`  R-hat (classic Gelman-Rubin): max ${formatRhat(d.rhatMax)} (f.5)\n`));
    assert.ok(r.stdout.includes("Divergences: 4 of 4000 transitions\n"));
    assert.ok(r.stdout.includes(`\nWarnings:\n  R_hat > 1.01 for ${k} of 6 quantities`));
    assert.deepEqual(s.entries(), ["run"], "diagnose writes nothing");
    assert.deepEqual(readdirSync(run.dir).sort(), [".gpmcmc", "draws_1.csv", "draws_2.csv", "draws_3.csv", "draws_4.csv"]);
  } finally {
    s.cleanup();
  }
});

test("a run that mixes well gets no warnings", () => {
  const s = scratchDir();
  try {
    const run = writeRun(join(s.dir, "run"), { chains: 2, draws: 600, phis: [0, 0.1], seed: 5 });
    const d = diagnoseRun([run.dir]);
    assert.deepEqual(warningTexts(d), []);
    assert.deepEqual(d.verdict.flags, { rhat: [], notComputable: [], essBulk: [], essTail: [] });
    assert.match(formatDiagnosis(d), /\nNo warnings: R_hat <= 1\.01, ESS_bulk and ESS_tail >= 200 for lp__ and every variable, no divergent transitions, E-BFMI >= 0\.3 in every chain\.\n$/);
  } finally {
    s.cleanup();
  }
});

/** Reads a CmdStan CSV by hand (comment lines skipped, cells split on ","), for an independent check of the reader. */
function readByHand(path: string): Map<string, number[]> {
  const lines = readFileSync(path, "utf8").split("\n").filter((l) => l !== "" && !l.startsWith("#"));
  const header = lines[0].split(",");
  const cols = new Map<string, number[]>(header.map((h) => [h, []]));
  for (const l of lines.slice(1)) l.split(",").forEach((c, j) => cols.get(header[j])!.push(Number(c)));
  return cols;
}

test("CmdStan's own files (two chains, treedepth__, six digits, (Default) markers) are read and summarised", () => {
  const files = [1, 2].map((k) => fixture("cmdstan", "two_chains", `output_${k}.csv`));
  const d = diagnoseRun(files);
  assert.equal(d.model, "eight_schools_model");
  assert.equal(d.chains, 2);
  assert.equal(d.draws, 60);
  assert.deepEqual(d.variables, ["mu", "theta.1", "theta.2"]);
  assert.deepEqual(d.samplerColumns, ["lp__", "accept_stat__", "stepsize__", "treedepth__", "n_leapfrog__", "divergent__", "energy__"]);
  const byHand = files.map(readByHand);
  for (const row of d.rows) {
    const want = summarize(byHand.map((cols) => Float64Array.from(cols.get(row.name)!)));
    for (const f of SUMMARY_FIELDS) assert.ok(Object.is(row[f], want[f]), `${row.name}.${f}: ${row[f]} vs ${want[f]}`);
  }
  assert.equal(d.divergences, 2);
  assert.deepEqual(d.files.map((f) => f.divergences), [0, 2]);
  assert.deepEqual(d.files.map((f) => f.samplingSeconds), [0.018, 0.018]);
  assert.deepEqual(d.files.map((f) => f.expectedDraws), [60, 60]);
  assert.deepEqual(d.verdict.flags.rhat, ["theta.2"]);
  assert.equal(d.verdict.essBulkMinVariable, "theta.2");
  assert.deepEqual(d.verdict.thresholds, { rhat: 1.01, ess: 200, ebfmi: 0.3 });
});

test("a single CmdStan file with nan and inf draws: those rows are NaN, named in the warnings, and the rest still summarised", () => {
  const path = fixture("cmdstan", "bernoulli_nuts.csv");
  const r = cli("diagnose", path);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Inference for bernoulli_model: 1 chain of 4 draws \(4 in all\)\n/);
  const z1 = r.stdout.split("\n").find((l) => l.startsWith("z.1 "));
  assert.deepEqual(z1?.trim().split(/\s+/), ["z.1", ...Array(9).fill("NaN")]);
  const theta = r.stdout.split("\n").find((l) => l.startsWith("theta "))!.trim().split(/\s+/);
  assert.equal(theta[1], formatValue((0.247746 + 0.213172 + 0.176389 + 0.320186) / 4));
  assert.ok(r.stdout.includes("  R-hat (classic Gelman-Rubin): needs 2 or more chains\n"));
  assert.ok(r.stdout.includes("R_hat or ESS cannot be computed for 4 of 4 quantities (constant or non-finite draws, or too few draws): lp__, theta, z.1, z.2"));
});

test("--truncate cuts chains of different lengths to the shortest, says so, and summarises the first draws of each", () => {
  const s = scratchDir();
  try {
    const run = writeRun(join(s.dir, "run"), { chains: 2, draws: [100, 80], phis: [0.4, 0.4] });
    assert.throws(() => diagnoseRun([run.dir]), /has 80 draws, but .*draws_1\.csv has 100: the chains differ in length/);
    const d = diagnoseRun([run.dir], { truncate: true });
    assert.equal(d.draws, 80);
    assert.equal(d.truncated, true);
    const want = summarize(run.byColumn.get("f.2")!.map((x) => x.slice(0, 80)));
    assert.deepEqual(d.rows.find((r) => r.name === "f.2"), { name: "f.2", kind: "variable", ...want });
    assert.ok(warningTexts(d).includes("chains cut to their first 80 draws (the files hold 100, 80)"));
    assert.match(formatDiagnosis(d), /^Inference for gp_probit: 2 chains of 80 draws \(160 in all\), chains cut to the shortest\n/);
  } finally {
    s.cleanup();
  }
});

test("runs that stopped early are flagged: from the files' incomplete marker, the directory's marker, and the declared number of chains", () => {
  const s = scratchDir();
  try {
    const stopped = writeRun(join(s.dir, "stopped"), { chains: 2, draws: 50, declaredDraws: 100, phis: [0.3], incomplete: true, unfinished: true });
    const d = diagnoseRun([stopped.dir]);
    assert.deepEqual(d.files.map((f) => [f.incomplete, f.draws, f.expectedDraws]), [[true, 50, 100], [true, 50, 100]]);
    assert.ok(warningTexts(d).includes(`${join(stopped.dir, "draws_1.csv")}: the run stopped early: 50 of 100 draws`));
    assert.ok(warningTexts(d).includes(`${join(stopped.dir, "draws_2.csv")}: the run stopped early: 50 of 100 draws`));
    assert.ok(!warningTexts(d).some((w) => w.includes(".gpmcmc")), "the files already say it");

    const running = writeRun(join(s.dir, "running"), { chains: 2, draws: 50, phis: [0.3], unfinished: true, declaredChains: 3 });
    const e = diagnoseRun([running.dir]);
    assert.ok(warningTexts(e).includes(`${running.dir}: the run did not complete (its .gpmcmc marker says so): it is still running, or it stopped early`));
    assert.ok(warningTexts(e).includes("the files say the run had 3 chains, but 2 were given"));
    const done = writeRun(join(s.dir, "done"), { chains: 2, draws: 50, phis: [0.3] });
    assert.ok(!warningTexts(diagnoseRun([done.dir])).some((w) => /did not complete|stopped early|chains, but/.test(w)));
  } finally {
    s.cleanup();
  }
});

test("many variables: the table shows lp__, accept_stat__, the first and the worst few and a line for the rest; --all every row; --variables chooses", () => {
  const s = scratchDir();
  try {
    const phis = Array.from({ length: 40 }, () => 0.3);
    const run = writeRun(join(s.dir, "run"), { chains: 2, draws: 200, phis, shift: (v, c) => (v === 29 && c === 1 ? 1.5 : 0) });
    const d = diagnoseRun([run.dir]);
    const text = formatDiagnosis(d);
    const lines = text.split("\n");
    const rowNames = lines.filter((l) => /^(f\.\d+|lp__|accept_stat__) /.test(l)).map((l) => l.split(" ")[0]);
    assert.deepEqual(rowNames.slice(0, 7), ["lp__", "accept_stat__", "f.1", "f.2", "f.3", "f.4", "f.5"]);
    assert.ok(rowNames.includes("f.30"), "the variable with the worst R-hat is shown");
    assert.ok(rowNames.length < 2 + 40);
    const skipped = lines.filter((l) => l.startsWith("... ")).map((l) => Number(/^\.\.\. (\d+) rows?$/.exec(l)![1]));
    assert.equal(skipped.reduce((a, b) => a + b, 0) + rowNames.length - 2, 40, "shown and skipped rows add up to the variables");
    assert.ok(lines.find((l) => l.startsWith("f.30 "))!.endsWith(" *"), "and flagged");
    assert.match(text, new RegExp(`\\n\\(${40 - (rowNames.length - 2)} of 40 variables not shown, with R_hat [0-9.]+ to [0-9.]+, ESS_bulk \\d+ to \\d+, ESS_tail \\d+ to \\d+; --all shows every row, --variables chooses\\)\\n`));

    const all = formatDiagnosis(d, { all: true }).split("\n");
    assert.deepEqual(
      all.filter((l) => /^(f\.\d+|lp__|accept_stat__) /.test(l)).map((l) => l.split(" ")[0]),
      ["lp__", "accept_stat__", ...run.names],
    );
    assert.ok(!all.some((l) => l.startsWith("... ")));

    const chosen = runDiagnose([run.dir], { variables: "f.3,lp__,f.3" }).split("\n");
    assert.deepEqual(chosen.filter((l) => /^(f\.\d+|lp__|accept_stat__) /.test(l)).map((l) => l.split(" ")[0]), ["f.3", "lp__"]);
    const asJson = JSON.parse(runDiagnose([run.dir], { variables: "f", json: true }));
    assert.deepEqual(asJson.rows.map((r: { name: string }) => r.name), run.names);
    assert.equal(asJson.minEss, d.minEss, "the run-level figures cover every variable whatever rows are chosen");
  } finally {
    s.cleanup();
  }
});

test("formatting: R-hat to 3 decimals (4 where 3 would hide a flag), values to 3 significant figures", () => {
  assert.equal(formatRhat(1.0042), "1.004");
  assert.equal(formatRhat(1.0102), "1.0102");
  assert.equal(formatRhat(1.0098), "1.010");
  assert.equal(formatRhat(NaN), "NaN");
  assert.equal(formatValue(0.123456), "0.123");
  assert.equal(formatValue(-12.3456), "-12.3");
  assert.equal(formatValue(123456.7), "123457");
  assert.equal(formatValue(0.000123456), "1.23e-4");
  assert.equal(formatValue(2.5e7), "2.50e7");
  assert.equal(formatValue(0), "0");
  assert.equal(formatValue(-Infinity), "-inf");
  assert.equal(formatValue(1 / 3, 5), "0.33333");
  assert.equal(formatEss(812.49), "812");
});

// ---------------------------------------------------------------------------------------------
// Bad input: one line, exit code 2, nothing written

interface BadRow {
  name: string;
  args: (dir: string) => { paths: string[]; options?: Record<string, string | boolean> };
  message: (dir: string) => string;
}

function lineOf(text: string, predicate: (l: string) => boolean): number {
  return text.split("\n").findIndex(predicate) + 1;
}

/** A small good run plus broken copies of its files, in `dir`. */
function setupBad(dir: string): void {
  writeRun(join(dir, "good"), { chains: 2, draws: 20, phis: [0.3, 0.3, 0.3] });
  const good = readFileSync(join(dir, "good", "draws_2.csv"), "utf8");
  const rows = good.split("\n");
  const third = rows.findIndex((l) => /^-?\d/.test(l)) + 2; // 0-based index of the third draw
  const cells = rows[third].split(",");
  cells[7] = "abc";
  writeFileSync(join(dir, "bad_cell.csv"), [...rows.slice(0, third), cells.join(","), ...rows.slice(third + 1)].join("\n"));
  writeFileSync(join(dir, "ragged.csv"), [...rows.slice(0, third), cells.slice(0, 7).join(","), ...rows.slice(third + 1)].join("\n"));
  writeFileSync(join(dir, "empty.csv"), "");
  writeFileSync(join(dir, "other_vars.csv"), good.replace(",f.3\n", ",g.1\n"));
  const firstDraws = (k: number) => {
    let seen = 0;
    return rows.filter((l) => !/^-?\d/.test(l) || ++seen <= k).join("\n");
  };
  writeFileSync(join(dir, "short.csv"), firstDraws(2));
  writeFileSync(join(dir, "ten.csv"), firstDraws(10));
  mkdirSync(join(dir, "no_draws"));
  writeFileSync(join(dir, "no_draws", "output_1.csv"), good);
}

const BAD: BadRow[] = [
  { name: "missing directory", args: (d) => ({ paths: [join(d, "nope")] }), message: (d) => `${join(d, "nope")}: no such file or directory` },
  {
    name: "a directory without draws files",
    args: (d) => ({ paths: [join(d, "no_draws")] }),
    message: (d) => `${join(d, "no_draws")}: no draws files (draws_1.csv, draws_2.csv, ...) in this directory; give CmdStan's output files by name`,
  },
  {
    name: "a non-numeric cell",
    args: (d) => ({ paths: [join(d, "good", "draws_1.csv"), join(d, "bad_cell.csv")] }),
    message: (d) => `${join(d, "bad_cell.csv")}:${lineOf(readFileSync(join(d, "bad_cell.csv"), "utf8"), (l) => l.includes(",abc,"))}:8: cell "abc" in column "f.2" is not a number`,
  },
  {
    name: "a ragged row",
    args: (d) => ({ paths: [join(d, "ragged.csv")] }),
    message: (d) => `${join(d, "ragged.csv")}:${lineOf(readFileSync(join(d, "ragged.csv"), "utf8"), (l) => /^-?\d/.test(l) && l.split(",").length === 7)}: row has 7 cells, the header has 9`,
  },
  { name: "an empty file", args: (d) => ({ paths: [join(d, "empty.csv")] }), message: (d) => `${join(d, "empty.csv")}: file is empty` },
  {
    name: "files from different runs (different variables)",
    args: (d) => ({ paths: [join(d, "good", "draws_1.csv"), join(d, "other_vars.csv")] }),
    message: (d) =>
      `${join(d, "other_vars.csv")}: its columns differ from those of ${join(d, "good", "draws_1.csv")} (it lacks "f.3"; it has "g.1", which ${join(d, "good", "draws_1.csv")} lacks): files from different runs cannot be summarised together`,
  },
  {
    name: "chains of different lengths",
    args: (d) => ({ paths: [join(d, "good", "draws_1.csv"), join(d, "ten.csv")] }),
    message: (d) =>
      `${join(d, "ten.csv")}: has 10 draws, but ${join(d, "good", "draws_1.csv")} has 20: the chains differ in length (a run stopped early?); ` +
      "use --truncate to summarise the first 10 draws of each chain",
  },
  {
    name: "too few draws",
    args: (d) => ({ paths: [join(d, "good", "draws_1.csv"), join(d, "short.csv")] }),
    message: (d) => `${join(d, "short.csv")}: has 2 draws; the diagnostics need at least 4 per chain`,
  },
  {
    name: "the same file twice",
    args: (d) => ({ paths: [join(d, "good"), join(d, "good", "draws_2.csv")] }),
    message: (d) => `${join(d, "good", "draws_2.csv")}: is given twice: each chain's file once`,
  },
  {
    name: "an unknown variable",
    args: (d) => ({ paths: [join(d, "good")], options: { variables: "f.1,h" } }),
    message: () => `--variables: no column "h" in the draws (variables: f.1, f.2, f.3; sampler columns: ${SAMPLER.join(", ")})`,
  },
  {
    name: "--all with --variables",
    args: (d) => ({ paths: [join(d, "good")], options: { all: true, variables: "f.1" } }),
    message: () => "--all: cannot be combined with --variables: give one or the other",
  },
  { name: "--sig-figs 0", args: (d) => ({ paths: [join(d, "good")], options: { sigFigs: "0" } }), message: () => '--sig-figs: must be a whole number >= 1, got "0"' },
  {
    name: "--sig-figs 18",
    args: (d) => ({ paths: [join(d, "good")], options: { sigFigs: "18" } }),
    message: () => "--sig-figs: must be at most 17 (a double has 17 significant digits), got 18",
  },
];

test("bad input: one line naming the file (and line and column) or the option, exit code 2, nothing written", () => {
  const s = scratchDir();
  try {
    setupBad(s.dir);
    const before = JSON.stringify([s.entries(), readdirSync(join(s.dir, "good")).sort()]);
    for (const row of BAD) {
      const { paths, options } = row.args(s.dir);
      let text = "";
      let code = 0;
      try {
        runDiagnose(paths, options ?? {});
      } catch (e) {
        code = reportError(e, { stderr: (t) => (text += t), env: {} });
      }
      assert.equal(code, 2, `${row.name}: exit code (${text.trim()})`);
      assert.equal(text, `gpmcmc: ${row.message(s.dir)}\n`, row.name);
    }
    assert.equal(JSON.stringify([s.entries(), readdirSync(join(s.dir, "good")).sort()]), before, "nothing was written");
  } finally {
    s.cleanup();
  }
});

test("bad input through the gpmcmc command: exit code 2, one line on stderr, nothing on stdout", () => {
  const s = scratchDir();
  try {
    setupBad(s.dir);
    for (const [args, want] of [
      [[join(s.dir, "nope")], `gpmcmc: ${join(s.dir, "nope")}: no such file or directory\n`],
      [[join(s.dir, "good", "draws_1.csv"), join(s.dir, "other_vars.csv"), "--json"], `gpmcmc: ${BAD[5].message(s.dir)}\n`],
      [[join(s.dir, "good", "draws_1.csv"), join(s.dir, "bad_cell.csv")], `gpmcmc: ${BAD[2].message(s.dir)}\n`],
      [[], "gpmcmc: missing required argument 'paths' (see --help)\n"],
    ] as [string[], string][]) {
      const r = cli("diagnose", ...args);
      assert.equal(r.status, 2, args.join(" "));
      assert.equal(r.stdout, "");
      assert.equal(r.stderr, want);
    }
  } finally {
    s.cleanup();
  }
});
