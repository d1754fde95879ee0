/**
 * SMMALA's former name on the command line: "simplified-mmala" is refused wherever a sampler is
 * named (--sampler with or without a --model, --theta-sampler), one line naming "smmala", exit 2,
 * nothing written; a run directory whose run.json records the former name (a run started before
 * the rename) resumes with --sampler smmala, its draws those of the run never stopped. Negative
 * control: a run.json recording another sampler is refused as a different run.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "../fixtures.js";
import { gpmcmc, LOGISTIC_DATA, LOGISTIC_RUN, MAIN, rows } from "./resumeFixtures.js";

test("--sampler or --theta-sampler simplified-mmala: one line naming smmala, exit 2, nothing written", () => {
  const s = scratchDir();
  try {
    const out = join(s.dir, "run");
    const data = join(s.dir, "probit.csv");
    writeFileSync(data, "y,x\n1,0.1\n-1,0.5\n1,0.9\n-1,1.3\n");
    const base = ["--draws", "10", "--burn-in", "10", "--chains", "1", "--seed", "1", "--out", out];
    const cases: [string[], string][] = [
      [["--model", "logistic-regression", "--data", LOGISTIC_DATA, "--sampler", "simplified-mmala"], "--sampler"],
      [["--model", "fitzhugh-nagumo", "--data", LOGISTIC_DATA, "--sampler", "simplified-mmala"], "--sampler"],
      [["--data", data, "--lengthscale", "1", "--signal-sd", "1", "--sampler", "simplified-mmala"], "--sampler"],
      [["--data", data, "--scheme", "aa", "--theta-sampler", "simplified-mmala"], "--theta-sampler"],
    ];
    for (const [args, option] of cases) {
      const r = gpmcmc(["sample", ...args, ...base]);
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stderr, `gpmcmc: ${option}: "simplified-mmala" is now named "smmala"\n`, args.join(" "));
      assert.equal(existsSync(out), false, `${args.join(" ")} wrote ${out}`);
    }
  } finally {
    s.cleanup();
  }
});

/** Runs `args`, stopped by SIGTERM once its first checkpoint is on disk; its exit code. */
function stoppedAtFirstCheckpoint(args: string[], out: string): Promise<number | null> {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: "ignore" });
  const poll = setInterval(() => {
    if (!existsSync(join(out, "checkpoint_1.json"))) return;
    clearInterval(poll);
    child.kill("SIGTERM");
  }, 20);
  return new Promise((resolve) => child.on("exit", (code) => {
    clearInterval(poll);
    resolve(code);
  }));
}

test("a run recorded as simplified-mmala resumes with --sampler smmala to the draws of the run never stopped; another sampler recorded is refused", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    assert.deepEqual(LOGISTIC_RUN.slice(LOGISTIC_RUN.indexOf("--sampler"), LOGISTIC_RUN.indexOf("--sampler") + 2), ["--sampler", "smmala"]);
    const reference = join(s.dir, "reference");
    const whole = gpmcmc([...LOGISTIC_RUN, "--out", reference]);
    assert.equal(whole.status, 0, whole.stderr);
    const out = join(s.dir, "run");
    const code = await stoppedAtFirstCheckpoint([...LOGISTIC_RUN, "--out", out, "--checkpoint-every", "20"], out);
    assert.equal(code, 130, "stopped while its chains ran");
    // the record as a run started before the rename wrote it
    const record = JSON.parse(readFileSync(join(out, "run.json"), "utf8"));
    assert.equal(record.spec.sampler.sampler, "smmala");
    const recordAs = (sampler: string) => writeFileSync(join(out, "run.json"), JSON.stringify({ ...record, spec: { ...record.spec, sampler: { ...record.spec.sampler, sampler } } }));
    // negative control: a record of another sampler is another run
    recordAs("mmala");
    const other = gpmcmc([...LOGISTIC_RUN, "--resume", out]);
    assert.equal(other.status, 2, other.stderr);
    assert.match(other.stderr, /^gpmcmc: --sampler: differs from the run being resumed/);
    recordAs("simplified-mmala");
    const resumed = gpmcmc([...LOGISTIC_RUN, "--resume", out]);
    assert.equal(resumed.status, 0, resumed.stderr);
    for (const f of ["draws_1.csv", "draws_2.csv"]) assert.equal(rows(join(out, f)), rows(join(reference, f)), f);
  } finally {
    s.cleanup();
  }
});
