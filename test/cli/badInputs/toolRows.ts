/**
 * The bad-input table's rows of simulate, diagnose and report (whole commands, most in the set-up
 * of rowKit's `base`: d.csv, c.csv, run/, ep.json, aisrun/).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { base, inBase, type CommandRow } from "./rowKit.js";

const SIM = ["simulate", "--likelihood", "logistic", "--n", "100", "--d", "2"];

export const TOOL_ROWS: CommandRow[] = [
  // simulate
  inBase("simulate: no --likelihood", ["simulate", "--out", "x.csv"], "--likelihood: is required: one of logistic, poisson, volatility, ordinal, probit"),
  inBase("simulate: an unknown --likelihood", ["simulate", "--likelihood", "nope", "--out", "x.csv"], '--likelihood: unknown likelihood "nope" (known: logistic, poisson, volatility, ordinal, probit)'),
  inBase("simulate: no --d", ["simulate", "--likelihood", "logistic", "--n", "100", "--out", "x.csv"], "--d: is required: the number of inputs (the paper uses 2 and 10)"),
  inBase("simulate: no --n", ["simulate", "--likelihood", "logistic", "--d", "2", "--out", "x.csv"], "--n: is required: the number of cases (the paper uses 100 and 400)"),
  inBase("simulate: --n 0", ["simulate", "--likelihood", "logistic", "--n", "0", "--d", "2", "--out", "x.csv"], '--n: must be a whole number >= 1, got "0"'),
  inBase("simulate: --n 1e11 (K is n x n)", ["simulate", "--likelihood", "logistic", "--n", "100000000000", "--d", "2", "--out", "x.csv"], "--n: must be at most 20000 (K is n x n), got 100000000000"),
  inBase("simulate: --d 1e8", ["simulate", "--likelihood", "logistic", "--n", "100", "--d", "100000000", "--out", "x.csv"], "--d: must be at most 1000, got 100000000"),
  inBase("simulate --out: an existing data file", [...SIM, "--out", "d.csv"], 'output "d.csv": exists and is not a file this command may replace; give --force to replace it'),
  inBase("simulate --out: a directory", [...SIM, "--out", "run"], 'output "run": is a directory; --out takes a file name (e.g. data.csv)'),
  inBase("simulate --out: a directory that does not exist", [...SIM, "--out", "nodir/x.csv"], 'output "nodir/x.csv": its directory "nodir" does not exist'),
  inBase("simulate --truth: an existing data file", [...SIM, "--out", "x.csv", "--truth", "d.csv"], 'output "d.csv": exists and is not a file this command may replace; give --force to replace it'),
  inBase("simulate --truth: the --out file", [...SIM, "--out", "x.csv", "--truth", "x.csv"], '--truth: is the --out file "x.csv"; give another file name'),
  inBase("simulate: a negative --seed", [...SIM, "--seed", "-1", "--out", "x.csv"], '--seed: must be a whole number >= 0, got "-1"'),
  inBase("simulate --out: an empty path", [...SIM, "--out", ""], "--out: needs a path, got an empty value"),
  inBase("simulate: --grid without --model lgcp", [...SIM, "--grid", "3", "--out", "x.csv"], "--grid: applies only to --model lgcp"),
  inBase("simulate: --sigma without --model volatility", [...SIM, "--sigma", "1", "--out", "x.csv"], "--sigma: applies only to --model volatility"),
  inBase("simulate: an unknown --model", ["simulate", "--model", "nope", "--out", "x.csv"], '--model: unknown model "nope" (known: fitzhugh-nagumo, lgcp, volatility)'),
  inBase("simulate: --likelihood with --model lgcp", ["simulate", "--likelihood", "logistic", "--model", "lgcp", "--out", "x.csv"], "--likelihood: does not apply to --model lgcp (only to the GP data sets made without --model)"),
  inBase("simulate --model lgcp: --grid 0", ["simulate", "--model", "lgcp", "--grid", "0", "--out", "x.csv"], '--grid: must be a whole number >= 1, got "0"'),
  inBase("simulate --model lgcp: --grid 100000", ["simulate", "--model", "lgcp", "--grid", "100000", "--out", "x.csv"], "--grid: must be at most 512, got 100000"),
  inBase("simulate --model lgcp: --sigma2 0", ["simulate", "--model", "lgcp", "--grid", "4", "--sigma2", "0", "--out", "x.csv"], '--sigma2: must be a positive number, got "0"'),
  inBase("simulate --model lgcp: an unknown --covariance", ["simulate", "--model", "lgcp", "--grid", "4", "--covariance", "nope", "--out", "x.csv"], '--covariance: unknown covariance "nope" (known: separable, euclidean)'),
  inBase("simulate --model volatility: --t 0", ["simulate", "--model", "volatility", "--t", "0", "--out", "x.csv"], '--t: must be a whole number >= 1, got "0"'),
  inBase("simulate --model volatility: --phi 1 (not stationary)", ["simulate", "--model", "volatility", "--phi", "1", "--out", "x.csv"], "--phi: must lie strictly between -1 and 1 (a stationary AR(1)), got 1"),
  inBase("simulate --model volatility: a negative --sigma", ["simulate", "--model", "volatility", "--sigma", "-1", "--out", "x.csv"], '--sigma: must be a positive number, got "-1"'),
  inBase("simulate --model fitzhugh-nagumo: --c 0", ["simulate", "--model", "fitzhugh-nagumo", "--c", "0", "--out", "x.csv"], '--c: must be a positive number, got "0"'),
  inBase("simulate --model fitzhugh-nagumo: a negative --t-end", ["simulate", "--model", "fitzhugh-nagumo", "--t-end", "-1", "--out", "x.csv"], '--t-end: must be a positive number, got "-1"'),
  inBase("simulate --model fitzhugh-nagumo: --n 0", ["simulate", "--model", "fitzhugh-nagumo", "--n", "0", "--out", "x.csv"], '--n: must be a whole number >= 1, got "0"'),
  // diagnose
  inBase("diagnose: no path", ["diagnose"], "missing required argument 'paths' (see --help)"),
  inBase("diagnose: no such path", ["diagnose", "nope"], "nope: no such file or directory"),
  inBase("diagnose: a data file, not draws", ["diagnose", "d.csv"], "d.csv:1: no lp__ column: not a CmdStan draws file"),
  {
    name: "diagnose: a draws file with one draw",
    setup: (s) => writeFileSync(join(s, "one.csv"), "# comment\nlp__,f.1\n1,2\n"),
    args: () => ["diagnose", "one.csv"],
    message: () => "one.csv: has 1 draw; the diagnostics need at least 4 per chain",
  },
  inBase("diagnose: an approximation file (JSON)", ["diagnose", "ep.json"], "ep.json:1: is JSON, not a CmdStan draws file (a CSV file with an lp__ column)"),
  inBase("diagnose: a run's summary.json", ["diagnose", "run/summary.json"], "run/summary.json:1: is JSON, not a CmdStan draws file (a CSV file with an lp__ column)"),
  inBase("diagnose --variables: no such column", ["diagnose", "run", "--variables", "nope"], '--variables: no column "nope" in the draws (variables: f.1, f.2, f.3, f.4, f.5; sampler columns: lp__, accept_stat__, stepsize__, n_leapfrog__, divergent__, energy__)'),
  inBase("diagnose --sig-figs 0", ["diagnose", "run", "--sig-figs", "0"], '--sig-figs: must be a whole number >= 1, got "0"'),
  inBase("diagnose --sig-figs 100", ["diagnose", "run", "--sig-figs", "100"], "--sig-figs: must be at most 17 (a double has 17 significant digits), got 100"),
  inBase("diagnose: an ais run (no draws)", ["diagnose", "aisrun"], "aisrun: no draws files (draws_1.csv, draws_2.csv, ...) in this directory; give CmdStan's output files by name"),
  inBase("diagnose: a file given twice", ["diagnose", "run", "run/draws_1.csv"], "run/draws_1.csv: is given twice: each chain's file once"),
  // report
  inBase("report: no directory", ["report"], "missing required argument 'DIR' (see --help)"),
  inBase("report: no such directory", ["report", "nope"], "nope: no such directory"),
  inBase("report: a file, not a directory", ["report", "d.csv"], "d.csv: not a directory: give the run's output directory"),
  inBase("report --variables: no such column", ["report", "run", "--variables", "nope"], '--variables: no column "nope" in the draws (columns: lp__, accept_stat__, stepsize__, n_leapfrog__, divergent__, energy__, f.1, f.2, f.3, f.4, f.5)'),
  inBase("report --max-variables 0", ["report", "run", "--max-variables", "0"], '--max-variables: must be a whole number >= 1, got "0"'),
  inBase("report --out: a directory", ["report", "run", "--out", "run"], 'output "run": is a directory; --out takes a file name (e.g. report.html)'),
  inBase("report --out: a directory that does not exist", ["report", "run", "--out", "nodir/x.html"], 'output "nodir/x.html": its directory "nodir" does not exist'),
  inBase("report --out: the data file", ["report", "run", "--out", "d.csv"], 'output "d.csv": exists and is not a page of gpmcmc report; give --force to replace it'),
  { name: "report: an approximation file, not a directory", setup: base, args: () => ["report", "ep.json"], message: () => "ep.json: not a directory: give the run's output directory" },
];
