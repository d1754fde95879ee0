/**
 * The documentation's commands run, and its example outputs are what they print: README.md and
 * every page of docs/ (docs/ARCHITECTURE.md only if it has a shell block; `docPages`).
 *
 * Each page is checked on its own: every command of its ```sh blocks runs, in the order the page
 * gives them, in a fresh scratch directory of its own holding links to the repository's data/,
 * dist/ and experiments/ (so `head -n 101 data/...` and `node dist/experiments/...` work as they
 * do in a clone), with `npx gpmcmc` meaning the built command (dist/src/cli/main.js), as it does
 * in the repository. A page's commands may use the files of its earlier commands, never another
 * page's. Each must exit 0. An output block after a shell block is compared with the output of
 * the command its "$ " line names, by the rule in readmeBlocks.ts (every line the same but timing
 * lines and "..." lines, figures to their last shown digit). The commands run with OpenBLAS's
 * kernels pinned to those the outputs were made with (README_BLAS_CORE): on another kernel the
 * last bits of a sum differ, a chain amplifies them, and its draws are other draws of the same
 * posterior. Where OpenBLAS cannot run that kernel (a CPU without AVX2), the outputs are compared
 * by their words and the form of their figures, and the test says so. The error messages shown in
 * an output block of their own are produced from a bad file and a bad option built here, and
 * compared line for line.
 *
 * Not run, each for the reason given in NOT_RUN: commands that install or build, the test suite
 * itself, and commands with placeholders (d.csv, DIR, [options]). A command that is neither run
 * nor listed there fails the test, and so does a listed one that no page has any more. ```ts
 * blocks are not shell: the API examples are run by test/api/examples.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, scratchDir } from "../fixtures.js";
import { compareOutput, docPages, outputParts, readmeBlocks, shellCommands, type Block, type FigureRule } from "./readmeBlocks.js";

const PAGES = docPages(REPO_ROOT);
const text = (page: string) => readFileSync(join(REPO_ROOT, page), "utf8");
const CLI = join(REPO_ROOT, "dist", "src", "cli", "main.js");

/** Commands not run, by their start, with the reason. */
const NOT_RUN: { start: string; why: string }[] = [
  { start: "apt-get update", why: "installs system packages" },
  { start: "npm ci", why: "installs and builds the package this test runs" },
  { start: "npm test", why: "runs the test suite this test is part of" },
  { start: "npx gpmcmc report DIR", why: "DIR is a placeholder" },
  { start: "npx gpmcmc laplace --data d.csv", why: "d.csv is a placeholder" },
  { start: "npx gpmcmc ep --data d.csv", why: "d.csv is a placeholder; [options] are alternatives" },
  { start: "npx gpmcmc ais --data d.csv", why: "d.csv is a placeholder; [options] are alternatives" },
  { start: "npx gpmcmc predict --run DIR", why: "DIR and test.csv are placeholders" },
  { start: "npx gpmcmc predict --approx q.json", why: "q.json and test.csv are placeholders" },
];


const startsWithAny = (command: string, list: { start: string; why: string }[]) => list.find((x) => command.startsWith(x.start));

/**
 * The OpenBLAS kernels (OPENBLAS_CORETYPE) the shown outputs were printed with; docs/reproducibility.md
 * names them too. Haswell's run on every x86-64 CPU with AVX2.
 */
export const README_BLAS_CORE = "Haswell";

/** A scratch directory like a clone's root: data/ linked, `npx gpmcmc` running the built command, OpenBLAS's kernels pinned. */
function workspace(): { dir: string; env: NodeJS.ProcessEnv; cleanup: () => void } {
  const s = scratchDir();
  // data/, and the built experiments with their committed results (the --check example)
  for (const dir of ["data", "dist", "experiments"]) symlinkSync(join(REPO_ROOT, dir), join(s.dir, dir));
  const bin = join(s.dir, ".bin");
  mkdirSync(bin);
  const shim = join(bin, "npx");
  writeFileSync(shim, `#!/bin/sh\n[ "$1" = gpmcmc ] || { echo "npx: only gpmcmc here" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(shim, 0o755);
  return { dir: s.dir, env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}`, OPENBLAS_CORETYPE: README_BLAS_CORE }, cleanup: s.cleanup };
}

function run(command: string, ws: { dir: string; env: NodeJS.ProcessEnv }) {
  return spawnSync("/bin/sh", ["-c", command], { cwd: ws.dir, env: ws.env, encoding: "utf8", timeout: 300_000 });
}

/** A page's shell blocks, each with the output block that follows it, if any (in the same section). */
function shellBlocks(page: string): { shell: Block; output?: Block }[] {
  const blocks = readmeBlocks(text(page));
  const out: { shell: Block; output?: Block }[] = [];
  blocks.forEach((b, k) => {
    if (b.lang !== "sh") return;
    const next = blocks[k + 1];
    out.push({ shell: b, output: next !== undefined && (next.lang === "" || next.lang === "text") && next.section === b.section ? next : undefined });
  });
  return out;
}

