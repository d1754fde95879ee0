/**
 * `gpmcmc grid collect --draws DIR`, on the built command: a small grid run on the local pool,
 * its draws collected into a directory per cell, and `gpmcmc diagnose` on each cell gives, for
 * every variable, the numbers `summarize` computes from that job's draws decoded from the grid's
 * own draws file (negative control: the same comparison against another cell's draws fails);
 * `gpmcmc report` reads a cell; --overwrite replaces an earlier collect, --force writes beside what
 * a directory holds. Each job kind names its draws' columns.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { summarize, type VariableSummary } from "../../src/diagnostics/summary.js";
import { cellDirName } from "../../src/grid/collectDraws.js";
import "../../src/grid/coxProcessRunJob.js";
import "../../src/grid/fitzhughNagumoRunJob.js";
import "../../src/grid/hyperChainJob.js";
import "../../src/grid/parametricChainJob.js";
import "../../src/grid/simulatedChainJob.js";
import "../../src/grid/volatilityRunJob.js";
import { gridDrawNames, gridJobs, readGridSpec, type GridJob } from "../../src/grid/spec.js";
import { decodeExact } from "../../src/run/checkpoint.js";
import { scratchDir } from "../fixtures.js";
import { gpmcmc } from "./badInputs/rowKit.js";

const SPEC = {
  grid: "demo seed=1", kind: "simulated-latent-chain", fixed: { draws: 60, burnIn: 20, dataSeed: 1 },
  axes: { likelihood: ["logistic"], n: [8], d: [2], "data-set": [0], sampler: ["mh-v1", "ess"], chain: [0, 1] }, out: "grid-out",
};

/** A job's draws decoded from the grid's draws file, one column per variable. */
function decodedColumns(job: GridJob): Float64Array[] {
  const stored = decodeExact<{ dim: number; draws: number; samples: Float64Array }>(readFileSync(join(job.drawsDir, `${job.id}.json`), "utf8"));
  return Array.from({ length: stored.dim }, (_, j) => Float64Array.from({ length: stored.draws }, (_, i) => stored.samples[i * stored.dim + j]!));
}

const FIELDS: (keyof VariableSummary)[] = ["mean", "sd", "mcseMean", "q5", "q50", "q95", "essBulk", "essTail", "rhat", "essGeyer", "rhatClassic"];

/** Where diagnose's rows (--json: NaN as null) differ from summarize over the decoded columns: "" when nowhere. */
function differences(rows: Record<string, number | string | null>[], names: string[], columns: Float64Array[]): string {
  const out: string[] = [];
  names.forEach((name, j) => {
    const row = rows.find((r) => r.name === name);
    if (row === undefined) return void out.push(`${name}: no row`);
    const expected = summarize([columns[j]!]);
    for (const f of FIELDS) {
      const want = Number.isNaN(expected[f]) ? null : expected[f];
      if (row[f] !== want) out.push(`${name}.${f}: diagnose ${row[f]}, decoded ${want}`);
    }
  });
  return out.join("; ");
}

