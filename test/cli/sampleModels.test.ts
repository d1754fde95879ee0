/**
 * `gpmcmc sample` with the comparison paper's samplers (mh, mh-v1, mh-v2, ess, hmc-v1, hmc-v2,
 * smmala) and likelihoods (logistic, poisson, volatility, ordinal) on data sets written by
 * `gpmcmc simulate`: short runs whose draws files record the settings, whose posterior means
 * track the true f where the data are informative, labels read as -1/+1 or 0/1 alike, and the
 * options that belong to other samplers or likelihoods (one line, exit code 2, nothing written).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import { reportError } from "../../src/cli/errors.js";
import { runSampleCommand, type RawSampleCommandOptions, type SampleReport } from "../../src/cli/sample.js";
import { runSimulateCommand, type SimulationTruth } from "../../src/cli/simulate.js";
import { columnValues, readCmdStanCsv } from "../../src/io/cmdstan.js";
import { scratchDir } from "../fixtures.js";

function simulate(dir: string, likelihood: string, n = 30, seed = 5): { data: string; truth: SimulationTruth } {
  const data = join(dir, `${likelihood}.csv`);
  const truth = runSimulateCommand({ likelihood, n: String(n), d: "2", seed: String(seed), out: data }, { stdout: () => {} });
  return { data, truth };
}

/** The options that put the model at the data set's true theta. */
function atTruth(data: string, t: SimulationTruth): RawSampleCommandOptions {
  const o: RawSampleCommandOptions = {
    data, likelihood: t.likelihood, logLengthscale: t.logLengthscale.join(","), logSignalSd: String(t.logSignalSd), jitter: String(t.jitter),
  };
  if (t.likelihoodOptions.thresholds) o.thresholds = t.likelihoodOptions.thresholds.join(",");
  return o;
}

async function quiet(raw: RawSampleCommandOptions): Promise<SampleReport> {
  return runSampleCommand(raw, { stdout: () => {}, stderr: () => {} });
}

function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let ma = 0, mb = 0;
  for (let i = 0; i < n; i++) { ma += a[i] / n; mb += b[i] / n; }
  let sab = 0, saa = 0, sbb = 0;
  for (let i = 0; i < n; i++) { sab += (a[i] - ma) * (b[i] - mb); saa += (a[i] - ma) ** 2; sbb += (b[i] - mb) ** 2; }
  return sab / Math.sqrt(saa * sbb);
}

/** Posterior mean of f over both chains' draws files. */
function posteriorMean(out: string, n: number): Float64Array {
  const mean = new Float64Array(n);
  let count = 0;
  for (const f of ["draws_1.csv", "draws_2.csv"]) {
    const csv = readCmdStanCsv(join(out, f));
    for (let i = 0; i < n; i++) {
      const v = columnValues(csv, `f.${i + 1}`);
      for (const x of v) mean[i] += x;
    }
    count += csv.draws;
  }
  return mean.map((s) => s / count);
}

const SAMPLERS: { sampler: string; extra: RawSampleCommandOptions; setting?: [string, string] }[] = [
  { sampler: "mh", extra: { scale: "0.2" }, setting: ["proposal_sd", "0.2"] },
  { sampler: "mh-v1", extra: { alpha: "0.2" }, setting: ["alpha", "0.2"] },
  { sampler: "mh-v2", extra: { alpha: "0.3" }, setting: ["alpha", "0.3"] },
  { sampler: "ess", extra: {} },
  { sampler: "hmc-v1", extra: { maxLeapfrogSteps: "7", stepSize: "0.2" }, setting: ["leapfrog_steps", "7"] },
  { sampler: "hmc-v2", extra: { maxLeapfrogSteps: "7", stepSize: "0.2" }, setting: ["randomise_steps", "1"] },
  { sampler: "smmala", extra: { stepSize: "0.4" } },
  { sampler: "mgrad", extra: { stepSize: "0.4" } },
];