test("docs: the pages checked, and the list of commands not run names only commands a page has", () => {
  for (const page of ["README.md", "docs/api.md", "docs/commands/sample.md", "docs/models/latent-gp.md"]) assert.ok(PAGES.includes(page), `${page} is not among the pages checked`);
  const commands = PAGES.flatMap((page) => shellBlocks(page).flatMap((b) => shellCommands(b.shell)));
  assert.ok(commands.length >= 8, `only ${commands.length} shell commands found`);
  const run = commands.filter((c) => !startsWithAny(c, NOT_RUN));
  assert.ok(run.some((c) => c.startsWith("npx gpmcmc diagnose ")), "the diagnose example is not among the commands run");
  for (const x of NOT_RUN) {
    assert.ok(commands.some((c) => c.startsWith(x.start)), `the list names ${JSON.stringify(x.start)}, which no page has`);
  }
});

/** "exact" where the pinned kernels are the ones OpenBLAS runs (`gpmcmc info` says so), else "layout" and why. */
function figureRule(ws: { dir: string; env: NodeJS.ProcessEnv }): { rule: FigureRule; why?: string } {
  const info = run("npx gpmcmc info", ws);
  if (info.status === 0 && info.stdout.includes(`OpenBLAS core: ${README_BLAS_CORE}\n`)) return { rule: "exact" };
  return { rule: "layout", why: `OPENBLAS_CORETYPE=${README_BLAS_CORE} does not take here (gpmcmc info: ${JSON.stringify(info.stdout.split("\n").filter((l) => /linear algebra|core/.test(l)).join("; "))}): the shown outputs are compared by their words and the form of their figures, not the figures` };
}

/** Runs a page's commands in a fresh workspace; returns how many outputs were compared, and the mismatches. */
function checkPage(page: string, report: (why: string) => void): { compared: number; mismatches: string[] } {
  const ws = workspace();
  try {
    const { rule, why } = figureRule(ws);
    if (why !== undefined) report(why);
    const mismatches: string[] = [];
    let compared = 0;
    for (const { shell, output } of shellBlocks(page)) {
      const printed = new Map<string, string>();
      for (const command of shellCommands(shell)) {
        if (startsWithAny(command, NOT_RUN)) continue;
        const r = run(command, ws);
        assert.equal(r.status, 0, `${page} line ${shell.line} (${shell.section}): ${command}\n${r.stderr}`);
        printed.set(command, r.stdout);
      }
      if (output === undefined) continue;
      for (const part of outputParts(output)) {
        assert.ok(part.command !== "", `${page} line ${output.line}: an output block after a shell block starts with "$ command"`);
        const actual = printed.get(part.command);
        assert.ok(actual !== undefined, `${page} line ${output.line}: "$ ${part.command}" is not a command of the block above it`);
        const mismatch = compareOutput(part.expected, actual, rule);
        if (mismatch !== "") mismatches.push(`${page} line ${output.line}, "$ ${part.command}": ${mismatch}\n--- printed now:\n${actual}`);
        compared++;
      }
    }
    return { compared, mismatches };
  } finally {
    ws.cleanup();
  }
}

for (const page of PAGES.filter((p) => shellBlocks(p).length > 0)) {
  test(`${page}: the shell commands run, in a workspace of the page's own, and each shown output is what its command prints`, (t) => {
    const { compared, mismatches } = checkPage(page, (why) => {
      t.diagnostic(why);
      process.stderr.write(`${page}: ${why}\n`);
    });
    assert.deepEqual(mismatches, [], `${mismatches.length} of ${compared} shown outputs differ:\n${mismatches.join("\n")}`);
  });
}

test("docs: shown outputs are compared", () => {
  const compared = PAGES.reduce((sum, page) => sum + shellBlocks(page).filter((b) => b.output !== undefined).length, 0);
  assert.ok(compared >= 10, `only ${compared} shown outputs follow a shell block`);
});

/** The error messages the pages show, each from a real bad input: the data file or options, and the command. */
const ERROR_EXAMPLES: { shown: RegExp; files: Record<string, string>; command: string }[] = [
  {
    shown: /^gpmcmc: data\.csv:7:3: /,
    // Line 7 of the file, column 3 (x2), holds "abc".
    files: { "data.csv": "y,x1,x2\n1,0.1,0.2\n-1,0.3,0.4\n1,0.5,0.6\n-1,0.7,0.8\n1,0.9,1.0\n-1,0.5,abc\n" },
    command: "npx gpmcmc sample --data data.csv --lengthscale 1 --signal-sd 1 --out run",
  },
  {
    shown: /^gpmcmc: --lengthscale: /,
    files: {},
    command: "head -n 11 data/usps35_origsplit_train.csv > usps10.csv && npx gpmcmc sample --data usps10.csv --lengthscale 1,2,3 --signal-sd 1 --out run",
  },
];

