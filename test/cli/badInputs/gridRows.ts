/**
 * The bad-input table's rows of grid and worker (whole commands; a spec of 4 small jobs in
 * s/grid.json, varied by each row).
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jobId } from "../../../src/grid/identity.js";
import { gpmcmc, writeSpec, type CommandRow } from "./rowKit.js";

const axes = (change: Record<string, unknown>) => ({ axes: { likelihood: ["logistic"], n: [10], d: [2], "data-set": [0], sampler: ["ess"], chain: [0], ...change } });
const job = "demo seed=1 likelihood=logistic n=10 d=2 data-set=0 sampler=ess chain=0";

/** Why a directory cannot be made in `dir`, /proc or a link to it: root may write there, but the file system refuses; anyone else is refused by permissions. */
export const procRefusal = (dir: string) => (process.getuid?.() === 0 ? `the file system refuses to create it in ${JSON.stringify(dir)} (ENOENT), although that directory exists` : "permission denied");

function specRow(name: string, change: Record<string, unknown>, message: string | ((s: string) => string), args: string[] = ["grid", "run", "grid.json"]): CommandRow {
  return { name, setup: (s) => writeSpec(s, change), args: () => args, message: typeof message === "string" ? () => message : message };
}

/** The grid of writeSpec run to its end in s (its results in s/grid-out), then `change`. */
function finishedGrid(change: (s: string) => void = () => {}): (s: string) => void {
  return (s) => {
    writeSpec(s, {});
    const r = gpmcmc(["grid", "run", "grid.json", "--parallel", "1", "--quiet"], s);
    assert.equal(r.code, 0, r.stderr);
    change(s);
  };
}

/** A row of `grid collect grid.json --draws ...` on a finished grid. */
function collectRow(name: string, args: string[], message: string | ((s: string) => string), change?: (s: string) => void): CommandRow {
  return { name, setup: finishedGrid(change), args: () => ["grid", "collect", "grid.json", ...args], message: typeof message === "string" ? () => message : message };
}

/** The job of writeSpec's first cell, whose draws file the rows below damage, and that file. */
const first = "demo seed=1 likelihood=logistic n=10 d=2 data-set=0 sampler=mh-v1 chain=0";
const firstDraws = (s: string) => join(s, "grid-out", "draws", `${jobId("simulated-latent-chain", first, { draws: 20, burnIn: 5, dataSeed: 1 })}.json`);

function fileRow(name: string, text: string, message: string): CommandRow {
  return { name, setup: (s) => writeFileSync(join(s, "grid.json"), text), args: () => ["grid", "run", "grid.json"], message: () => message };
}