for (const { sampler, extra, setting } of SAMPLERS) {
  test(`sample --sampler ${sampler} (poisson): the draws files record the settings, and the posterior mean tracks the true f`, async () => {
    const s = scratchDir();
    try {
      const { data, truth } = simulate(s.dir, "poisson");
      const out = join(s.dir, "run");
      const r = await quiet({ ...atTruth(data, truth), ...extra, sampler, draws: "300", burnIn: "300", chains: "2", seed: "3", out });
      assert.equal(r.run.sampler.sampler, sampler);
      assert.deepEqual(r.files, ["draws_1.csv", "draws_2.csv", "summary.json"]);
      const csv = readCmdStanCsv(join(out, "draws_1.csv"));
      assert.equal(csv.config.likelihood, "poisson");
      if (setting) assert.equal(csv.config[setting[0]], setting[1], `${setting[0]} in ${JSON.stringify(csv.config)}`);
      if (sampler === "ess") assert.equal(r.acceptanceRate, 1);
      // Counts are informative about f_i (lengthscales exp(-3..-1): nearly independent cases).
      const rho = correlation(posteriorMean(out, truth.n), truth.f);
      assert.ok(rho > 0.6, `correlation of posterior mean and true f ${rho}`);
    } finally {
      s.cleanup();
    }
  });
}

for (const likelihood of ["logistic", "volatility", "ordinal"]) {
  test(`sample --likelihood ${likelihood} --sampler hmc-v2: a short run; the draws files record the likelihood`, async () => {
    const s = scratchDir();
    try {
      const { data, truth } = simulate(s.dir, likelihood, 60);
      const out = join(s.dir, "run");
      const r = await quiet({ ...atTruth(data, truth), sampler: "hmc-v2", draws: "400", burnIn: "200", chains: "2", seed: "4", out });
      const csv = readCmdStanCsv(join(out, "draws_2.csv"));
      assert.equal(csv.config.likelihood, likelihood);
      if (likelihood === "ordinal") {
        assert.equal(csv.config.thresholds, "-2 0 2");
        assert.match(r.run.model.likelihoodOptions?.thresholds?.join(",") ?? "", /^-2,0,2$/);
      }
      const rho = correlation(posteriorMean(out, truth.n), truth.f);
      // The mean of f | y moves towards the truth (weakly for binary labels).
      assert.ok(rho > (likelihood === "logistic" ? 0.3 : 0.5), `correlation ${rho}`);
    } finally {
      s.cleanup();
    }
  });
}

test("sample --likelihood logistic: labels -1/+1 and 0/1 give the same draws", async () => {
  const s = scratchDir();
  try {
    const { data, truth } = simulate(s.dir, "logistic", 20);
    const pm1 = join(s.dir, "pm1.csv");
    const lines = readFileSync(data, "utf8").trimEnd().split("\n");
    writeFileSync(pm1, [lines[0], ...lines.slice(1).map((l) => (l.startsWith("0,") ? "-1" + l.slice(1) : l))].join("\n") + "\n");
    assert.notEqual(readFileSync(pm1, "utf8"), readFileSync(data, "utf8"));
    const opts = { sampler: "mh-v2", draws: "50", burnIn: "10", chains: "1", seed: "9", json: true };
    const a = await quiet({ ...atTruth(data, truth), ...opts });
    const b = await quiet({ ...atTruth(pm1, truth), ...opts });
    assert.equal(a.minEss, b.minEss);
    assert.equal(a.acceptanceRate, b.acceptanceRate);
  } finally {
    s.cleanup();
  }
});

/** The data file with an input column "m" appended (the exposure), holding `m(i)`. */
function withExposure(data: string, out: string, m: (i: number) => number): string {
  const lines = readFileSync(data, "utf8").trimEnd().split("\n");
  writeFileSync(out, [lines[0] + ",m", ...lines.slice(1).map((l, i) => `${l},${m(i)}`)].join("\n") + "\n");
  return out;
}

