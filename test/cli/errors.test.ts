import { test } from "node:test";
import assert from "node:assert/strict";
import { CommanderError } from "commander";
import { isUserError, registerUserError, reportError } from "../../src/cli/errors.js";
import { OptionError } from "../../src/cli/options.js";
import { DataError, OutputError } from "../../src/io/index.js";
import { NotPositiveDefiniteError } from "../../src/linalg/errors.js";
import { LikelihoodDataError } from "../../src/likelihoods/types.js";
import { cliWithoutDebug as cli } from "./cliRun.js";

function report(e: unknown, env: Record<string, string> = {}): { code: number; text: string } {
  let text = "";
  const code = reportError(e, { stderr: (t) => (text += t), env });
  return { code, text };
}

test("user errors: one line, exit code 2, no stack", () => {
  const cases: [unknown, string][] = [
    [new DataError({ file: "d.csv", line: 7, column: 3, columnName: "x2" }, 'cell "abc" in column "x2" is not a number'), 'gpmcmc: d.csv:7:3: cell "abc" in column "x2" is not a number\n'],
    [new OptionError("--draws", 'must be a whole number >= 1, got "0"'), 'gpmcmc: --draws: must be a whole number >= 1, got "0"\n'],
    [new OutputError("out", "exists and is not a directory"), 'gpmcmc: output "out": exists and is not a directory\n'],
    [new NotPositiveDefiniteError(3, -1e-9, "the kernel matrix"), "gpmcmc: the kernel matrix is not positive definite: pivot 3 (0-based) is -1e-9\n"],
    [new LikelihoodDataError("probit", 4, 2, "-1 or +1"), "gpmcmc: probit likelihood: response 5 is 2, expected -1 or +1\n"],
  ];
  for (const [e, want] of cases) {
    const r = report(e);
    assert.equal(r.code, 2);
    assert.equal(r.text, want);
  }
});

test("errors from modules known by name (KernelParameterError) and registered ones are the user's", () => {
  const kernel = Object.assign(new Error("lengthscale must be a positive finite number, got 0"), { name: "KernelParameterError" });
  assert.equal(isUserError(kernel), true);
  assert.deepEqual(report(kernel), { code: 2, text: "gpmcmc: lengthscale must be a positive finite number, got 0\n" });
  class TargetSetupError extends Error {}
  assert.equal(isUserError(new TargetSetupError("x")), false);
  registerUserError(TargetSetupError);
  assert.equal(isUserError(new TargetSetupError("x")), true);
});

test("unexpected errors: one line saying it is a bug, exit code 1; the stack only with GPMCMC_DEBUG=1", () => {
  const r = report(new TypeError("cannot read properties of undefined\n  (reading 'x')"));
  assert.equal(r.code, 1);
  assert.equal(
    r.text,
    "gpmcmc: internal error: TypeError: cannot read properties of undefined (reading 'x') -- this is a bug; please report it with the command you ran (GPMCMC_DEBUG=1 shows the stack trace)\n",
  );
  assert.equal(report("a thrown string").text.split("\n").length, 2);
  const d = report(new RangeError("boom"), { GPMCMC_DEBUG: "1" });
  assert.equal(d.code, 1);
  assert.match(d.text, /^gpmcmc: internal error: RangeError: boom -- this is a bug; please report it with the command you ran\nRangeError: boom\n\s+at /);
  const u = report(new OptionError("--x", "bad"), { GPMCMC_DEBUG: "1" });
  assert.equal(u.code, 2);
  assert.match(u.text, /^gpmcmc: --x: bad\nOptionError: --x: bad\n\s+at /);
});

test("Commander's help and version exit 0; its usage errors 2, printed once by Commander", () => {
  assert.deepEqual(report(new CommanderError(0, "commander.helpDisplayed", "(outputHelp)")), { code: 0, text: "" });
  assert.deepEqual(report(new CommanderError(1, "commander.unknownOption", "error: unknown option '--x'")), { code: 2, text: "" });
});


test("the gpmcmc command: a usage error is one line on stderr and exit code 2", () => {
  const r = cli("info", "--bogus");
  assert.equal(r.status, 2);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, "gpmcmc: unknown option '--bogus' (see --help)\n");
  const c = cli("frobnicate");
  assert.equal(c.status, 2);
  assert.equal(c.stderr, "gpmcmc: unknown command 'frobnicate' (see --help)\n");
  const v = cli("--version");
  assert.equal(v.status, 0);
  assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
});
