/**
 * The memory a command may use (src/cli/memoryBudget.ts): the machine's, a control group's, or
 * GPMCMC_MAX_MEMORY; the sizes in words; and the checks' limits. The lines the checks print
 * are in the bad-input table (badInputs/).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { totalmem } from "node:os";
import { CHAIN_STATE_BYTES, CHECKPOINT_LIMIT_BYTES, checkAisFits, checkDrawsFit, checkGridDrawsFit, checkKernelMatrixFits, formatBytes, memoryLimit } from "../../src/cli/memoryBudget.js";
import { OptionError } from "../../src/cli/options.js";
import { DataError } from "../../src/io/errors.js";

test("sizes in decimal units to 3 significant digits", () => {
  assert.equal(formatBytes(999), "999 bytes");
  assert.equal(formatBytes(28.8e9), "28.8 GB");
  assert.equal(formatBytes(880e6), "880 MB");
  assert.equal(formatBytes(3.52e14), "352 TB");
  assert.equal(formatBytes(8e9), "8.00 GB");
});

test("the limit: GPMCMC_MAX_MEMORY (bytes, with k, M, G or T), else the machine's memory or a control group's below it", () => {
  assert.deepEqual(memoryLimit({ GPMCMC_MAX_MEMORY: "8G" }), { bytes: 8e9, what: "GPMCMC_MAX_MEMORY (8.00 GB)" });
  assert.equal(memoryLimit({ GPMCMC_MAX_MEMORY: "512M" }).bytes, 512e6);
  assert.equal(memoryLimit({ GPMCMC_MAX_MEMORY: "8e9" }).bytes, 8e9);
  for (const bad of ["foo", "-1", "0", "8X"]) {
    assert.throws(() => memoryLimit({ GPMCMC_MAX_MEMORY: bad }), (e: unknown) => e instanceof OptionError && e.message === `GPMCMC_MAX_MEMORY: must be a number of bytes, e.g. 8e9 or 8G, got ${JSON.stringify(bad)}`);
  }
  const machine = memoryLimit({});
  assert.ok(machine.bytes > 0 && machine.bytes <= totalmem());
  assert.ok(
    machine.what === `this machine's memory (os.totalmem(): ${formatBytes(totalmem())})` || machine.what.startsWith("this process's memory limit (its control group's: "),
    machine.what,
  );
});

test("the checks refuse only what is beyond the limit; a run without checkpoints is not held to a checkpoint's size", () => {
  const limit = { bytes: 8e9, what: "GPMCMC_MAX_MEMORY (8.00 GB)" };
  checkDrawsFit({ draws: 1000, chains: 4, variables: 500, checkpoint: true }, limit);
  const perChainOverCheckpoint = { draws: Math.ceil(CHECKPOINT_LIMIT_BYTES / (11 * 8)) + 1, chains: 1, variables: 5 };
  checkDrawsFit({ ...perChainOverCheckpoint, checkpoint: false }, limit);
  assert.throws(() => checkDrawsFit({ ...perChainOverCheckpoint, checkpoint: true }, limit), OptionError);
  checkDrawsFit({ draws: 1, chains: 8e9 / CHAIN_STATE_BYTES, variables: 5, checkpoint: false }, limit);
  assert.throws(() => checkDrawsFit({ draws: 1, chains: 8e9 / CHAIN_STATE_BYTES + 1, variables: 5, checkpoint: false }, limit), (e: unknown) => e instanceof OptionError && /^--chains: .* at most 2000000 chains fit$/.test(e.message));
  checkKernelMatrixFits({ n: 20000, path: "d.csv" }, limit);
  assert.throws(() => checkKernelMatrixFits({ n: 23000, path: "d.csv" }, limit), (e: unknown) => e instanceof DataError && e.file === "d.csv");
});

test("AIS's traces and a grid job's draws: refused only beyond the limit, ais.json's text only with --out", () => {
  const limit = { bytes: 8e9, what: "8 GB" };
  // 10 runs x 1e7 points x 80 bytes = 8e9: at the limit, accepted without --out; as text, 16e9 characters
  assert.doesNotThrow(() => checkAisFits({ temperatures: 1e7 - 1, runs: 10, out: false }, limit));
  assert.throws(() => checkAisFits({ temperatures: 1e7 - 1, runs: 10, out: true }, limit), (e) => e instanceof OptionError && /--temperatures: .* of ais\.json/.test(e.message));
  assert.throws(() => checkAisFits({ temperatures: 1e7, runs: 10, out: false }, limit), (e) => e instanceof OptionError && e.message.startsWith("--temperatures: "));
  assert.throws(() => checkAisFits({ temperatures: 5, runs: 1e9, out: false }, limit), (e) => e instanceof OptionError && e.message.startsWith("--runs: "));
  assert.doesNotThrow(() => checkAisFits({ temperatures: 1000, runs: 10, out: true }, limit));
  assert.doesNotThrow(() => checkGridDrawsFit("g.json", 1e6, limit));
  assert.throws(() => checkGridDrawsFit("g.json", 1e9, limit), (e) => e instanceof DataError && e.message.startsWith('g.json: "draws": 1000000000 draws'));
});
