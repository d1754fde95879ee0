// A fingerprint of what gpmcmc's commands compute: a fixed list of small runs of the built CLI,
// one per sampler, model, hyperparameter scheme and approximation, each hashed from the files it
// wrote. A refactoring that is meant to leave every draw as it was must leave every line the same:
//   npm run bench -- drawsHash [--out FILE] [--compare FILE] [--only SUBSTRING] [--keep]
// Each line is `name<TAB>sha256 (first 16 hex)`. --out writes the table to FILE (with one comment
// line naming the BLAS kernels it was made with), --compare FILE names each case whose hash differs
// from FILE's or that FILE lacks and exits 1 if any, --only runs the cases whose name contains
// SUBSTRING (the simulated data sets are made whatever it says: the other cases read them), and
// --keep leaves the temporary directory with every output in place, to look at a difference.
//
// What is hashed, and why only that: in a draws CSV the lines not starting with '#' (the header
// and the draws; the comments hold the data file's path), in a JSON file every number and boolean
// whose key path has no timing, date, version, machine or path field (IGNORED_KEY). run.json and
// the .gpmcmc marker are left out: they restate the command line, not a result.
//
// The runs are the CLI as a user runs it (process.execPath dist/src/cli/main.js, cwd a fresh
// temporary directory, data/ by absolute path), with OPENBLAS_NUM_THREADS=1 so that what runs on
// the main thread (ep, laplace, Laplace's and EP's whitening) sums its products in the same order
// whatever the machine's core count. The BLAS kernels (OPENBLAS_CORETYPE) are left as they are:
// they change the last bits of a product (docs/reproducibility.md), so a table compares only
// with one made on the same kernels, and --compare says when the saved table's were others.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { arg, hash } from "./benchArgs.js";
import { FORMER_SAMPLER_NAMES } from "../src/samplers/renamedSamplers.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "dist", "src", "cli", "main.js");
const DATA = join(ROOT, "data");
const ENV = { ...process.env, OPENBLAS_NUM_THREADS: "1" };

/**
 * Keys whose value depends on time, the machine or a path: dropped with everything under them.
 * "second", not "seconds": essPerSecond (min ESS per second of sampling) is a timing too.
 */
const IGNORED_KEY = /second|time|date|started|elapsed|wall|cpu|node|version|path|dir|file|host|pid/i;

interface Case {
  name: string;
  args: string[];
  /** Files or directories (relative to the temporary directory) whose contents are hashed. */
  outputs: string[];
  /** Also hash stdout as JSON (ep, laplace, ais with --json: iterations, site changes, ...). */
  stdoutJson?: boolean;
  /** A data set the later cases read: made whatever --only says. */
  setup?: boolean;
}

// ---- the cases ---------------------------------------------------------------------------------

/** Directory name for a case's --out: its name, with anything but letters and digits as '_'. */
const slug = (name: string) => name.replace(/[^A-Za-z0-9]+/g, "_");

// Every sampling run: 2 chains one after the other, a seed from the case's name (FNV-1a, as the
// other benchmarks seed a cell from its identity, never from its place in a list), quiet.
function sample(name: string, args: string[], draws = 100, burnIn = 100): Case {
  const dir = `runs/${slug(name)}`;
  return {
    name,
    args: ["sample", ...args, "--draws", String(draws), "--burn-in", String(burnIn), "--chains", "2", "--parallel", "1",
      "--seed", String(hash(name)), "--quiet", "--out", dir],
    outputs: [dir],
  };
}

// The comparison paper's simulated sets (n = 30, d = 2): one seed, so that all five likelihoods
// share the inputs and the latent f, as the paper's sets do.
const DATA_SEED = "11";
const LIKELIHOODS = ["probit", "logistic", "poisson", "volatility", "ordinal"] as const;
const THRESHOLDS = "--thresholds=-2,0,2"; // simulate's ordinal categories (docs/commands/simulate.md)
// Fixed kernel hyperparameters near the simulated truth (psi in [-3, -1], log signal sd 1).
const FIXED = ["--log-lengthscale", "-1", "--log-signal-sd", "0.5"];

function simulate(name: string, file: string, args: string[]): Case {
  return { name, args: ["simulate", ...args, "--seed", DATA_SEED, "--out", file], outputs: [file], setup: true };
}

