import { test } from "node:test";
import assert from "node:assert/strict";
import {
  OptionError,
  exclusive,
  parseChoice,
  parseNonNegativeInteger,
  parseNumber,
  parseNumberList,
  parsePath,
  parsePositiveInteger,
  parsePositiveNumber,
  resolveKernelHyperparameters,
} from "../../src/cli/options.js";
import { parseSampleOptions } from "../../src/cli/sampleOptions.js";

function optionError(f: () => unknown): OptionError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof OptionError, `an OptionError, not ${String(e)}`);
    return e;
  }
  assert.fail("should have thrown");
}

test("numbers: finite, positive", () => {
  assert.equal(parseNumber("--x", " -2.5e1 "), -25);
  assert.equal(parsePositiveNumber("--step-size", "0.1"), 0.1);
  assert.equal(optionError(() => parsePositiveNumber("--step-size", "0")).message, '--step-size: must be a positive number, got "0"');
  assert.equal(optionError(() => parsePositiveNumber("--step-size", "-1")).message, '--step-size: must be a positive number, got "-1"');
  assert.equal(optionError(() => parseNumber("--x", "inf")).message, '--x: must be a finite number, got "inf"');
  assert.equal(optionError(() => parseNumber("--x", "0x10")).message, '--x: must be a finite number, got "0x10"');
  assert.equal(optionError(() => parseNumber("--x", "")).message, "--x: needs a number, got an empty value");
  assert.equal(optionError(() => parseNumber("--x", "NaN")).option, "--x");
});

test("integers: whole, with a lower bound and a safe upper bound", () => {
  assert.equal(parsePositiveInteger("--draws", "1000"), 1000);
  assert.equal(parseNonNegativeInteger("--burn-in", "0"), 0);
  assert.equal(parseNonNegativeInteger("--seed", "9007199254740991"), 9007199254740991);
  assert.equal(optionError(() => parsePositiveInteger("--draws", "0")).message, '--draws: must be a whole number >= 1, got "0"');
  assert.equal(optionError(() => parsePositiveInteger("--chains", "2.5")).message, '--chains: must be a whole number >= 1, got "2.5"');
  assert.equal(optionError(() => parsePositiveInteger("--chains", "1e3")).message, '--chains: must be a whole number >= 1, got "1e3"');
  assert.equal(optionError(() => parseNonNegativeInteger("--burn-in", "-1")).message, '--burn-in: must be a whole number >= 0, got "-1"');
  assert.equal(optionError(() => parseNonNegativeInteger("--seed", "9007199254740993")).message, '--seed: must be at most 9007199254740991, got "9007199254740993"');
  assert.equal(optionError(() => parseNonNegativeInteger("--seed", " ")).message, "--seed: must be a whole number >= 0, got an empty value");
});

test("lists: one value or comma-separated, each checked with its position", () => {
  assert.deepEqual(parseNumberList("--l", "1, 2,3", { positive: true }), [1, 2, 3]);
  assert.deepEqual(parseNumberList("--l", "4.85"), [4.85]);
  assert.equal(optionError(() => parseNumberList("--lengthscale", "1,0,3", { positive: true })).message, '--lengthscale: value 2 of 3 must be a positive number, got "0"');
  assert.equal(optionError(() => parseNumberList("--lengthscale", "1,,3")).message, '--lengthscale: value 2 of 3 is empty in "1,,3"');
  assert.equal(optionError(() => parseNumberList("--lengthscale", "-1", { positive: true })).message, '--lengthscale: must be a positive number, got "-1"');
});

test("choices list the known names and suggest a near miss", () => {
  assert.equal(parseChoice("--sampler", "hmc", ["rmhmc", "hmc"]), "hmc");
  assert.equal(optionError(() => parseChoice("--sampler", "nuts", ["rmhmc", "hmc"], "sampler")).message, '--sampler: unknown sampler "nuts" (known: rmhmc, hmc)');
  assert.equal(
    optionError(() => parseChoice("--likelihood", "probitt", ["probit", "logistic"], "likelihood")).message,
    '--likelihood: unknown likelihood "probitt" (known: probit, logistic); did you mean "probit"?',
  );
});

test("paths must be non-empty", () => {
  assert.equal(parsePath("--out", "runs/a"), "runs/a");
  assert.equal(optionError(() => parsePath("--out", "")).message, "--out: needs a path, got an empty value");
});

test("exclusive options", () => {
  exclusive({ "--a": "1", "--b": undefined, "--c": false });
  assert.equal(optionError(() => exclusive({ "--a": "1", "--b": "2" })).message, "--a: cannot be combined with --b: give one or the other");
});