test("sample --exposure-column (poisson): exposure 1 changes no draw; exposure e lowers every posterior mean of f", async () => {
  const s = scratchDir();
  try {
    const { data, truth } = simulate(s.dir, "poisson", 25);
    const opts: RawSampleCommandOptions = { ...atTruth(data, truth), sampler: "hmc-v2", draws: "200", burnIn: "200", chains: "2", seed: "6" };
    const run = async (file: string, name: string, extra: RawSampleCommandOptions = {}) => {
      const out = join(s.dir, name);
      await quiet({ ...opts, ...extra, data: file, out });
      return { mean: posteriorMean(out, truth.n), csv: readCmdStanCsv(join(out, "draws_1.csv")) };
    };
    const plain = await run(data, "plain");
    const one = await run(withExposure(data, join(s.dir, "one.csv"), () => 1), "one", { exposureColumn: "m" });
    assert.deepEqual(one.mean, plain.mean);
    assert.equal(one.csv.config.exposure, "per case (--exposure-column)");
    // With rate e exp(f) the same counts need f lower by about 1 where the data dominate the prior.
    const e = await run(withExposure(data, join(s.dir, "e.csv"), () => Math.E), "e", { exposureColumn: "m" });
    let shift = 0;
    for (let i = 0; i < truth.n; i++) shift += (plain.mean[i] - e.mean[i]) / truth.n;
    assert.ok(shift > 0.5 && shift < 1.2, `mean shift ${shift}`);
  } finally {
    s.cleanup();
  }
});

test("sample --exposure-column: a zero exposure is one line naming the file, row and column; nothing written", async () => {
  const s = scratchDir();
  try {
    const { data, truth } = simulate(s.dir, "poisson", 10);
    const file = withExposure(data, join(s.dir, "m.csv"), (i) => (i === 3 ? 0 : 1));
    const out = join(s.dir, "run");
    let err = "";
    try {
      await quiet({ ...atTruth(file, truth), exposureColumn: "m", draws: "10", burnIn: "0", chains: "1", seed: "1", out });
    } catch (e) {
      assert.equal(reportError(e, { stderr: (t) => (err += t), env: {} }), 2);
    }
    assert.equal(err, `gpmcmc: ${file}: data row 4 (after the header), column "m": exposure 0 is not positive\n`);
    assert.equal(existsSync(out), false);
  } finally {
    s.cleanup();
  }
});

interface BadRow {
  name: string;
  likelihood: string;
  options: RawSampleCommandOptions;
  message: string;
}