const LATENT_SAMPLERS: string[][] = [
  ["laplace-hmc"], ["laplace-nuts"], ["rmhmc"], ["rmhmc", "--integrator", "lagrangian"], ["hmc"], ["mh"], ["mh-v1"],
  ["mh-v2"], ["ess"], ["hmc-v1"], ["hmc-v2"], ["smmala"], ["exact-hmc"], ["mgrad"],
];
const LOGISTIC_REGRESSION_SAMPLERS: string[][] = [
  ["rmhmc"], ["rmhmc", "--integrator", "lagrangian"], ["mmala"], ["smmala"], ["mala"], ["hmc"], ["hmc-diagonal"],
  ["mh-componentwise"], ["iwls"], ["rmhmc-t"], ["holmes-held"],
];
/**
 * Case names keep a renamed sampler's former name (src/samplers/renamedSamplers.ts): a case's
 * name is its key in the saved tables and its seed (hash(name)), so it stays as it was.
 */
const CASE_NAME_OF_SAMPLER = FORMER_SAMPLER_NAMES;
const LGCP_SAMPLERS = ["rmhmc", "mmala", "mala-transient", "mala-stationary"];

function cases(): Case[] {
  const list: Case[] = [];
  for (const l of LIKELIHOODS) list.push(simulate(`simulate ${l}`, `${l}.csv`, ["--likelihood", l, "--n", "30", "--d", "2"]));
  // Small models: an 8 x 8 grid (64 cells), 50 returns, 40 observation times of the ODE.
  list.push(simulate("simulate lgcp", "lgcp.csv", ["--model", "lgcp", "--grid", "8"]));
  list.push(simulate("simulate volatility model", "sv.csv", ["--model", "volatility", "--t", "50"]));
  list.push(simulate("simulate fitzhugh-nagumo", "fn.csv", ["--model", "fitzhugh-nagumo", "--n", "40"]));

  // Latent GP, fixed hyperparameters: every sampler of f on probit (exact-hmc is probit only) ...
  for (const s of LATENT_SAMPLERS) {
    list.push(sample(`latent probit ${s.join(" ").replace("--integrator ", "")}`, ["--data", "probit.csv", ...FIXED, "--sampler", ...s]));
  }
  // ... EP's whitening of laplace-nuts is probit's alone; Laplace's and the plain leapfrog too.
  list.push(sample("latent probit laplace-nuts laplace-whitening leapfrog",
    ["--data", "probit.csv", ...FIXED, "--sampler", "laplace-nuts", "--whitening", "laplace", "--integrator", "leapfrog"]));
  // ... and the default sampler (laplace-nuts, Laplace-whitened) on every other likelihood.
  for (const l of LIKELIHOODS.filter((l) => l !== "probit")) {
    list.push(sample(`latent ${l} default`, ["--data", `${l}.csv`, "--likelihood", l, ...(l === "ordinal" ? [THRESHOLDS] : []), ...FIXED]));
  }

  // Sampled hyperparameters (no kernel option): every scheme with the default theta sampler (mh;
  // surr has none), and aa with the two others.
  for (const s of ["sa", "aa", "asis", "khr", "surr"]) list.push(sample(`hyper probit ${s}`, ["--data", "probit.csv", "--scheme", s]));
  for (const t of ["hmc", "smmala"]) {
    list.push(sample(`hyper probit aa theta-${t}`, ["--data", "probit.csv", "--scheme", "aa", "--theta-sampler", t]));
  }

  // Logistic regression on Ripley's data with the paper's cubic model (docs/models/logistic-regression.md's example).
  for (const s of LOGISTIC_REGRESSION_SAMPLERS) {
    list.push(sample(`logistic-regression ripley ${s.map((w) => CASE_NAME_OF_SAMPLER[w] ?? w).join(" ").replace("--integrator ", "")}`,
      ["--model", "logistic-regression", "--data", join(DATA, "synth_tr.csv"), "--polynomial-degree", "3", "--sampler", ...s]));
  }

  // The Cox process: each sampler on the Euclidean covariance, the default one on the separable.
  for (const s of LGCP_SAMPLERS) list.push(sample(`lgcp euclidean ${s}`, ["--model", "lgcp", "--data", "lgcp.csv", "--sampler", s]));
  list.push(sample("lgcp separable rmhmc", ["--model", "lgcp", "--data", "lgcp.csv", "--covariance", "separable"]));

  // Stochastic volatility: the default (rmhmc, rmhmc, interweaving) and other block samplers.
  list.push(sample("volatility default", ["--model", "volatility", "--data", "sv.csv"], 50, 50));
  list.push(sample("volatility mmala,mala no-interweave",
    ["--model", "volatility", "--data", "sv.csv", "--sampler", "mmala,mala", "--interweave", "off"], 50, 50));

  // Fitzhugh-Nagumo: every transition solves the ODE with its sensitivities, so fewer draws.
  // mmala rather than rmhmc as the second sampler: rmhmc's fixed points cost 3 times as much.
  // (its default sampler, smmala; the case's name as it was: CASE_NAME_OF_SAMPLER)
  list.push(sample("fitzhugh-nagumo simplified-mmala", ["--model", "fitzhugh-nagumo", "--data", "fn.csv"], 50, 50));
  list.push(sample("fitzhugh-nagumo mmala", ["--model", "fitzhugh-nagumo", "--data", "fn.csv", "--sampler", "mmala"], 50, 50));

  // Approximations: the approximation file (--out) and the --json line (sweeps, site change).
  const approx = (name: string, args: string[]): Case =>
    ({ name, args: [...args, "--json", "--out", `${slug(name)}.json`], outputs: [`${slug(name)}.json`], stdoutJson: true });
  list.push(approx("ep probit sequential", ["ep", "--data", "probit.csv", ...FIXED]));
  list.push(approx("ep probit parallel anderson", ["ep", "--data", "probit.csv", ...FIXED, "--schedule", "parallel"]));
  list.push(approx("laplace probit", ["laplace", "--data", "probit.csv", ...FIXED]));
  list.push(approx("laplace logistic", ["laplace", "--data", "logistic.csv", "--likelihood", "logistic", ...FIXED]));
  list.push(approx("laplace poisson", ["laplace", "--data", "poisson.csv", "--likelihood", "poisson", ...FIXED]));

  // AIS: from EP's q with RMHMC (the default), and from the prior with elliptical slice sampling.
  const ais = (name: string, args: string[]): Case => ({
    name,
    args: ["ais", "--data", "probit.csv", ...FIXED, ...args, "--runs", "2", "--parallel", "1", "--seed", String(hash(name)),
      "--quiet", "--json", "--out", `runs/${slug(name)}`],
    outputs: [`runs/${slug(name)}`],
    stdoutJson: true,
  });
  list.push(ais("ais probit ep rmhmc", ["--temperatures", "20"]));
  list.push(ais("ais probit prior ess", ["--from", "prior", "--transition", "ess", "--temperatures", "50"]));
  return list;
}

