/**
 * The documentation's TypeScript examples are files of test/api/examples/, verbatim, and they run.
 *
 * Every ```ts block of README.md and of the pages of docs/ (`docPages`) must be, character for
 * character, one of the files in test/api/examples/, and every file there must be shown on some
 * page: so each example the pages show is compiled with the package (by `tsc`, importing it by its
 * name, as a user would) and run here, in a scratch directory of its own, where it must exit 0.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, scratchDir } from "../fixtures.js";
import { docPages, readmeBlocks } from "../readme/readmeBlocks.js";

const SOURCE = join(REPO_ROOT, "test", "api", "examples");
const BUILT = join(REPO_ROOT, "dist", "test", "api", "examples");
const EXAMPLES = readdirSync(SOURCE).filter((f) => f.endsWith(".ts")).sort();

/** Each page's ```ts blocks, with the example file each one is. */
function shownExamples(): { page: string; line: number; file: string | undefined }[] {
  const files = EXAMPLES.map((f) => ({ f, text: readFileSync(join(SOURCE, f), "utf8") }));
  return docPages(REPO_ROOT).flatMap((page) =>
    readmeBlocks(readFileSync(join(REPO_ROOT, page), "utf8"))
      .filter((b) => b.lang === "ts")
      .map((b) => ({ page, line: b.line, file: files.find((x) => x.text === `${b.text}\n`)?.f })),
  );
}

test("docs: every ts block is a file of test/api/examples/ verbatim, and every such file is shown", () => {
  const shown = shownExamples();
  assert.ok(shown.length >= 5, `only ${shown.length} ts blocks found`);
  for (const s of shown) assert.ok(s.file !== undefined, `${s.page} line ${s.line}: the ts block is not a file of test/api/examples/ (verbatim)`);
  for (const f of EXAMPLES) assert.ok(shown.some((s) => s.file === f), `test/api/examples/${f} is shown on no page`);
  assert.ok(shown.some((s) => s.page === "docs/api.md" && s.file === "quickStart.ts"), "docs/api.md does not show quickStart.ts");
});

for (const file of EXAMPLES) {
  test(`docs: the example ${file} runs`, () => {
    const s = scratchDir();
    try {
      const r = spawnSync(process.execPath, [join(BUILT, file.replace(/\.ts$/, ".js"))], {
        cwd: s.dir,
        encoding: "utf8",
        env: { ...process.env, GPMCMC_BACKEND: "js" },
      });
      assert.equal(r.status, 0, r.stderr);
      if (file === "quickStart.ts") assert.match(r.stdout, /^f\.1: ESS \d+ from 2 x 200 draws\nmin ESS \d+, max R-hat 1\.\d{3}, complete: true\n$/);
    } finally {
      s.cleanup();
    }
  });
}