test("kernel hyperparameters: shared or ARD lengthscales, log forms, checked against d", () => {
  const k = resolveKernelHyperparameters({ lengthscale: String(Math.exp(4.85)), signalSd: String(Math.exp(5.1)) }, 256);
  assert.equal(k.ard, false);
  assert.equal(k.logLengthscale.length, 1);
  assert.ok(Math.abs(k.logLengthscale[0] - 4.85) < 1e-14);
  assert.ok(Math.abs(k.logSignalSd - 5.1) < 1e-14);
  const ard = resolveKernelHyperparameters({ logLengthscale: "0,1,-1", logSignalSd: "-0.5" }, 3);
  assert.equal(ard.ard, true);
  assert.deepEqual(Array.from(ard.logLengthscale), [0, 1, -1]);
  assert.equal(ard.logSignalSd, -0.5);
  assert.equal(
    optionError(() => resolveKernelHyperparameters({ lengthscale: "1,2,3", signalSd: "1" }, 2, ["x1", "x2"])).message,
    "--lengthscale: 3 values given, but the data have 2 input columns (x1, x2): give one value, or 2",
  );
  assert.equal(
    optionError(() => resolveKernelHyperparameters({ logLengthscale: "1,2", signalSd: "1" }, 256)).message,
    "--log-lengthscale: 2 values given, but the data have 256 input columns: give one value, or 256",
  );
  assert.equal(optionError(() => resolveKernelHyperparameters({ lengthscale: "0", signalSd: "1" }, 2)).message, '--lengthscale: must be a positive number, got "0"');
  assert.equal(optionError(() => resolveKernelHyperparameters({ lengthscale: "1", signalSd: "-2" }, 2)).message, '--signal-sd: must be a positive number, got "-2"');
  assert.equal(optionError(() => resolveKernelHyperparameters({ lengthscale: "1", signalSd: "0" }, 2)).message, '--signal-sd: must be a positive number, got "0"');
  assert.equal(
    optionError(() => resolveKernelHyperparameters({ lengthscale: "1", logLengthscale: "0", signalSd: "1" }, 2)).message,
    "--lengthscale: cannot be combined with --log-lengthscale: give one or the other",
  );
  assert.equal(
    optionError(() => resolveKernelHyperparameters({ lengthscale: "1", signalSd: "1", logSignalSd: "0" }, 2)).message,
    "--signal-sd: cannot be combined with --log-signal-sd: give one or the other",
  );
  assert.equal(optionError(() => resolveKernelHyperparameters({ signalSd: "1" }, 2)).message, "--lengthscale: is required (or --log-lengthscale): one value, or one per input column");
  assert.equal(optionError(() => resolveKernelHyperparameters({ lengthscale: "1" }, 2)).message, "--signal-sd: is required (or --log-signal-sd)");
});

test("sample options: defaults, values, and the fixed-point rule only for RMHMC", () => {
  const o = parseSampleOptions({ data: "d.csv" });
  assert.equal(o.sampler, "laplace-nuts");
  assert.equal(o.likelihood, "probit");
  assert.equal(o.draws, 1000);
  assert.equal(o.chains, 4);
  assert.equal(o.seed, undefined);
  assert.equal(o.out, undefined);
  const p = parseSampleOptions({
    data: "d.csv",
    sampler: "hmc",
    stepSize: "0.1",
    leapfrogSteps: "10",
    draws: "200",
    burnIn: "0",
    chains: "2",
    seed: "0",
    out: "runs/x",
    force: true,
    lengthscale: "2",
  });
  assert.deepEqual(
    [p.sampler, p.stepSize, p.leapfrogSteps, p.draws, p.burnIn, p.chains, p.seed, p.out, p.force, p.kernel.lengthscale],
    ["hmc", 0.1, 10, 200, 0, 2, 0, "runs/x", true, "2"],
  );
  assert.deepEqual(parseSampleOptions({ data: "d.csv", sampler: "rmhmc", fixedPointIterations: "5" }).fixedPoint, { kind: "iterations", iterations: 5 });
  assert.deepEqual(parseSampleOptions({ data: "d.csv", sampler: "rmhmc", fixedPointTolerance: "1e-10" }).fixedPoint, { kind: "tolerance", tolerance: 1e-10 });
  assert.equal(
    optionError(() => parseSampleOptions({ data: "d.csv", sampler: "rmhmc", fixedPointIterations: "5", fixedPointTolerance: "1e-9" })).message,
    "--fixed-point-tolerance: cannot be combined with --fixed-point-iterations: give one or the other",
  );
  assert.equal(
    optionError(() => parseSampleOptions({ data: "d.csv", sampler: "hmc", fixedPointIterations: "5" })).message,
    "--fixed-point-iterations: applies only to --sampler rmhmc (the generalised leapfrog), not hmc",
  );
  assert.equal(parseSampleOptions({ data: "d.csv", sampler: "rmhmc", reversibilityTolerance: "off" }).reversibilityTolerance, false);
  assert.equal(parseSampleOptions({ data: "d.csv", sampler: "rmhmc", reversibilityTolerance: "1e-9" }).reversibilityTolerance, 1e-9);
  assert.equal(parseSampleOptions({ data: "d.csv" }).reversibilityTolerance, undefined);
  assert.match(optionError(() => parseSampleOptions({ data: "d.csv", sampler: "rmhmc", reversibilityTolerance: "none" })).message, /^--reversibility-tolerance: /);
  assert.equal(
    optionError(() => parseSampleOptions({ data: "d.csv", sampler: "ess", reversibilityTolerance: "off" })).message,
    "--reversibility-tolerance: applies only to --sampler rmhmc (the generalised leapfrog), not ess",
  );
  assert.equal(optionError(() => parseSampleOptions({})).message, "--data: is required: the CSV data set (header line; response column y)");
  assert.equal(parseSampleOptions({ data: "d.csv", likelihood: "poisson" }, { likelihoods: ["probit", "poisson"] }).likelihood, "poisson");
});