// ---- hashing -----------------------------------------------------------------------------------

/** The JSON's numbers and booleans as `key.path=value` lines, keys sorted, ignored keys dropped. */
function jsonLines(v: unknown, path: string, out: string[]): void {
  if (Array.isArray(v)) v.forEach((x, i) => jsonLines(x, `${path}[${i}]`, out));
  else if (v !== null && typeof v === "object") {
    // Sorted keys: a refactoring may reorder an object's fields without changing a value.
    for (const k of Object.keys(v).sort()) if (!IGNORED_KEY.test(k)) jsonLines((v as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (typeof v === "number") {
    // String(v) is the shortest text that reads back as the same double: equal text, equal bits
    // (but for -0, which it writes as 0).
    out.push(`${path}=${Object.is(v, -0) ? "-0" : String(v)}`);
  } else if (typeof v === "boolean") out.push(`${path}=${v}`);
}

/** What of one output file is hashed (null: a file that is not a result, see the header). */
function fileText(name: string, text: string): string | null {
  const base = name.split("/").pop()!;
  if (base.startsWith(".") || base === "run.json") return null;
  if (base.endsWith(".json")) {
    const lines: string[] = [];
    jsonLines(JSON.parse(text), "", lines);
    return lines.join("\n");
  }
  if (base.endsWith(".csv")) return text.split("\n").filter((l) => !l.startsWith("#")).join("\n");
  throw new Error(`no rule to hash ${name}`); // a new kind of output must be looked at, not skipped
}

/** Every file under `path` (a file or a directory), as paths relative to `root`, sorted. */
function filesUnder(root: string, path: string): string[] {
  const full = join(root, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).sort().flatMap((f) => filesUnder(root, `${path}/${f}`));
}

function caseHash(c: Case, work: string, stdout: string): string {
  const h = createHash("sha256");
  let hashed = 0;
  for (const out of c.outputs) {
    if (!existsSync(join(work, out))) fail(c, `wrote no ${out}`);
    for (const f of filesUnder(work, out)) {
      const text = fileText(f, readFileSync(join(work, f), "utf8"));
      if (text === null) continue;
      // The file's name relative to the case's output, so that the temporary directory is not in it.
      h.update(`== ${relative(out, f) || f.split("/").pop()}\n${text}\n`);
      hashed++;
    }
  }
  if (c.stdoutJson) {
    const lines: string[] = [];
    jsonLines(JSON.parse(stdout), "", lines);
    h.update(`== stdout\n${lines.join("\n")}\n`);
    hashed++;
  }
  if (hashed === 0) fail(c, "wrote nothing to hash");
  return h.digest("hex").slice(0, 16);
}

/** A case that failed: thrown, not exited on, so that the temporary directory is still removed. */
class CaseFailure extends Error {}

function fail(c: Case, why: string): never {
  throw new CaseFailure(`drawsHash: case "${c.name}" ${why}`);
}

// ---- running and comparing ---------------------------------------------------------------------

/** The BLAS kernels this machine runs, from gpmcmc info: hashes compare only on the same ones. */
function kernels(): string {
  const r = spawnSync(process.execPath, [CLI, "info", "--json"], { encoding: "utf8", env: ENV });
  if (r.status !== 0) return "unknown";
  const info = JSON.parse(r.stdout) as { backend?: string; library?: string; core?: string };
  return `backend ${info.backend ?? "?"} (${info.library ?? "?"}), OpenBLAS core ${info.core ?? "?"}`;
}

function readTable(file: string): { rows: Map<string, string>; kernels: string | undefined } {
  const rows = new Map<string, string>();
  let k: string | undefined;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^# kernels: (.*)$/.exec(line);
    if (m) k = m[1];
    if (line === "" || line.startsWith("#")) continue;
    const [name, h] = line.split("\t");
    if (name !== undefined && h !== undefined) rows.set(name, h);
  }
  return { rows, kernels: k };
}

const outFile = arg("--out", "");
const compareFile = arg("--compare", "");
const only = arg("--only", "");
const keep = process.argv.includes("--keep");

const all = cases();
const names = new Set<string>();
for (const c of all) {
  if (names.has(c.name)) throw new Error(`two cases named ${c.name}`);
  names.add(c.name);
}
const selected = all.filter((c) => c.setup || c.name.includes(only));
if (!all.some((c) => c.name.includes(only))) {
  console.error(`drawsHash: no case's name contains "${only}"`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), "gpmcmc-draws-hash-"));
const started = performance.now();
const table: [string, string][] = [];
let failed = false;
try {
  for (const c of selected) {
    const r = spawnSync(process.execPath, [CLI, ...c.args], { cwd: work, env: ENV, encoding: "utf8", timeout: 120_000, maxBuffer: 64 << 20 });
    if (r.error) fail(c, `could not run: ${r.error.message}`);
    if (r.status !== 0) {
      // gpmcmc's own stderr first (a stack trace ends with "Node.js vX", no help as a last line),
      // then the one line naming the case.
      console.error(r.stderr.trimEnd());
      fail(c, `exited ${r.status ?? r.signal}: gpmcmc ${c.args.join(" ")}`);
    }
    if (!c.name.includes(only)) continue; // a data set made for the others, not asked for
    const h = caseHash(c, work, r.stdout);
    table.push([c.name, h]);
    console.log(`${c.name}\t${h}`);
  }
} catch (e) {
  if (!(e instanceof CaseFailure)) throw e;
  console.error(e.message);
  failed = true;
} finally {
  if (keep) console.error(`drawsHash: outputs kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
if (failed) process.exit(1);
console.error(`drawsHash: ${table.length} cases in ${((performance.now() - started) / 1000).toFixed(1)} s wall-clock`);

const here = kernels();
if (outFile !== "") {
  // No date or host in the file: two runs that computed the same write the same bytes.
  const header = `# gpmcmc drawsHash: name<TAB>sha256 (first 16 hex) of what the case wrote (bench/drawsHash.ts)\n# kernels: ${here}\n`;
  writeFileSync(outFile, header + table.map(([n, h]) => `${n}\t${h}\n`).join(""));
}
if (compareFile !== "") {
  const saved = readTable(compareFile);
  let bad = 0;
  for (const [name, h] of table) {
    const s = saved.rows.get(name);
    if (s === undefined) console.log(`MISSING in ${compareFile}\t${name}`);
    else if (s !== h) console.log(`DIFFERS\t${name}\t${s} (saved)\t${h} (now)`);
    if (s !== h) bad++;
  }
  // A full run must also have run every saved case: one dropped from the list is a difference.
  if (only === "") {
    for (const name of saved.rows.keys()) if (!names.has(name)) { console.log(`NOT RUN\t${name} (in ${compareFile})`); bad++; }
  }
  if (bad > 0) {
    if (saved.kernels !== undefined && saved.kernels !== here) {
      console.log(`note: ${compareFile} was made with ${saved.kernels}, this run with ${here}: other kernels give other last bits`);
    }
    process.exit(1);
  }
  console.log(`${table.length} cases: the same draws`);
}
