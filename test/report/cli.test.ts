import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, scratchDir } from "../fixtures.js";
import { writeSyntheticRun } from "./fixtures.js";

function gpmcmc(...args: string[]) {
  return spawnSync(process.execPath, [join(REPO_ROOT, "dist", "src", "cli", "main.js"), ...args], { encoding: "utf8", env: { ...process.env, GPMCMC_DEBUG: "" } });
}

test("gpmcmc report DIR writes DIR/report.html atomically and says where", () => {
  const s = scratchDir();
  try {
    writeSyntheticRun(s.dir, { chains: 2, draws: 60, variables: 3 });
    const r = gpmcmc("report", s.dir);
    assert.equal(r.stderr, "");
    assert.equal(r.status, 0);
    assert.equal(r.stdout, `wrote ${join(s.dir, "report.html")}\n`);
    assert.deepEqual(s.entries(), ["draws_1.csv", "draws_2.csv", "report.html"], "no temporary file left");
    assert.match(readFileSync(join(s.dir, "report.html"), "utf8"), /^<!DOCTYPE html>[\s\S]*<\/html>\n$/);

    const out = join(s.dir, "page.html");
    const j = gpmcmc("report", s.dir, "--variables", "f.2, lp__", "--out", out, "--json");
    assert.equal(j.status, 0, j.stderr);
    const info = JSON.parse(j.stdout) as { out: string; chains: number; ais: boolean; bytes: number };
    assert.deepEqual({ ...info, bytes: 0 }, { out, chains: 2, ais: false, bytes: 0 });
    const html = readFileSync(out, "utf8");
    assert.equal(info.bytes, Buffer.byteLength(html));
    assert.deepEqual([...html.matchAll(/<tr><th><code>([^<]+)<\/code>/g)].map((m) => m[1]), ["f.2", "lp__"]);
  } finally {
    s.cleanup();
  }
});

test("gpmcmc report: bad input is one line on stderr, exit code 2, and nothing written", () => {
  const s = scratchDir();
  try {
    const missing = join(s.dir, "no-such-run");
    const run = join(s.dir, "run");
    const empty = join(s.dir, "empty");
    spawnSync("mkdir", [run, empty]);
    writeSyntheticRun(run, { chains: 2, draws: 40, variables: 3 });
    const cases: [string[], string][] = [
      [["report", missing], `${missing}: no such directory`],
      [["report", empty], `${empty}: no draws files (draws_1.csv, draws_2.csv, ...) in this directory`],
      [["report", join(run, "draws_1.csv")], `${join(run, "draws_1.csv")}: not a directory: give the run's output directory`],
      [["report", run, "--variables", "f.1,f.9"], '--variables: no column "f.9" in the draws (columns: lp__, accept_stat__, stepsize__, n_leapfrog__, divergent__, energy__, f.1, f.2, f.3)'],
      [["report", run, "--variables", " , "], "--variables: needs one or more column names, e.g. lp__,f.1,f.2"],
      [["report", run, "--max-variables", "0"], '--max-variables: must be a whole number >= 1, got "0"'],
      [["report", run, "--out", join(s.dir, "nowhere", "r.html")], `output ${JSON.stringify(join(s.dir, "nowhere", "r.html"))}: its directory ${JSON.stringify(join(s.dir, "nowhere"))} does not exist`],
      [["report"], "missing required argument 'DIR' (see --help)"],
    ];
    for (const [args, message] of cases) {
      const before = readdirSync(s.dir, { recursive: true }).sort();
      const r = gpmcmc(...args);
      assert.equal(r.stderr, `gpmcmc: ${message}\n`, args.join(" "));
      assert.equal(r.status, 2, args.join(" "));
      assert.equal(r.stdout, "");
      assert.deepEqual(readdirSync(s.dir, { recursive: true }).sort(), before, `${args.join(" ")}: nothing written`);
    }
    assert.equal(existsSync(join(run, "report.html")), false);
  } finally {
    s.cleanup();
  }
});

test("gpmcmc report --help describes the command", () => {
  const r = gpmcmc("report", "--help");
  assert.equal(r.status, 0);
  for (const option of ["--variables <LIST>", "--max-variables <N>", "--out <FILE>", "--json"]) assert.ok(r.stdout.includes(option), option);
});