export const GRID_ROWS: CommandRow[] = [
  specRow("grid run: a spec without its name", { grid: undefined }, 'grid.json: "grid" must be a non-empty string (the name that starts every job\'s identity)'),
  specRow("grid run: a spec with no axis", { axes: {} }, 'grid.json: "axes" has no axis'),
  specRow("grid run: an axis that is not an array", axes({ likelihood: "logistic" }), 'grid.json: axis "likelihood" must be a non-empty array of strings or numbers'),
  specRow("grid run: an empty axis", axes({ likelihood: [] }), 'grid.json: axis "likelihood" must be a non-empty array of strings or numbers'),
  specRow("grid run: an unknown field", { bogus: 1 }, 'grid.json: unknown field "bogus" (known: grid, kind, fixed, axes, out, checkpointEvery)'),
  specRow("grid run: an unknown key in fixed (burnin for burnIn)", { fixed: { draws: 20, burnIn: 5, dataSeed: 1, burnin: 5 } },
    'grid.json: unknown field "fixed.burnin" (known in "fixed" of kind simulated-latent-chain: draws, burnIn, dataSeed)'),
  specRow("grid status: an unknown key in a parametric-chain's fixed", { kind: "parametric-chain", fixed: { draws: 20, burnIn: 5, steps: 10 }, axes: { data: ["heart_statlog"], sampler: ["mala"], run: [0] } },
    'grid.json: unknown field "fixed.steps" (known in "fixed" of kind parametric-chain: draws, burnIn, thin, start, stepSize, leapfrogSteps, trajectoryLength, smmalaTargetAcceptance, integrator)', ["grid", "status", "grid.json"]),
  specRow("grid run: an empty out", { out: "" }, 'grid.json: "out" must be a directory name'),
  specRow("grid run: a negative checkpointEvery", { checkpointEvery: -1 }, 'grid.json: "checkpointEvery" must be a non-negative integer'),
  specRow("grid run: an unknown likelihood in a job", axes({ likelihood: ["nope"] }), `grid job "${job.replace("logistic", "nope")}": unknown likelihood "nope"`),
  specRow("grid run: an unknown sampler in a job", axes({ sampler: ["nope"] }), `grid job "${job.replace("ess", "nope")}": unknown sampler "nope"`),
  specRow("grid run: a negative n in a job", axes({ n: [-1] }), `grid job "${job.replace("n=10", "n=-1")}": n must be a non-negative integer, got -1`),
  specRow("grid run: draws 0", { ...axes({}), fixed: { draws: 0, burnIn: 5, dataSeed: 1 } }, `grid job "${job}": fixed setting draws must be an integer >= 1, got 0`),
  { ...specRow("grid run: draws 1e12, beyond the memory", { ...axes({}), fixed: { draws: 1e12, burnIn: 5, dataSeed: 1 } }, 'grid.json: "draws": 1000000000000 draws x at least 7 columns (a variable and 6 statistics) x 8 bytes = 56.0 TB per chain, more than GPMCMC_MAX_MEMORY (8.00 GB); lower "draws"'), env: { GPMCMC_MAX_MEMORY: "8e9" } },
  specRow("grid run: an out directory the file system refuses (/proc)", { out: "/proc/x" }, () => `output "/proc/x": cannot be created: ${procRefusal("/proc")}`),
  {
    ...specRow("grid run: out a link to /proc, where the jobs' draws/ cannot be made", { out: "o" }, (s) => `output ${JSON.stringify(join(s, "o", "draws"))}: cannot be created: ${procRefusal(join(s, "o"))}`, ["grid", "run", "grid.json", "--parallel", "1", "--quiet"]),
    setup: (s) => {
      writeSpec(s, { out: "o" });
      symlinkSync("/proc", join(s, "o"));
    },
  },
  specRow("grid run: an out directory under a file", { out: "grid.json/sub" }, (s) => `output ${JSON.stringify(join(s, "grid.json", "sub"))}: cannot be created: a part of the path is not a directory`),
  fileRow("grid run: a spec that is a JSON array", "[1,2]\n", "grid.json: a grid spec is a JSON object"),
  fileRow("grid run: an empty spec file", "\n", "grid.json: is not JSON: Unexpected end of JSON input"),
  { name: "grid run: a directory as the spec", args: () => ["grid", "run", "."], message: () => ".: is a directory, not a file" },
  specRow("grid run: --parallel 0", {}, '--parallel: must be a whole number >= 1, got "0"', ["grid", "run", "grid.json", "--parallel", "0"]),
  specRow("grid run: --parallel with --queue", {}, "--parallel: applies to a local run; with --queue each worker sets its own --concurrency", ["grid", "run", "grid.json", "--parallel", "2", "--queue", "redis://127.0.0.1:1"]),
  specRow("grid run: an unknown option", {}, "unknown option '--bogus' (see --help)", ["grid", "run", "grid.json", "--bogus"]),
  specRow("grid run --queue: not a URL", {}, '--queue: not a URL: "nope" (expected redis://HOST:PORT)', ["grid", "run", "grid.json", "--queue", "nope"]),
  specRow("grid status --queue: not a URL", {}, '--queue: not a URL: "nope" (expected redis://HOST:PORT)', ["grid", "status", "grid.json", "--queue", "nope"]),
  specRow("grid status: no such spec", {}, "nope.json: no such file", ["grid", "status", "nope.json"]),
  specRow("grid collect: no such spec", {}, "nope.json: no such file", ["grid", "collect", "nope.json"]),
  specRow("grid collect --draws: no job has finished", {}, 'grid.json: no job of grid "demo seed=1" has finished yet (0 of 4); gpmcmc grid run grid.json runs them', ["grid", "collect", "grid.json", "--draws", "cells"]),
  specRow("grid collect: --overwrite without --draws", {}, "--overwrite: applies only with --draws DIR (it says what to do with an existing DIR)", ["grid", "collect", "grid.json", "--overwrite"]),
  specRow("grid collect: --force without --draws", {}, "--force: applies only with --draws DIR (it says what to do with an existing DIR)", ["grid", "collect", "grid.json", "--force"]),
  specRow("grid collect: --draws with --json", {}, "--draws: cannot be combined with --json: give one or the other", ["grid", "collect", "grid.json", "--draws", "cells", "--json"]),
  collectRow("grid collect --draws: a directory that is not empty and not gpmcmc's", ["--draws", "cells"], 'output "cells": the directory exists, is not empty and is not a gpmcmc output directory (it has no .gpmcmc file); choose a new directory, or use --force to write into it', (s) => {
    mkdirSync(join(s, "cells"));
    writeFileSync(join(s, "cells", "notes.txt"), "mine\n");
  }),
  collectRow("grid collect --draws: an earlier collect, without --overwrite", ["--draws", "cells"], 'output "cells": holds a finished gpmcmc run; choose another directory, or use --overwrite to replace it', (s) => {
    const r = gpmcmc(["grid", "collect", "grid.json", "--draws", "cells"], s);
    assert.equal(r.code, 0, r.stderr);
  }),
  collectRow("grid collect --draws: a directory the file system refuses (/proc)", ["--draws", "/proc/x"],
    // root may write /proc's directory, whose file system then refuses; anyone else is refused by permissions
    () => `output "/proc/x": cannot be created: ${process.getuid?.() === 0 ? 'the file system refuses to create it in "/proc" (ENOENT), although that directory exists' : '"/proc" is not writable'}`),
  collectRow("grid collect --draws: a directory under a file", ["--draws", "grid.json/cells"], 'output "grid.json/cells": cannot be created: "grid.json" is a file, not a directory'),
  collectRow("grid collect --draws: no finished job kept draws", ["--draws", "cells"], 'grid.json: no finished job of grid "demo seed=1" kept draws (4 of 4 jobs finished, none with a draws file; lgcp-run jobs keep none)', (s) => {
    // as an lgcp-run job's result says: no draws file
    for (const f of readdirSync(join(s, "grid-out", "results"))) {
      const path = join(s, "grid-out", "results", f);
      writeFileSync(path, readFileSync(path, "utf8").replace(/"drawsFile":"[^"]*"/, '"drawsFile":""'));
    }
  }),
  collectRow("grid collect --draws: a draws file missing", ["--draws", "cells"], (s) => `${firstDraws(s)}: is missing: the draws file of finished job "${first}" (its result names it)`, (s) => rmSync(firstDraws(s))),
  collectRow("grid collect --draws: a draws file that is not one", ["--draws", "cells"], (s) => `${firstDraws(s)}: is not the draws of finished job "${first}" (20 draws of 10 numbers)`, (s) => writeFileSync(firstDraws(s), "{}\n")),
  { name: "grid: an unknown subcommand", args: () => ["grid", "nope"], message: () => 'grid: unknown subcommand "nope" (known: run, status, collect)' },
  { name: "grid: no subcommand", args: () => ["grid"], message: () => "grid: needs a subcommand: run, status or collect (gpmcmc grid --help describes them)" },
  { name: "grid run: no spec", args: () => ["grid", "run"], message: () => "missing required argument 'spec' (see --help)" },
  { name: "worker: no --queue", args: () => ["worker"], message: () => "required option '--queue <url>' not specified (see --help)" },
  { name: "worker --queue: not a URL", args: () => ["worker", "--queue", "nope"], message: () => '--queue: not a URL: "nope" (expected redis://HOST:PORT)' },
  { name: "worker --queue: not redis://", args: () => ["worker", "--queue", "http://x"], message: () => '--queue: "http://x" is not a redis:// URL (expected redis://HOST:PORT)' },
  { name: "worker --concurrency 0", args: () => ["worker", "--queue", "redis://127.0.0.1:1", "--concurrency", "0"], message: () => '--concurrency: must be a whole number >= 1, got "0"' },
  { name: "worker --lock-seconds 0", args: () => ["worker", "--queue", "redis://127.0.0.1:1", "--lock-seconds", "0"], message: () => '--lock-seconds: must be a positive number, got "0"' },
];
