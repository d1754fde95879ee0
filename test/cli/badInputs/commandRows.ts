/**
 * The bad-input table's rows of whole commands (badInputMore.test.ts runs each with the built
 * `gpmcmc` in a scratch directory, its working directory).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DATA, GRID_KINDS, KERNEL, SHORT_RUN, base, finishedRun, gpmcmc, inBase, killedRun, limit8G, memory8G, writeBig, writeSpec, type CommandRow } from "./rowKit.js";

const K = KERNEL;

const sha12 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 12);

/** The set-up of `base` and a finished run in s/rel on s/d.csv named as relative, then `change`. */
function relativeRun(change: (s: string) => void): (s: string) => void {
  return (s) => {
    base(s);
    const r = gpmcmc(["sample", "--data", "d.csv", ...K, "--draws", "20", "--burn-in", "10", "--chains", "1", "--seed", "3", "--quiet", "--out", "rel"], s);
    assert.equal(r.code, 0, r.stderr);
    change(s);
  };
}
export const COMMAND_ROWS: CommandRow[] = [
  inBase("sample: --force without --out", ["sample", "--data", "d.csv", ...K, "--force"], "--force: needs --out (it lets the run write into an existing --out directory that is not gpmcmc's)"),
  inBase("sample: --overwrite without --out", ["sample", "--data", "d.csv", ...K, "--overwrite"], "--overwrite: needs --out (it replaces the run in the --out directory)"),
  inBase("sample --model logistic-regression: --overwrite without --out", ["sample", "--data", "d.csv", "--model", "logistic-regression", "--overwrite"], "--overwrite: needs --out (it replaces the run in the --out directory)"),
  inBase("sample: --checkpoint-every without --out", ["sample", "--data", "d.csv", ...K, "--checkpoint-every", "5"], "--checkpoint-every: needs --out (the checkpoints are written into the output directory)"),
  inBase("sample --out: a finished run", ["sample", "--data", "d.csv", ...K, "--out", "run"], 'output "run": holds a finished gpmcmc run; choose another directory, or use --overwrite to replace it'),
  inBase("sample --resume: an ais run", ["sample", "--data", "d.csv", "--resume", "aisrun"], 'output "aisrun": holds a gpmcmc ais run; continue it with gpmcmc ais --resume aisrun'),
  inBase("sample --resume: a run with fixed hyperparameters, resumed without them", ["sample", "--data", "d.csv", "--resume", "run"], "--lengthscale: the run in run has fixed kernel hyperparameters; resume it with the --lengthscale and --signal-sd it was started with"),
  inBase("sample --resume: no such directory", ["sample", "--data", "d.csv", ...K, "--resume", "nodir"], 'output "nodir": is not a gpmcmc output directory; --resume takes the --out directory of an earlier sample run'),
  inBase("sample: --out and --resume together", ["sample", "--data", "d.csv", ...K, "--out", "run2", "--resume", "run"], "--resume: continues the run in its own directory: give --out or --resume, not both"),
  inBase("sample: an unknown option", ["sample", "--data", "d.csv", ...K, "--bogus"], "unknown option '--bogus' (see --help)"),
  inBase("sample: an argument it does not take", ["sample", "--data", "d.csv", ...K, "extra"], "too many arguments for 'sample'. Expected 0 arguments but got 1. (see --help)"),
  inBase("sample: no --data", ["sample"], "--data: is required: the CSV data set (header line; response column y)"),
  inBase("sample --resume alone: an option that differs from the run", ["sample", "--resume", "run", "--draws", "21"], "--draws: differs from the run being resumed in run (it has 20, the options given ask for 21); resume with the options the run was started with"),
  inBase("sample --resume alone: another --model", ["sample", "--resume", "run", "--model", "volatility"], "--model: the run in run is a GP (latent-gp) run; resume it with --model latent-gp, or without --model"),
  { name: "sample --resume alone: the data file gone", setup: relativeRun((s) => rmSync(join(s, "d.csv"))), args: () => ["sample", "--resume", "rel"], message: () => "d.csv: the data file the run in rel was started on is missing; put it back, or resume with --data FILE and the other options the run was started with" },
  {
    name: "sample --resume alone: the data file changed",
    setup: relativeRun((s) => writeFileSync(join(s, "d.csv"), "y,x1\n1,0.5\n-1,0.25\n")),
    args: () => ["sample", "--resume", "rel"],
    message: (s) => `d.csv: is not the data the run in rel was started on (SHA-256 ${sha12(join(s, "d.csv"))}..., the run's ${sha12(DATA)}...); resume with the run's own data`,
  },
  {
    name: "sample --resume alone: a record without the options (an earlier gpmcmc's)",
    setup: relativeRun((s) => {
      const { options: _options, cwd: _cwd, ...record } = JSON.parse(readFileSync(join(s, "rel", "run.json"), "utf8")) as Record<string, unknown>;
      writeFileSync(join(s, "rel", "run.json"), JSON.stringify(record));
    }),
    args: () => ["sample", "--resume", "rel"],
    message: () => "--resume: rel/run.json records no options (the run was started by an earlier gpmcmc): resume it with --data and the other options it was started with",
  },
  inBase("sample: --data without its value", ["sample", "--data"], "option '--data <file>' argument missing (see --help)"),
  inBase("sample: --scheme with fixed hyperparameters", ["sample", "--data", "d.csv", ...K, "--scheme", "sa"], "--scheme: applies only when the hyperparameters are sampled, i.e. without --lengthscale/--log-lengthscale and --signal-sd/--log-signal-sd"),
  inBase("sample: an unknown --scheme", ["sample", "--data", "d.csv", "--scheme", "nope"], '--scheme: unknown scheme "nope" (known: sa, aa, asis, khr, surr, pm)'),
  inBase("sample: an unknown --theta-sampler", ["sample", "--data", "d.csv", "--scheme", "aa", "--theta-sampler", "nope"], '--theta-sampler: unknown theta sampler "nope" (known: mh, hmc, smmala)'),
  inBase("sample: --theta-sampler with pm", ["sample", "--data", "d.csv", "--theta-sampler", "mh"], "--theta-sampler: does not apply to --scheme pm (it proposes theta by its own independence and random-walk moves)"),
  inBase("sample: --importance-samples with aa", ["sample", "--data", "d.csv", "--importance-samples", "10", "--scheme", "aa"], "--importance-samples: applies only to --scheme pm, not aa"),
  inBase("sample: --importance-samples 0", ["sample", "--data", "d.csv", "--importance-samples", "0"], '--importance-samples: must be a whole number >= 1, got "0"'),
  inBase("sample: a prior of the wrong form", ["sample", "--data", "d.csv", "--prior-signal-sd", "-1"], '--prior-signal-sd: "-1" is not of the form family:p1,p2 (gamma:A,B, invgamma:A,B, lognormal:M,S, halfnormal:S or halft:NU,S)'),
  inBase("sample: a prior with too few parameters", ["sample", "--data", "d.csv", "--prior-lengthscale", "gamma:1"], '--prior-lengthscale: the gamma family takes 2 parameters, "gamma:1" gives 1 (gamma:A,B, invgamma:A,B, lognormal:M,S, halfnormal:S or halft:NU,S)'),
  inBase("sample: an unknown prior family", ["sample", "--data", "d.csv", "--prior-lengthscale", "nope:1,2"], '--prior-lengthscale: unknown prior family "nope" (known: gamma:A,B, invgamma:A,B, lognormal:M,S, halfnormal:S or halft:NU,S)'),
  inBase("sample --model logistic-regression: --chains 1e8, beyond the memory", ["sample", "--data", "d.csv", "--model", "logistic-regression", "--chains", "100000000", "--out", "lr"],
    `--chains: 100000000 chains x 4.00 kB (each chain's task, sampler state and result, besides its draws) = 400 GB, more than ${limit8G}; at most 2000000 chains fit`, memory8G),
  inBase("sample --resume: --chains 1e8, beyond the memory", ["sample", "--resume", "run", "--chains", "100000000"],
    `--chains: 100000000 chains x 4.00 kB (each chain's task, sampler state and result, besides its draws) = 400 GB, more than ${limit8G}; at most 2000000 chains fit`, memory8G),
  inBase("sample: an unknown --model", ["sample", "--data", "d.csv", "--model", "nope"], '--model: unknown model "nope" (known: latent-gp, logistic-regression, lgcp, volatility, fitzhugh-nagumo)'),
  inBase("sample --model lgcp: --sigma2 -1", ["sample", "--data", "d.csv", "--model", "lgcp", "--sigma2", "-1"], '--sigma2: must be a positive number, got "-1"'),
  inBase("sample: --sigma2 without --model lgcp", ["sample", "--data", "d.csv", ...K, "--sigma2", "1"], "--sigma2: applies only to --model lgcp"),
  inBase("sample --model logistic-regression: --lengthscale", ["sample", "--data", "d.csv", "--model", "logistic-regression", "--lengthscale", "1"], "--lengthscale: applies only to --model latent-gp (the GP models)"),
  inBase("sample --model volatility: an unknown sampler", ["sample", "--data", "d.csv", "--model", "volatility", "--sampler", "nope"], '--sampler: "nope" does not apply to --model volatility (its samplers: rmhmc, mmala, mala, hmc; give one, or two as parameters,volatilities)'),
  inBase("sample --model volatility: a GP data file", ["sample", "--data", "d.csv", "--model", "volatility"], 'd.csv:1: the volatility model reads the returns y (and an optional time column t); unexpected column "x1"'),
  inBase("sample --model fitzhugh-nagumo: a GP data file", ["sample", "--data", "d.csv", "--model", "fitzhugh-nagumo"], 'd.csv:1:1: unexpected column "y": the columns are t, V, R'),
  inBase("sample --model fitzhugh-nagumo: --noise-sd 0", ["sample", "--data", "d.csv", "--model", "fitzhugh-nagumo", "--noise-sd", "0"], '--noise-sd: must be a positive number, got "0"'),
  inBase("sample: the former name simplified-mmala", ["sample", "--data", "d.csv", ...K, "--sampler", "simplified-mmala"], '--sampler: "simplified-mmala" is now named "smmala"'),
  inBase("sample: an unknown --integrator", ["sample", "--data", "d.csv", ...K, "--integrator", "lagrangian"], '--integrator: unknown integrator "lagrangian" (known: split, leapfrog)'),
  inBase("sample: --exposure-column not in the data", ["sample", "--data", "c.csv", ...K, "--likelihood", "poisson", "--exposure-column", "x9"], '--exposure-column: "x9" is not an input column of c.csv (input columns: x1, x2)'),
  inBase("sample: --exposure-column with probit", ["sample", "--data", "c.csv", ...K, "--exposure-column", "x1"], "--exposure-column: applies only to --likelihood poisson, not probit"),

  {
    name: "sample --resume: a checkpoint cut off",
    setup: (s) => killedRun(s, '{"chain":0,"dim":5,"draws":20,"burnIn":10,"thin":1,"done":12,"pha'),
    args: () => [...SHORT_RUN, "--resume", "run"],
    message: () => "run/checkpoint_1.json: is cut off after 65 bytes (not a complete checkpoint); remove it, and its chain starts again from its first transition",
  },
  {
    name: "sample --resume: a checkpoint that is not JSON",
    setup: (s) => killedRun(s, "garbage\n"),
    args: () => [...SHORT_RUN, "--resume", "run"],
    message: () => "run/checkpoint_1.json: is not a checkpoint: not JSON; remove it, and its chain starts again from its first transition",
  },
  {
    name: "sample --resume: a checkpoint of another shape",
    setup: (s) => killedRun(s, '{"chain":0}\n'),
    args: () => [...SHORT_RUN, "--resume", "run"],
    message: () => 'run/checkpoint_1.json: is not a checkpoint of this run: its field "dim" is missing or not a whole number; remove it, and its chain starts again from its first transition',
  },
  {
    name: "sample: --adapt and --no-adapt together",
    args: () => [...SHORT_RUN, "--adapt", "--no-adapt", "--out", "run"],
    message: () => "--adapt: and --no-adapt exclude each other: give one of them",
  },
  ...(["laplace", "ep"] as const).map((command): CommandRow => ({
    name: `${command}: n = 60000, the n x n matrices beyond the memory`,
    env: { GPMCMC_MAX_MEMORY: "8e9" },
    setup: writeBig,
    args: () => [command, "--data", "big.csv", ...KERNEL, "--out", "approx.json"],
    message: () => "big.csv: n = 60000 rows: the n x n kernel matrix K and its Cholesky factor need at least 2 x 60000^2 x 8 bytes = 57.6 GB, more than GPMCMC_MAX_MEMORY (8.00 GB); use fewer rows",
  })),
  {
    name: "sample --model lgcp: a GP data file (no row and column columns)",
    args: () => ["sample", "--model", "lgcp", "--data", DATA, "--draws", "10", "--out", "run"],
    message: () => `${DATA}:1: a count grid needs the columns row, column and y (found y, x1, x2)`,
  },
  {
    name: "ais: --temperatures 1e12, the traces beyond the memory",
    env: { GPMCMC_MAX_MEMORY: "8e9" },
    args: () => ["ais", "--data", DATA, ...KERNEL, "--temperatures", "1000000000000", "--out", "run"],
    message: () => "--temperatures: 10 runs x 1000000000001 points (--temperatures + 1) x 80 bytes = 800 TB, more than GPMCMC_MAX_MEMORY (8.00 GB); lower --temperatures or --runs",
  },
  {
    name: "ais: --runs 1e11, the traces beyond the memory",
    env: { GPMCMC_MAX_MEMORY: "8e9" },
    args: () => ["ais", "--data", DATA, ...KERNEL, "--temperatures", "5", "--runs", "100000000000"],
    message: () => "--runs: 100000000000 runs x 6 points (--temperatures + 1) x 80 bytes = 48.0 TB, more than GPMCMC_MAX_MEMORY (8.00 GB); lower --temperatures or --runs",
  },
  {
    name: "ais --out: the traces beyond what ais.json can hold",
    env: { GPMCMC_MAX_MEMORY: "1e13" },
    args: () => ["ais", "--data", DATA, ...KERNEL, "--temperatures", "10000000", "--out", "run"],
    message: () => "--temperatures: 10 runs x 10000001 points (--temperatures + 1) x about 160 characters = 16.0 GB of ais.json, more than one JSON text can hold (537 MB); lower --temperatures or --runs",
  },
  {
    name: "report --out: an existing file that is not a report (the data file)",
    setup: (s) => { finishedRun(s); writeFileSync(join(s, "d.csv"), "y,x1\n1,0.5\n"); },
    args: () => ["report", "run", "--out", "d.csv"],
    message: () => 'output "d.csv": exists and is not a page of gpmcmc report; give --force to replace it',
  },
  {
    name: "predict --run: a run that was interrupted",
    setup: (s) => killedRun(s),
    args: () => ["predict", "--run", "run", "--test", DATA],
    message: () => "run: holds a gpmcmc sample run that was interrupted (it has no summary.json); finish it with gpmcmc sample --resume run and the options it was started with, then predict from it",
  },
  {
    name: "laplace --out in a directory that takes no new files (/proc)",
    args: () => ["laplace", "--data", DATA, ...KERNEL, "--out", "/proc/x"],
    // root may write /proc's directory, whose file system then refuses; anyone else is refused before
    message: () => process.getuid?.() === 0
      ? 'output "/proc/x": cannot be written: the file system refuses to create it in "/proc" (ENOENT), although that directory exists'
      : 'output "/proc/x": its directory "/proc" is not writable',
  },
  {
    name: "a binary data file",
    setup: (s) => writeFileSync(join(s, "bin.csv"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x0a, 0x31, 0x2c, 0xff])),
    args: () => ["laplace", "--data", "bin.csv", ...KERNEL],
    message: () => "bin.csv:1:1: the file is not text (binary byte 0x7f)",
  },
  {
    name: "a data file with a control byte in a cell",
    setup: (s) => writeFileSync(join(s, "ctl.csv"), "y,x1\n1,0.5\n-1,caf\u00e9\u0001\n"),
    args: () => ["sample", "--data", "ctl.csv", ...KERNEL],
    message: () => "ctl.csv:3:8: the file is not text (binary byte 0x01)",
  },
  {
    name: "grid run: a spec of an unknown job kind",
    setup: (s) => writeSpec(s, { kind: "nope" }),
    args: () => ["grid", "run", "grid.json"],
    message: () => `grid.json: unknown job kind "nope" in "kind" (known: ${GRID_KINDS})`,
  },
  { name: "grid run: no such spec file", args: () => ["grid", "run", "nope.json"], message: () => "nope.json: no such file" },
  {
    name: "grid collect: no job has finished",
    setup: (s) => writeSpec(s, {}),
    args: () => ["grid", "collect", "grid.json", "--out", "table.csv"],
    message: () => 'grid.json: no job of grid "demo seed=1" has finished yet (0 of 4); gpmcmc grid run grid.json runs them',
  },
  {
    name: "grid run --queue: Redis cannot be reached",
    setup: (s) => writeSpec(s, {}),
    args: () => ["grid", "run", "grid.json", "--queue", "redis://127.0.0.1:1"],
    message: () => "cannot reach Redis at redis://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1",
  },
  { name: "worker: Redis cannot be reached", args: () => ["worker", "--queue", "redis://127.0.0.1:1"], message: () => "cannot reach Redis at redis://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1" },
];