/** The output blocks that follow no shell block: the error messages, with the page they are on. */
function errorLines(): { page: string; line: string }[] {
  return PAGES.flatMap((page) => {
    const shown = new Set(shellBlocks(page).flatMap((b) => (b.output ? [b.output.line] : [])));
    return readmeBlocks(text(page))
      .filter((b) => b.lang === "" && !shown.has(b.line))
      .flatMap((b) => b.text.split("\n"))
      .filter((l) => l.startsWith("gpmcmc: "))
      .map((line) => ({ page, line }));
  });
}

test("docs: the error messages shown are what gpmcmc prints for a bad file and a bad option, and nothing is written", () => {
  const lines = errorLines();
  assert.ok(lines.length >= 2, `only ${lines.length} error lines found in the pages`);
  for (const { page, line } of lines) {
    const example = ERROR_EXAMPLES.find((x) => x.shown.test(line));
    assert.ok(example !== undefined, `${page}: error line with no bad input to produce it here: ${line}`);
    const ws = workspace();
    try {
      for (const [name, text] of Object.entries(example.files)) writeFileSync(join(ws.dir, name), text);
      const r = run(example.command, ws);
      assert.equal(r.status, 2, `${example.command}: exit ${r.status}\n${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.equal(compareOutput(line, r.stderr), "", `${page}: ${line}\nprinted: ${r.stderr}`);
      assert.equal(existsSync(join(ws.dir, "run")), false, "an output directory was written");
    } finally {
      ws.cleanup();
    }
  }
});

// Negative controls: the comparison must tell a changed output from the shown one.
test("docs comparison: a changed figure, a missing or extra row, a changed error line, each is a mismatch", () => {
  const shown = [
    "Inference for gp_probit: 4 chains of 500 draws (2000 in all)",
    "f.1            -1.42  0.290   0.934",
    "... 11 rows",
    "f.17           -3.64  0.804    1.73",
    "Sampling took 0.616 s (chains added up): 3.52 min-ESS per second",
    "",
    "Warnings:",
  ].join("\n");
  assert.equal(compareOutput(shown, shown), "");
  // Timings and their wording may change.
  assert.equal(compareOutput(shown, shown.replace(/Sampling took .*/, "time: 0.7 s sampling, 0.9 s in all\nmin ESS per second of sampling 3.1")), "");
  // A figure may differ by one unit of its last shown digit (a rounding tipped by the last bits), not more;
  // a whole number not at all, and a figure not in another form.
  assert.equal(compareOutput(shown, shown.replace("-3.64", "-3.65").replace("0.290", "0.289")), "");
  assert.notEqual(compareOutput(shown, shown.replace("-3.64", "-3.66")), "");
  assert.notEqual(compareOutput(shown, shown.replace("-3.64", "3.64")), "");
  assert.notEqual(compareOutput(shown, shown.replace("0.934", "0.93")), "");
  assert.notEqual(compareOutput(shown, shown.replace("4 chains", "5 chains")), "");
  assert.notEqual(compareOutput(shown, shown.replace("f.17", "f.18")), "");
  // "layout" (where the shown outputs. kernels cannot run): any figure of the same form, but the same words and lines.
  assert.equal(compareOutput(shown, shown.replace("-3.64", "-7.12").replace("f.17", "f.18"), "layout"), "");
  assert.notEqual(compareOutput(shown, shown.replace("-3.64", "-7.1"), "layout"), "");
  assert.notEqual(compareOutput(shown, shown.replace("Inference for", "Inference on"), "layout"), "");
  assert.notEqual(compareOutput(shown, shown.replace("... 11 rows\n", ""), "layout"), "");
  assert.notEqual(compareOutput(shown, shown.replace("... 11 rows\n", "")), "");
  assert.notEqual(compareOutput(shown, shown.replace("Warnings:", "Warnings:\n  R_hat > 1.01 for 1 of 101 quantities")), "");
  assert.notEqual(compareOutput(shown, shown.replace(/Sampling took .*\n/, "")), "");
  // "..." stands for lines left out, and only there.
  assert.equal(compareOutput("a\n...\nd", "a\nb\nc\nd"), "");
  assert.notEqual(compareOutput("a\n...\nd", "a\nb\nc\ne"), "");
  const error = 'gpmcmc: data.csv:7:3: cell "abc" in column "x2" is not a number';
  assert.notEqual(compareOutput(error, error.replace("7:3", "7:2")), "");
  // The diagnose example of docs/commands/diagnose.md, altered, no longer matches what it showed.
  const block = shellBlocks("docs/commands/diagnose.md").find((b) => b.output !== undefined && /^f\.1\s+\S+/m.test(b.output.text))?.output;
  assert.ok(block !== undefined);
  const part = outputParts(block)[0];
  const altered = part.expected.replace(/^(f\.1\s+)\S+/m, "$1123");
  assert.notEqual(altered, part.expected);
  assert.notEqual(compareOutput(altered, part.expected), "");
});
