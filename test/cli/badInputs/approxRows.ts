/**
 * The bad-input table's rows of predict, laplace, ep and ais (whole commands, in the set-up of
 * rowKit's `base`: d.csv, c.csv, run/, ep.json, aisrun/).
 */
import { inBase, type CommandRow } from "./rowKit.js";

const K = ["--lengthscale", "1", "--signal-sd", "1"];
const AIS = ["ais", "--data", "d.csv", ...K];
const memory8G = { GPMCMC_MAX_MEMORY: "8e9" };

export const APPROX_ROWS: CommandRow[] = [
  // predict
  inBase("predict: no --test", ["predict", "--run", "run"], "--test: is required: the CSV file of test inputs (the training data's input columns; y optional)"),
  inBase("predict: neither --run nor --approx", ["predict", "--test", "d.csv"], "--run: or --approx is required: the output directory of gpmcmc sample, or the file of gpmcmc ep|laplace --out"),
  inBase("predict: --run and --approx together", ["predict", "--run", "run", "--approx", "ep.json", "--test", "d.csv"], "--approx: and --run exclude each other: predict from one of them"),
  inBase("predict --run: no such directory", ["predict", "--run", "nodir", "--test", "d.csv"], "nodir: no such directory"),
  inBase("predict --run: a file, not a directory", ["predict", "--run", "d.csv", "--test", "d.csv"], "d.csv: not a directory"),
  inBase("predict --run: an ais run (no draws)", ["predict", "--run", "aisrun", "--test", "d.csv"], "aisrun: no draws files (draws_1.csv, draws_2.csv, ...) in this directory"),
  inBase("predict --approx: no such file", ["predict", "--approx", "nope.json", "--test", "d.csv"], "nope.json: no such file"),
  inBase("predict --approx: a CSV file, not JSON", ["predict", "--approx", "d.csv", "--test", "d.csv"], `d.csv: not JSON: Unexpected token 'y', "y,x1,x2\\n1,"... is not valid JSON`),
  inBase("predict --approx: JSON that is not an approximation file", ["predict", "--approx", "run/run.json", "--test", "d.csv"], 'run/run.json: not a gpmcmc approximation file (field "format" is undefined, expected "gpmcmc-gaussian-approximation")'),
  inBase("predict --test: no such file", ["predict", "--run", "run", "--test", "nope.csv"], "nope.csv: no such file"),
  inBase("predict --test: counts for a probit run", ["predict", "--run", "run", "--test", "c.csv"], 'c.csv:2:2: label "3" in column "y" is not a class label (use -1/+1 or 0/1)'),
  inBase("predict --out: a directory", ["predict", "--run", "run", "--test", "d.csv", "--out", "run"], 'output "run": is a directory; --out takes a file name (e.g. predictions.csv)'),
  inBase("predict --out: an existing file that is not a predictions file", ["predict", "--run", "run", "--test", "d.csv", "--out", "ep.json"], 'output "ep.json": exists and is not a gpmcmc predictions file; give --force to replace it'),
  inBase("predict --out: an empty path", ["predict", "--run", "run", "--test", "d.csv", "--out", ""], "--out: needs a path, got an empty value"),
  inBase("predict: an unknown option", ["predict", "--run", "run", "--test", "d.csv", "--draws", "5"], "unknown option '--draws' (see --help)"),
  // laplace
  inBase("laplace: no --signal-sd", ["laplace", "--data", "d.csv", "--lengthscale", "1"], "--signal-sd: is required (or --log-signal-sd)"),
  inBase("laplace: no --lengthscale", ["laplace", "--data", "d.csv", "--signal-sd", "1"], "--lengthscale: is required (or --log-lengthscale): one value, or one per input column"),
  inBase("laplace: no --data", ["laplace", ...K], "--data: is required: the CSV data set (header line; response column y)"),
  inBase("laplace: an unknown likelihood", ["laplace", "--data", "d.csv", ...K, "--likelihood", "nope"], '--likelihood: unknown likelihood "nope" (known: probit, logistic, poisson, volatility)'),
  inBase("laplace: --jitter", ["laplace", "--data", "d.csv", ...K, "--jitter", "1e-6"], "--jitter: gpmcmc laplace does not take it: its Newton steps factorise I + W^1/2 K W^1/2, which is positive definite whatever K"),
  inBase("laplace --out: a directory", ["laplace", "--data", "d.csv", ...K, "--out", "run"], 'output "run": is a directory; --out takes a file name (e.g. ep.json)'),
  inBase("laplace --out: an existing data file", ["laplace", "--data", "d.csv", ...K, "--out", "c.csv"], 'output "c.csv": exists and is not a gpmcmc approximation file; give --force to replace it'),
  inBase("laplace --out: a directory that does not exist", ["laplace", "--data", "d.csv", ...K, "--out", "nodir/a.json"], 'output "nodir/a.json": its directory "nodir" does not exist'),
  inBase("laplace: --max-iterations 0", ["laplace", "--data", "d.csv", ...K, "--max-iterations", "0"], '--max-iterations: must be a whole number >= 1, got "0"'),
  inBase("laplace: a negative --tolerance", ["laplace", "--data", "d.csv", ...K, "--tolerance", "-1"], '--tolerance: must be a positive number, got "-1"'),
  inBase("laplace: poisson on binary labels", ["laplace", "--data", "d.csv", ...K, "--likelihood", "poisson"], 'd.csv:3:1: count "-1" in column "y" is negative (counts are 0, 1, 2, ...)'),
  inBase("laplace: a lengthscale so small that 1/l^2 overflows", ["laplace", "--data", "d.csv", "--lengthscale", "1e-310", "--signal-sd", "1"], '--lengthscale: "1e-310" makes 1/lengthscale^2 overflow to infinity (the kernel divides by the lengthscale squared); it must be above about 7.46e-155'),
  // ep
  inBase("ep: poisson (EP's sites are probit's)", ["ep", "--data", "c.csv", ...K, "--likelihood", "poisson"], '--likelihood: gpmcmc ep supports only probit (EP\'s sites are implemented for probit), got "poisson"; gpmcmc laplace takes probit, logistic, poisson, volatility'),
  inBase("ep: --damping above 1", ["ep", "--data", "d.csv", ...K, "--damping", "2"], '--damping: must be in (0, 1] (1: no damping), got "2"'),
  inBase("ep: --damping 0", ["ep", "--data", "d.csv", ...K, "--damping", "0"], '--damping: must be a positive number, got "0"'),
  inBase("ep: --max-sweeps 0", ["ep", "--data", "d.csv", ...K, "--max-sweeps", "0"], '--max-sweeps: must be a whole number >= 1, got "0"'),
  inBase("ep: a --tolerance that is not a number", ["ep", "--data", "d.csv", ...K, "--tolerance", "abc"], '--tolerance: must be a finite number, got "abc"'),
  inBase("ep: an unknown --schedule", ["ep", "--data", "d.csv", ...K, "--schedule", "nope"], '--schedule: unknown schedule "nope" (known: sequential, parallel)'),
  inBase("ep: a data file of counts", ["ep", "--data", "c.csv", ...K], 'c.csv:2:2: label "3" in column "y" is not a class label (use -1/+1 or 0/1)'),
  // ais
  inBase("ais: no --temperatures", AIS, "--temperatures: is required: the number B of inverse temperatures (the last is 1)"),
  inBase("ais: --runs 1", [...AIS, "--temperatures", "5", "--runs", "1"], '--runs: must be at least 2 (the standard error needs two runs), got "1"'),
  inBase("ais: an unknown --from", [...AIS, "--temperatures", "5", "--from", "nope"], '--from: unknown starting distribution "nope" (known: prior, ep)'),
  inBase("ais: an unknown --transition", [...AIS, "--temperatures", "5", "--transition", "nope"], '--transition: unknown transition "nope" (known: rmhmc, hmc, ess)'),
  inBase("ais: an unknown --schedule", [...AIS, "--temperatures", "5", "--schedule", "nope"], '--schedule: unknown schedule "nope" (known: geometric, linear, sigmoid)'),
  inBase("ais: --beta-min 0", [...AIS, "--temperatures", "5", "--beta-min", "0"], '--beta-min: must be a positive number, got "0"'),
  inBase("ais: --beta-min 2", [...AIS, "--temperatures", "5", "--beta-min", "2"], '--beta-min: must be in (0, 1), got "2"'),
  inBase("ais: an unknown --mass", [...AIS, "--temperatures", "5", "--mass", "nope"], '--mass: unknown mass matrix "nope" (known: prior, identity)'),
  inBase("ais: --transitions-per-temperature 0", [...AIS, "--temperatures", "5", "--transitions-per-temperature", "0"], '--transitions-per-temperature: must be a whole number >= 1, got "0"'),
  inBase("ais --resume: a sample run", [...AIS, "--temperatures", "5", "--resume", "run"], 'output "run": holds a gpmcmc sample run; continue it with gpmcmc sample --resume run'),
  inBase("ais --resume: no such directory", [...AIS, "--temperatures", "5", "--resume", "nodir"], 'output "nodir": is not a gpmcmc output directory; --resume takes the --out directory of an earlier ais run'),
  inBase("ais --out: a finished run", [...AIS, "--temperatures", "5", "--out", "run"], 'output "run": holds a finished gpmcmc run; choose another directory, or use --overwrite to replace it'),
  inBase("ais: logistic from EP's q", [...AIS, "--temperatures", "5", "--likelihood", "logistic"], "--likelihood: logistic needs --from prior: gpmcmc ais starts from EP's q (--from ep, the default) for probit only, as EP's sites are implemented for probit"),
  inBase("ais: --force without --out", [...AIS, "--temperatures", "5", "--force"], "--force: needs --out (it lets the run write into an existing --out directory that is not gpmcmc's)"),
  inBase("ais: --temperatures 1e12 without --out, beyond the memory", [...AIS, "--temperatures", "1000000000000"], "--temperatures: 10 runs x 1000000000001 points (--temperatures + 1) x 80 bytes = 800 TB, more than GPMCMC_MAX_MEMORY (8.00 GB); lower --temperatures or --runs", memory8G),
];
