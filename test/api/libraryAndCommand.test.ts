/**
 * The library and `gpmcmc sample` take their defaults from one place: the same data, options and
 * seed give the same draws, bit for bit, whether run by `runLatentGp` / `runHyperGp` with the
 * fields left out or by the command without the options (the draws files keep every bit:
 * io/numbers.ts formatNumber). Negative controls: other jitters give other draws, so the
 * comparison can fail (none at all, the library's former default, does not even factorise K here).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "../fixtures.js";
import { CLI } from "../cli/cliRun.js";
import { modelInfo } from "../../src/models/registry.js";
import { readCmdStanCsv } from "../../src/io/cmdstanReader.js";
import { runLatentGp } from "../../src/run/chains.js";
import { runHyperGp } from "../../src/run/hyperRun.js";
import type { ChainResult } from "../../src/samplers/chain/driver.js";

const N = 16;

/** The data set: one input column x, probit labels 0/1. */
function writeData(dir: string): string {
  const file = join(dir, "labels.csv");
  writeFileSync(file, "x,y\n" + Array.from({ length: N }, (_, i) => `${i / 4},${Math.sin(i / 4) + 0.3 * Math.cos(7 * i) > 0 ? 1 : 0}`).join("\n") + "\n");
  return file;
}

/** `gpmcmc sample ARGS --out DIR`; the draws of each chain as the command wrote them, draw-major over `columns`. */
function commandDraws(args: string[], out: string, chains: number, columns: string[]): Float64Array[] {
  const r = spawnSync(process.execPath, [CLI, "sample", ...args, "--out", out, "--quiet"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return Array.from({ length: chains }, (_, c) => {
    const csv = readCmdStanCsv(join(out, `draws_${c + 1}.csv`));
    const cols = columns.map((name) => csv.values[csv.columns.indexOf(name)]!);
    return Float64Array.from({ length: csv.draws * columns.length }, (_, k) => cols[k % columns.length]![Math.floor(k / columns.length)]!);
  });
}

const samples = (results: readonly ChainResult[]) => results.map((r) => r.samples);
const fColumns = Array.from({ length: N }, (_, i) => `f.${i + 1}`);

test("fixed hyperparameters, default sampler: runLatentGp with the fields left out gives gpmcmc sample's draws, bit for bit", async () => {
  const s = scratchDir();
  try {
    const file = writeData(s.dir);
    const command = commandDraws(["--data", file, "--log-lengthscale", "0.4", "--log-signal-sd", "0.7", "--chains", "2", "--draws", "25", "--burn-in", "25", "--seed", "5"], join(s.dir, "run"), 2, fColumns);
    const data = modelInfo["latent-gp"].readData(file);
    const input = { model: { logLengthscale: [0.4], logSignalSd: 0.7 }, chains: 2, draws: 25, burnIn: 25, seed: 5 };
    const run = await runLatentGp(data, input, { inProcess: true, onWarning: () => {} });
    assert.equal(run.spec.sampler.sampler, "laplace-nuts");
    assert.deepEqual(run.spec.model.jitter, { relative: 1e-6 });
    assert.equal(run.spec.adapt?.method, "dual-averaging");
    assert.deepEqual(samples(run.results), command);
    // negative controls: another relative jitter, and an absolute one, give other draws
    for (const jitter of [{ relative: 1e-4 }, 1e-5]) {
      const other = await runLatentGp(data, { ...input, model: { ...input.model, jitter } }, { inProcess: true, onWarning: () => {} });
      assert.notDeepEqual(samples(other.results), command, `jitter ${JSON.stringify(jitter)}`);
    }
    await assert.rejects(runLatentGp(data, { ...input, model: { ...input.model, jitter: 0 } }, { inProcess: true, onWarning: () => {} }), { name: "NotPositiveDefiniteError" });
    // and without adaptation (adapt: false, --no-adapt) the two agree again, and differ from the adapted run
    const unadapted = commandDraws(["--data", file, "--log-lengthscale", "0.4", "--log-signal-sd", "0.7", "--chains", "2", "--draws", "25", "--burn-in", "25", "--seed", "5", "--no-adapt"], join(s.dir, "run2"), 2, fColumns);
    const fixedStep = await runLatentGp(data, { ...input, adapt: false }, { inProcess: true, onWarning: () => {} });
    assert.equal(fixedStep.spec.adapt, undefined);
    assert.deepEqual(samples(fixedStep.results), unadapted);
    assert.notDeepEqual(unadapted, command);
  } finally {
    s.cleanup();
  }
});

test("sampled hyperparameters, default scheme: runHyperGp with the fields left out gives gpmcmc sample's draws, bit for bit", async () => {
  const s = scratchDir();
  try {
    const file = writeData(s.dir);
    const columns = ["log_lengthscale.1", "log_signal_sd", ...fColumns];
    const command = commandDraws(["--data", file, "--chains", "2", "--draws", "12", "--burn-in", "8", "--seed", "3"], join(s.dir, "run"), 2, columns);
    const data = modelInfo["latent-gp"].readData(file);
    const input = { chains: 2, draws: 12, burnIn: 8, seed: 3 };
    const run = await runHyperGp(data, input, { inProcess: true });
    assert.equal(run.spec.sampler.scheme, "pm");
    assert.equal(run.spec.model.relativeJitter, 1e-6);
    assert.deepEqual(samples(run.results), command);
    // negative control: another jitter gives other draws
    const other = await runHyperGp(data, { ...input, model: { relativeJitter: 1e-3 } }, { inProcess: true });
    assert.notDeepEqual(samples(other.results), command);
  } finally {
    s.cleanup();
  }
});
