/**
 * The bad-input table's rows of `sample`'s inputs, checked in process through prepareSampleInputs
 * (badInput.test.ts): each on top of a good set of options (goodSampleOptions).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixture } from "../../fixtures.js";
import { data, limit8G, memory8G, writeBig, type SampleRow } from "./rowKit.js";

export const SAMPLE_ROWS: SampleRow[] = [
  { name: "missing file", options: () => ({ data: data("no_such_file.csv") }), message: () => `${data("no_such_file.csv")}: no such file` },
  { name: "a directory as the data file", options: () => ({ data: fixture("data") }), message: () => `${fixture("data")}: is a directory, not a file` },
  { name: "empty file", options: () => ({ data: data("empty.csv") }), message: () => `${data("empty.csv")}: file is empty` },
  { name: "header only", options: () => ({ data: data("header_only.csv") }), message: () => `${data("header_only.csv")}:1: header only: no data rows follow it` },
  {
    name: "no header",
    options: () => ({ data: data("no_header.csv") }),
    message: () => `${data("no_header.csv")}:1: no header: the first line looks like data; the file needs a header line naming the columns (the response "y" and the inputs)`,
  },
  { name: "no y column", options: () => ({ data: data("no_y.csv") }), message: () => `${data("no_y.csv")}:1: no response column "y" in the header (columns: "label", "x1", "x2")` },
  { name: "no input columns", options: () => ({ data: data("no_inputs.csv") }), message: () => `${data("no_inputs.csv")}:1: no input columns: the header has only "y"` },
  { name: "duplicate column names", options: () => ({ data: data("duplicate_column.csv") }), message: () => `${data("duplicate_column.csv")}:1:3: column name "x1" is repeated (first in column 2)` },
  { name: "ragged rows", options: () => ({ data: data("ragged.csv") }), message: () => `${data("ragged.csv")}:4: row has 2 cells, the header has 3` },
  { name: "unclosed quote", options: () => ({ data: data("unclosed_quote.csv") }), message: () => `${data("unclosed_quote.csv")}:3: malformed CSV: a quoted cell (opened with ") is never closed` },
  { name: "a non-numeric cell", options: () => ({ data: data("non_numeric.csv") }), message: () => `${data("non_numeric.csv")}:7:3: cell "abc" in column "x2" is not a number` },
  { name: "an empty cell", options: () => ({ data: data("empty_cell.csv") }), message: () => `${data("empty_cell.csv")}:3:2: cell in column "x1" is empty (missing values are not supported)` },
  { name: "a NaN cell", options: () => ({ data: data("nan.csv") }), message: () => `${data("nan.csv")}:3:2: cell "NaN" in column "x1" is NaN (missing values are not supported)` },
  { name: "an infinite cell", options: () => ({ data: data("inf.csv") }), message: () => `${data("inf.csv")}:4:3: cell "inf" in column "x2" is not finite` },
  {
    name: "a label outside {-1, +1} / {0, 1}",
    options: () => ({ data: data("label_two.csv") }),
    message: () => `${data("label_two.csv")}:4:1: label "2" in column "y" is not a class label (use -1/+1 or 0/1)`,
  },
  {
    name: "labels mixing -1/+1 and 0/1",
    options: () => ({ data: data("label_mixed.csv") }),
    message: () => `${data("label_mixed.csv")}:4:1: label "0" in column "y" mixes codings: line 3 has -1 (use -1/+1 or 0/1, not both)`,
  },
  {
    name: "a negative count",
    options: () => ({ data: data("count_negative.csv"), likelihood: "poisson" }),
    message: () => `${data("count_negative.csv")}:3:2: count "-1" in column "y" is negative (counts are 0, 1, 2, ...)`,
  },
  {
    name: "a non-integer count",
    options: () => ({ data: data("count_fraction.csv"), likelihood: "poisson" }),
    message: () => `${data("count_fraction.csv")}:3:2: count "2.5" in column "y" is not an integer (counts are 0, 1, 2, ...)`,
  },
  {
    name: "wrong number of ARD lengthscales",
    options: () => ({ lengthscale: "1,2,3" }),
    message: () => "--lengthscale: 3 values given, but the data have 2 input columns (x1, x2): give one value, or 2",
  },
  { name: "a zero lengthscale", options: () => ({ lengthscale: "0" }), message: () => '--lengthscale: must be a positive number, got "0"' },
  { name: "a negative ARD lengthscale", options: () => ({ lengthscale: "1,-2" }), message: () => '--lengthscale: value 2 of 2 must be a positive number, got "-2"' },
  { name: "a non-numeric lengthscale", options: () => ({ lengthscale: "wide" }), message: () => '--lengthscale: must be a finite number, got "wide"' },
  { name: "a zero signal-sd", options: () => ({ signalSd: "0" }), message: () => '--signal-sd: must be a positive number, got "0"' },
  { name: "a negative signal-sd", options: () => ({ signalSd: "-1" }), message: () => '--signal-sd: must be a positive number, got "-1"' },
  { name: "lengthscale and its log together", options: () => ({ logLengthscale: "0" }), message: () => "--lengthscale: cannot be combined with --log-lengthscale: give one or the other" },
  { name: "zero draws", options: () => ({ draws: "0" }), message: () => '--draws: must be a whole number >= 1, got "0"' },
  { name: "zero chains", options: () => ({ chains: "0" }), message: () => '--chains: must be a whole number >= 1, got "0"' },
  { name: "negative burn-in", options: () => ({ burnIn: "-5" }), message: () => '--burn-in: must be a whole number >= 0, got "-5"' },
  { name: "a fractional seed", options: () => ({ seed: "1.5" }), message: () => '--seed: must be a whole number >= 0, got "1.5"' },
  { name: "a non-positive step size", options: () => ({ stepSize: "0" }), message: () => '--step-size: must be a positive number, got "0"' },
  { name: "unknown sampler", options: () => ({ sampler: "nuts" }), message: () => '--sampler: unknown sampler "nuts" (known: laplace-hmc, laplace-nuts, rmhmc, hmc, mh, mh-v1, mh-v2, ess, hmc-v1, hmc-v2, smmala, exact-hmc, mgrad)' },
  { name: "unknown likelihood", options: () => ({ likelihood: "gaussian" }), message: () => '--likelihood: unknown likelihood "gaussian" (known: probit, poisson)' },
  {
    name: "output directory exists and is not ours",
    setup: (s) => {
      mkdirSync(join(s, "run"));
      writeFileSync(join(s, "run", "thesis.tex"), "precious\n");
    },
    options: () => ({}),
    message: (s) =>
      `output ${JSON.stringify(join(s, "run"))}: the directory exists, is not empty and is not a gpmcmc output directory (it has no .gpmcmc file); choose a new directory, or use --force to write into it`,
  },
  {
    name: "unwritable output path (its parent is a regular file)",
    setup: (s) => writeFileSync(join(s, "file.txt"), "x"),
    options: (s) => ({ out: join(s, "file.txt", "run") }),
    message: (s) => `output ${JSON.stringify(join(s, "file.txt", "run"))}: cannot be created: ${JSON.stringify(join(s, "file.txt"))} is a file, not a directory`,
  },
  {
    name: "output path is a file",
    setup: (s) => writeFileSync(join(s, "file.txt"), "x"),
    options: (s) => ({ out: join(s, "file.txt") }),
    message: (s) => `output ${JSON.stringify(join(s, "file.txt"))}: exists and is not a directory`,
  },
  { name: "empty output path", options: () => ({ out: "" }), message: () => "--out: needs a path, got an empty value" },
  {
    name: "a log signal sd whose variance overflows",
    options: () => ({ signalSd: undefined, logSignalSd: "1000" }),
    message: () => '--log-signal-sd: "1000" makes the signal variance s^2 overflow to infinity (not a finite double); it must be below about 354.8',
  },
  {
    name: "a signal sd whose variance overflows",
    options: () => ({ signalSd: "1e200" }),
    message: () => '--signal-sd: "1e200" makes the signal variance s^2 overflow to infinity (not a finite double); it must be below about 1.34e+154',
  },
  {
    name: "a log lengthscale that underflows",
    options: () => ({ lengthscale: undefined, logLengthscale: "0,-1000" }),
    message: () => '--log-lengthscale: value 2 of 2 "-1000" makes 1/lengthscale^2 overflow to infinity (the kernel divides by the lengthscale squared); it must be above about -354.8',
  },
  {
    name: "a lengthscale so small that 1/l^2 overflows (1e-320)",
    options: () => ({ lengthscale: "1e-320" }),
    message: () => '--lengthscale: "1e-320" makes 1/lengthscale^2 overflow to infinity (the kernel divides by the lengthscale squared); it must be above about 7.46e-155',
  },
  {
    name: "an ARD lengthscale so small that 1/l^2 overflows",
    options: () => ({ lengthscale: "1,1e-200" }),
    message: () => '--lengthscale: value 2 of 2 "1e-200" makes 1/lengthscale^2 overflow to infinity (the kernel divides by the lengthscale squared); it must be above about 7.46e-155',
  },
  {
    name: "a log lengthscale that overflows",
    options: () => ({ lengthscale: undefined, logLengthscale: "710" }),
    message: () => '--log-lengthscale: "710" makes the lengthscale overflow to infinity (not a finite double); it must be below about 709.7',
  },
  {
    name: "draws beyond the memory (--draws 1e12)",
    env: memory8G,
    options: () => ({ draws: "1000000000000" }),
    message: () => `--draws: 4 chains x 1000000000000 draws x 11 columns (5 variables, 6 statistics) x 8 bytes = 352 TB, more than ${limit8G}; lower --draws or --chains (--thin k keeps one transition in k of a longer chain)`,
  },
  {
    name: "draws beyond the memory (ess, --draws 1e8 --chains 4)",
    env: memory8G,
    options: () => ({ sampler: "ess", draws: "100000000", chains: "4" }),
    message: () => `--draws: 4 chains x 100000000 draws x 11 columns (5 variables, 6 statistics) x 8 bytes = 35.2 GB, more than ${limit8G}; lower --draws or --chains (--thin k keeps one transition in k of a longer chain)`,
  },
  {
    name: "a chain's draws beyond what its checkpoint can hold (with --out)",
    env: memory8G,
    options: () => ({ sampler: "ess", draws: "10000000", chains: "1" }),
    message: () => "--draws: 10000000 draws x 11 columns (5 variables, 6 statistics) x 8 bytes = 880 MB per chain, more than a chain's checkpoint can hold (402 MB); lower --draws (--thin k keeps one transition in k of a longer chain)",
  },
  {
    name: "chains beyond the memory (--chains 1e8)",
    env: memory8G,
    options: () => ({ chains: "100000000", draws: "10" }),
    message: () => `--chains: 100000000 chains x 4.00 kB (each chain's task, sampler state and result, besides its draws) = 400 GB, more than ${limit8G}; at most 2000000 chains fit`,
  },
  {
    name: "n = 60000: the n x n matrices beyond the memory",
    env: memory8G,
    setup: writeBig,
    options: (s) => ({ data: join(s, "big.csv") }),
    message: (s) => `${join(s, "big.csv")}: n = 60000 rows: the n x n kernel matrix K and its Cholesky factor need at least 2 x 60000^2 x 8 bytes = 57.6 GB, more than ${limit8G}; use fewer rows`,
  },
];
