// The model options of sample, ais, laplace and ep: the same names and help on every command;
// what a command cannot honour is one line naming the option, exit 2, nothing written; and
// `ais --likelihood` from the prior gives the log marginal likelihood that quadrature gives for
// one case (logistic, and Poisson with an exposure column).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { registerAisCommand, runAisCommand } from "../../src/cli/ais.js";
import { registerApproxCommands } from "../../src/cli/approx.js";
import { registerSampleCommand } from "../../src/cli/sample.js";
import { logGamma } from "../../src/math/logGamma.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";

const MODEL_FLAGS = [
  "--data", "--likelihood", "--thresholds", "--noise-sd", "--exposure-column",
  "--lengthscale", "--log-lengthscale", "--signal-sd", "--log-signal-sd", "--jitter",
];
const MODEL_COMMANDS = ["sample", "ais", "laplace", "ep"];

test("sample, ais, laplace and ep take the same model options, with the same help (--likelihood's lists each command's own)", () => {
  const program = new Command();
  registerSampleCommand(program);
  registerAisCommand(program);
  registerApproxCommands(program);
  const help = new Map<string, string>();
  for (const name of MODEL_COMMANDS) {
    const cmd = program.commands.find((c) => c.name() === name)!;
    for (const flag of MODEL_FLAGS) {
      const option = cmd.options.find((o) => o.long === flag);
      assert.ok(option, `${name} lacks ${flag}`);
      if (flag === "--likelihood") continue;
      const seen = help.get(flag);
      if (seen === undefined) help.set(flag, option.description);
      else assert.equal(option.description, seen, `${name} ${flag}`);
    }
  }
});

function gpmcmc(args: string[]) {
  return spawnSync(process.execPath, [join(REPO_ROOT, "dist", "src", "cli", "main.js"), ...args], {
    encoding: "utf8",
    env: { ...process.env, GPMCMC_DEBUG: "", GPMCMC_BACKEND: "js" },
  });
}

const REFUSED: { args: string[]; line: string }[] = [
  {
    args: ["ais", "--likelihood", "logistic", "--temperatures", "5"],
    line: "--likelihood: logistic needs --from prior: gpmcmc ais starts from EP's q (--from ep, the default) for probit only, as EP's sites are implemented for probit",
  },
  { args: ["ais", "--exposure-column", "x", "--temperatures", "5"], line: "--exposure-column: applies only to --likelihood poisson, not probit" },
  { args: ["ep", "--jitter", "1e-6"], line: "--jitter: gpmcmc ep does not take it: EP factorises I + S K S (S^2 the site precisions), which is positive definite whatever K" },
  { args: ["laplace", "--jitter", "auto"], line: "--jitter: gpmcmc laplace does not take it: its Newton steps factorise I + W^1/2 K W^1/2, which is positive definite whatever K" },
  { args: ["laplace", "--likelihood", "poisson", "--exposure-column", "x"], line: "--exposure-column: gpmcmc laplace takes poisson counts with exposure 1 only" },
  { args: ["laplace", "--likelihood", "ordinal", "--thresholds", "0"], line: "--likelihood: gpmcmc laplace takes probit, logistic, poisson, volatility, not ordinal" },
  { args: ["ep", "--thresholds", "0,1"], line: "--thresholds: applies only to --likelihood ordinal, not probit" },
  { args: ["sample", "--noise-sd", "1"], line: "--noise-sd: applies only to --likelihood ordinal, not probit" },
];

test("a model option a command cannot honour: one line naming it, exit 2, nothing written", () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "d.csv");
    writeFileSync(data, "y,x\n1,0\n-1,1\n1,2\n");
    for (const { args, line } of REFUSED) {
      const out = join(s.dir, args[0] === "ais" || args[0] === "sample" ? "run" : "q.json");
      const r = gpmcmc([...args, "--data", data, "--lengthscale", "1", "--signal-sd", "1", "--out", out]);
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stderr, `gpmcmc: ${line}\n`, args.join(" "));
      assert.equal(r.stdout, "");
      assert.equal(existsSync(out), false, `${args.join(" ")} wrote ${out}`);
    }
    assert.deepEqual(s.entries(), ["d.csv"]);
  } finally {
    s.cleanup();
  }
});

/** log of the integral of exp(logLik(f)) N(f; 0, s^2) over f, by the trapezoid rule on +-12 s. */
function quadratureLogZ(logLik: (f: number) => number, s: number): number {
  const m = 24001;
  const h = (24 * s) / (m - 1);
  const terms = Array.from({ length: m }, (_, i) => {
    const f = -12 * s + i * h;
    return logLik(f) - (0.5 * f * f) / (s * s) - Math.log(s * Math.sqrt(2 * Math.PI)) + Math.log(i === 0 || i === m - 1 ? h / 2 : h);
  });
  const top = Math.max(...terms);
  return top + Math.log(terms.reduce((t, x) => t + Math.exp(x - top), 0));
}

test("ais --likelihood logistic / poisson --exposure-column, from the prior: log Z of one case against quadrature", async () => {
  const s = scratchDir();
  try {
    const sd = 1.5;
    const cases = [
      { file: "logistic.csv", text: "y,x\n1,0.3\n", raw: { likelihood: "logistic" }, logLik: (f: number) => -Math.log1p(Math.exp(-f)) },
      { file: "counts.csv", text: "y,x,m\n3,0.3,2\n", raw: { likelihood: "poisson", exposureColumn: "m" }, logLik: (f: number) => 3 * (Math.log(2) + f) - 2 * Math.exp(f) - logGamma(4) },
    ];
    for (const c of cases) {
      writeFileSync(join(s.dir, c.file), c.text);
      const report = await runAisCommand(
        { ...c.raw, data: join(s.dir, c.file), lengthscale: "1", signalSd: String(sd), from: "prior", transition: "ess", temperatures: "300", runs: "16", seed: "5", parallel: "1", quiet: true },
        { stdout: () => {}, stderr: () => {} },
        false,
      );
      const exact = quadratureLogZ(c.logLik, sd);
      assert.equal(report.likelihood, c.raw.likelihood);
      assert.equal(report.epLogZ, null);
      assert.ok(report.standardError! < 0.1, `${c.file}: standard error ${report.standardError}`);
      assert.ok(Math.abs(report.logZ - exact) < 4 * report.standardError! + 1e-3, `${c.file}: AIS ${report.logZ} +- ${report.standardError}, quadrature ${exact}`);
    }
  } finally {
    s.cleanup();
  }
});