const BAD: BadRow[] = [
  { name: "--step-size with ess", likelihood: "poisson", options: { sampler: "ess", stepSize: "0.1" }, message: "--step-size: applies only to --sampler laplace-hmc, laplace-nuts, rmhmc, hmc, hmc-v1, hmc-v2, smmala, mgrad, not ess (elliptical slice sampling has no tunable)" },
  { name: "--step-size with mh-v1", likelihood: "poisson", options: { sampler: "mh-v1", stepSize: "0.1" }, message: "--step-size: applies only to --sampler laplace-hmc, laplace-nuts, rmhmc, hmc, hmc-v1, hmc-v2, smmala, mgrad, not mh-v1 (use --alpha)" },
  { name: "--leapfrog-steps with hmc-v2", likelihood: "poisson", options: { sampler: "hmc-v2", leapfrogSteps: "5" }, message: "--leapfrog-steps: applies only to --sampler laplace-hmc, rmhmc, hmc, not hmc-v2 (use --max-leapfrog-steps)" },
  { name: "--max-leapfrog-steps with hmc", likelihood: "poisson", options: { sampler: "hmc", maxLeapfrogSteps: "5" }, message: "--max-leapfrog-steps: applies only to --sampler hmc-v1, hmc-v2, not hmc" },
  { name: "--alpha with smmala", likelihood: "poisson", options: { sampler: "smmala", alpha: "0.1" }, message: "--alpha: applies only to --sampler mh-v1, mh-v2, not smmala" },
  { name: "--alpha above 1", likelihood: "poisson", options: { sampler: "mh-v2", alpha: "1.5" }, message: '--alpha: must be in (0, 1], got "1.5"' },
  { name: "--scale with mh-v2", likelihood: "poisson", options: { sampler: "mh-v2", scale: "0.1" }, message: "--scale: applies only to --sampler mh, not mh-v2" },
  { name: "--target-acceptance with ess", likelihood: "poisson", options: { sampler: "ess", targetAcceptance: "0.5" }, message: "--target-acceptance: applies only to --sampler laplace-hmc, laplace-nuts, rmhmc, hmc, hmc-v1, hmc-v2, smmala, mgrad, mh, mh-v1, mh-v2, not ess (elliptical slice sampling has no tunable)" },
  { name: "exact-hmc with a Poisson likelihood", likelihood: "poisson", options: { sampler: "exact-hmc" }, message: "--sampler: exact-hmc applies only to --likelihood probit, not poisson" },
  { name: "--step-size with exact-hmc", likelihood: "probit", options: { sampler: "exact-hmc", stepSize: "0.1" }, message: "--step-size: applies only to --sampler laplace-hmc, laplace-nuts, rmhmc, hmc, hmc-v1, hmc-v2, smmala, mgrad, not exact-hmc (exact HMC has no tunable)" },
  { name: "--max-leapfrog-steps 0", likelihood: "poisson", options: { sampler: "hmc-v1", maxLeapfrogSteps: "0" }, message: '--max-leapfrog-steps: must be a whole number >= 1, got "0"' },
  { name: "--thresholds with logistic", likelihood: "logistic", options: { thresholds: "0" }, message: "--thresholds: applies only to --likelihood ordinal, not logistic" },
  { name: "--noise-sd with poisson", likelihood: "poisson", options: { noiseSd: "1" }, message: "--noise-sd: applies only to --likelihood ordinal, not poisson" },
  { name: "ordinal without --thresholds", likelihood: "ordinal", options: { thresholds: undefined }, message: "--thresholds: is required with --likelihood ordinal: the thresholds b_1 < ... < b_(r-1) between the r categories, comma-separated" },
  { name: "decreasing thresholds", likelihood: "ordinal", options: { thresholds: "1,0,2" }, message: "--thresholds: must be strictly increasing, but value 2 (0) is not above value 1 (1)" },
  { name: "a non-positive --noise-sd", likelihood: "ordinal", options: { noiseSd: "0" }, message: '--noise-sd: must be a positive number, got "0"' },
  { name: "ordinal labels beyond the thresholds", likelihood: "ordinal", options: { thresholds: "-2,0" }, message: "" },
  { name: "--exposure-column with ordinal", likelihood: "ordinal", options: { exposureColumn: "x1" }, message: "--exposure-column: applies only to --likelihood poisson, not ordinal" },
  { name: "an --exposure-column not in the file", likelihood: "poisson", options: { exposureColumn: "m" }, message: "" },
  { name: "an unknown likelihood", likelihood: "poisson", options: { likelihood: "student" }, message: '--likelihood: unknown likelihood "student" (known: probit, logistic, poisson, volatility, ordinal)' },
];

for (const row of BAD) {
  test(`sample, bad input: ${row.name} (one line, exit code 2, nothing written)`, async () => {
    const s = scratchDir();
    try {
      const { data, truth } = simulate(s.dir, row.likelihood, 12);
      const out = join(s.dir, "run");
      let err = "";
      let code = 0;
      try {
        await quiet({ ...atTruth(data, truth), draws: "10", burnIn: "5", chains: "1", seed: "1", out, ...row.options });
      } catch (e) {
        code = reportError(e, { stderr: (t) => (err += t), env: {} });
      }
      assert.equal(code, 2);
      const expected = row.message !== "" ? row.message
        : row.options.exposureColumn ? `--exposure-column: "m" is not an input column of ${data} (input columns: x1, x2)`
        // The simulated ordinal labels run to 4; two thresholds allow 1..3. The first 4 names its row.
        : `${data}: data row ${readFileSync(data, "utf8").split("\n").slice(1).findIndex((l) => l.startsWith("4,")) + 1} (after the header), column "y": ordinal likelihood: response ${readFileSync(data, "utf8").split("\n").slice(1).findIndex((l) => l.startsWith("4,")) + 1} is 4, expected an integer category in 1..3 (1-based interval index)`;
      assert.equal(err, `gpmcmc: ${expected}\n`);
      assert.equal(existsSync(out), false);
    } finally {
      s.cleanup();
    }
  });
}
