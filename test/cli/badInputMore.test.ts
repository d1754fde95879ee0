/**
 * The bad-input table of the commands run whole (badInput.test.ts checks `sample`'s inputs through
 * prepareSampleInputs): each row runs the built `gpmcmc` in a scratch directory, and it must print
 * exactly one line on stderr, the row's, exit with code 2 and leave the directory as it was
 * (after the row's set-up, which may make a run to resume or predict from).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { fixture, scratchDir, snapshotDir as snapshot } from "../fixtures.js";
import { CLI } from "./cliRun.js";

interface Row {
  name: string;
  /** The command's arguments; `s` is the scratch directory (also the working directory). */
  args: (s: string) => string[];
  /** The line after "gpmcmc: ". */
  message: (s: string) => string;
  setup?: (s: string) => void;
  env?: Record<string, string>;
}

const DATA = fixture("data", "labels_pm1.csv");
const KERNEL = ["--lengthscale", "1", "--signal-sd", "1"];
const SHORT_RUN = ["sample", "--data", DATA, ...KERNEL, "--sampler", "hmc", "--draws", "20", "--burn-in", "10", "--chains", "1", "--seed", "3", "--quiet"];

function gpmcmc(args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd, env: { ...process.env, GPMCMC_DEBUG: "", ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(/^gpmcmc: using the pure TypeScript linear-algebra backend.*\n/m, "") };
}

/** A finished run of SHORT_RUN in s/run, then made into one killed midway: no summary, marked incomplete, with `checkpoint` as chain 1's checkpoint. */
function killedRun(s: string, checkpoint?: string): void {
  const r = gpmcmc([...SHORT_RUN, "--out", "run"], s);
  assert.equal(r.code, 0, r.stderr);
  rmSync(join(s, "run", "summary.json"));
  const marker = JSON.parse(readFileSync(join(s, "run", ".gpmcmc"), "utf8")) as { complete: boolean; files: string[] };
  writeFileSync(join(s, "run", ".gpmcmc"), JSON.stringify({ ...marker, complete: false, files: ["run.json", "draws_1.csv", "checkpoint_1.json", "summary.json"] }));
  if (checkpoint !== undefined) writeFileSync(join(s, "run", "checkpoint_1.json"), checkpoint);
}

const GRID_KINDS = "simulated-latent-chain, hyper-chain, parametric-chain, volatility-run, fitzhugh-nagumo-run, lgcp-run";

/** A grid spec of 4 small jobs in s/grid.json, with `change` applied. */
function writeSpec(s: string, change: Record<string, unknown>): void {
  const spec = {
    grid: "demo seed=1", kind: "simulated-latent-chain", fixed: { draws: 20, burnIn: 5, dataSeed: 1 },
    axes: { likelihood: ["logistic"], n: [10], d: [2], "data-set": [0], sampler: ["mh-v1", "ess"], chain: [0, 1] }, out: "grid-out", ...change,
  };
  writeFileSync(join(s, "grid.json"), JSON.stringify(spec));
}

/** A data set of 60000 rows in s/big.csv (1 MB, made here, not committed). */
function writeBig(s: string): void {
  const rows = ["y,x1,x2"];
  for (let i = 0; i < 60000; i++) rows.push(`${i % 2 === 0 ? 1 : -1},${(i % 97) / 10},${(i % 89) / 10}`);
  writeFileSync(join(s, "big.csv"), rows.join("\n") + "\n");
}

const TABLE: Row[] = [
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
  ...(["laplace", "ep"] as const).map((command): Row => ({
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


for (const row of TABLE) {
  test(`bad input (command line): ${row.name}`, () => {
    const s = scratchDir();
    try {
      row.setup?.(s.dir);
      const before = snapshot(s.dir);
      const r = gpmcmc(row.args(s.dir), s.dir, row.env);
      assert.equal(r.stderr, `gpmcmc: ${row.message(s.dir)}\n`);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      assert.deepEqual(snapshot(s.dir), before, "nothing was written");
    } finally {
      s.cleanup();
    }
  });
}

test("worker: SIGINT and SIGTERM stop it within a second, even while Redis does not answer", async () => {
  // a server that accepts connections and never answers: the worker waits for its first PING
  let connected = () => {};
  const silent = createServer(() => connected());
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const port = (silent.address() as AddressInfo).port;
  try {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const connecting = new Promise<void>((resolve) => (connected = resolve));
      const child = spawn(process.execPath, [CLI, "worker", "--queue", `redis://127.0.0.1:${port}`], { stdio: "ignore" });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
      await connecting; // started (its signal handlers are set before it connects), waiting for Redis
      const t0 = performance.now();
      child.kill(signal);
      assert.equal(await exited, 0);
      assert.ok(performance.now() - t0 < 2000, `${signal}: ${(performance.now() - t0).toFixed(0)} ms to stop`);
    }
  } finally {
    silent.close();
  }
});

test("labels all of one class: one warning line on stderr, and the command runs (the model is still defined)", () => {
  const s = scratchDir();
  try {
    writeFileSync(join(s.dir, "pos.csv"), "y,x1\n1,0.1\n1,0.5\n1,0.9\n");
    writeFileSync(join(s.dir, "neg.csv"), "y,x1\n0,0.1\n0,0.5\n0,0.9\n");
    const warning = (file: string, label: string) => `gpmcmc: warning: ${file}: all 3 labels in column "y" are ${label}: the data hold one class only (the model is still defined, but nothing in the data speaks for the other class)\n`;
    const runs: [string[], string][] = [
      [["laplace", "--data", "pos.csv", ...KERNEL], warning("pos.csv", "+1")],
      [["ep", "--data", "neg.csv", ...KERNEL], warning("neg.csv", "-1 (0 in a 0/1 file)")],
      [["sample", "--data", "neg.csv", "--likelihood", "logistic", ...KERNEL, "--draws", "10", "--burn-in", "10", "--chains", "1", "--quiet"], warning("neg.csv", "-1 (0 in a 0/1 file)")],
    ];
    for (const [args, stderr] of runs) {
      const r = gpmcmc(args, s.dir);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, stderr);
    }
  } finally {
    s.cleanup();
  }
});