test("grid collect --draws: diagnose reads each cell's draws, with the numbers of the draws the grid stored", { timeout: 120_000 }, () => {
  const s = scratchDir();
  try {
    writeFileSync(join(s.dir, "grid.json"), JSON.stringify(SPEC));
    const run = gpmcmc(["grid", "run", "grid.json", "--parallel", "1", "--quiet"], s.dir);
    assert.equal(run.code, 0, run.stderr);
    const collect = gpmcmc(["grid", "collect", "grid.json", "--draws", "cells"], s.dir);
    assert.equal(collect.code, 0, collect.stderr);
    assert.match(collect.stdout, /^wrote the draws of 4 jobs into cells, a directory per cell \(gpmcmc diagnose cells\/likelihood=logistic,n=8,d=2,data-set=0,sampler=mh-v1,chain=0 reads the first\)\n$/);
    const jobs = gridJobs(readGridSpec(join(s.dir, "grid.json")));
    const names = gridDrawNames("simulated-latent-chain", 8);
    assert.deepEqual(readdirSync(join(s.dir, "cells")).filter((f) => !f.startsWith(".")).sort(), jobs.map((j) => cellDirName(j)).sort());
    const decoded = jobs.map(decodedColumns);
    jobs.forEach((job, k) => {
      const cell = join("cells", cellDirName(job));
      assert.deepEqual(readdirSync(join(s.dir, cell)).sort(), [".gpmcmc", "draws_1.csv", "job.json"]);
      assert.equal(JSON.parse(readFileSync(join(s.dir, cell, "job.json"), "utf8")).identity, job.identity);
      const d = gpmcmc(["diagnose", cell, "--json"], s.dir);
      assert.equal(d.code, 0, d.stderr);
      const diagnosis = JSON.parse(d.stdout) as { rows: Record<string, number | string | null>[]; divergences: number | null; chains: number; draws: number; verdict: { warnings: { text: string }[] } };
      assert.equal(diagnosis.chains, 1);
      assert.equal(diagnosis.draws, 60);
      assert.equal(diagnosis.divergences, null, "a grid job records no divergences: not reported as 0");
      assert.ok(!diagnosis.verdict.warnings.some((w) => w.text.includes("lp__")), "lp__, not recorded, is not checked");
      assert.equal(differences(diagnosis.rows, names, decoded[k]!), "", cell);
      // negative control: against another cell's stored draws the same comparison fails
      assert.notEqual(differences(diagnosis.rows, names, decoded[(k + 1) % jobs.length]!), "");
    });
    const report = gpmcmc(["report", join("cells", cellDirName(jobs[0]!))], s.dir);
    assert.equal(report.code, 0, report.stderr);
    assert.ok(existsSync(join(s.dir, "cells", cellDirName(jobs[0]!), "report.html")));

    // an earlier collect is replaced with --overwrite only; a directory of other files takes the cells beside them with --force
    const again = gpmcmc(["grid", "collect", "grid.json", "--draws", "cells"], s.dir);
    assert.equal(again.code, 2);
    assert.equal(again.stderr, 'gpmcmc: output "cells": holds a finished gpmcmc run; choose another directory, or use --overwrite to replace it\n');
    const replaced = gpmcmc(["grid", "collect", "grid.json", "--draws", "cells", "--overwrite"], s.dir);
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.ok(!existsSync(join(s.dir, "cells", cellDirName(jobs[0]!), "report.html")), "--overwrite replaces the whole directory");
    mkdirSync(join(s.dir, "mine"));
    writeFileSync(join(s.dir, "mine", "notes.txt"), "kept\n");
    assert.equal(gpmcmc(["grid", "collect", "grid.json", "--draws", "mine"], s.dir).code, 2);
    const forced = gpmcmc(["grid", "collect", "grid.json", "--draws", "mine", "--force"], s.dir);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(readFileSync(join(s.dir, "mine", "notes.txt"), "utf8"), "kept\n");
    assert.ok(existsSync(join(s.dir, "mine", cellDirName(jobs[3]!), "draws_1.csv")));
    assert.deepEqual(readdirSync(s.dir).filter((f) => f.includes(".collect-")), [], "no staging directory is left");
  } finally {
    s.cleanup();
  }
});

test("each job kind names its draws' columns; a cell's directory name is its axes, made safe", () => {
  assert.deepEqual(gridDrawNames("simulated-latent-chain", 3), ["f.1", "f.2", "f.3"]);
  assert.deepEqual(gridDrawNames("hyper-chain", 2), ["theta.1", "theta.2"]);
  assert.deepEqual(gridDrawNames("parametric-chain", 2), ["beta.1", "beta.2"]);
  assert.deepEqual(gridDrawNames("volatility-run", 3), ["beta", "sigma", "phi"]);
  assert.deepEqual(gridDrawNames("fitzhugh-nagumo-run", 3), ["a", "b", "c"]);
  assert.deepEqual(gridDrawNames("lgcp-run", 2), ["x.1", "x.2"], "a kind that keeps no draws names none");
  const job = { id: "g0123", cell: { data: "a b/c", run: 1 } } as unknown as GridJob;
  assert.equal(cellDirName(job), "data=a_b_c,run=1");
  assert.equal(cellDirName(job, new Set(["data=a_b_c,run=1"])), "data=a_b_c,run=1-g0123");
});
