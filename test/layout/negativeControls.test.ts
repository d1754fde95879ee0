// Negative controls are one mechanism: every fault that breaks a sampler on purpose is declared once
// in src/math/negativeControl.ts (FAULTS), each is switched on by some test under test/, and src/ has
// no other switch of that kind: no brokenX option, no `broken` typed by hand rather than from the
// table, no fault set by the library itself. The checkers are also fed synthetic sources (a stray
// option, a hand-typed `broken`, a fault set in src/, a fault no test names) and must report each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO_ROOT, typeScriptSources as sourceFiles } from "../fixtures.js";
import { FAULTS, type Fault } from "../../src/math/negativeControl.js";

const THIS_FILE = "test/layout/negativeControls.test.ts";

/** The .ts files under a top folder, as [path relative to the root, text]. */
function sources(top: string): [string, string][] {
  return sourceFiles(join(REPO_ROOT, top)).map((f) => [relative(REPO_ROOT, f).split("\\").join("/"), readFileSync(f, "utf8")]);
}

/**
 * One line per negative-control switch in `text` that is not the table's: an identifier brokenX,
 * a `broken?:` whose type is not `FaultOf<...>` or `Fault`, a non-optional `broken:` typed
 * boolean, string or number, or a fault switched on by the code itself (`broken: "..."`,
 * `broken = "..."`, `broken: true`; a comment may name a fault by its setting).
 */
export function switchViolations(path: string, text: string): string[] {
  const out: string[] = [];
  text.split("\n").forEach((line, i) => {
    const at = `${path}:${i + 1}`;
    for (const m of line.matchAll(/\bbroken[A-Z]\w*/g)) out.push(`${at}: ${m[0]}, a switch outside the fault table (use broken?: FaultOf<...>)`);
    for (const m of line.matchAll(/\bbroken\?\s*:\s*([^;,)=`]+)/g)) {
      if (!/^(?:FaultOf<[^>]+>|Fault)\s*$/.test(m[1].trim())) out.push(`${at}: broken typed ${m[1].trim()}, not from the fault table`);
    }
    for (const m of line.matchAll(/\bbroken\s*:\s*(boolean|string|number)\b/g)) out.push(`${at}: broken typed ${m[1]}, not from the fault table`);
    if (/^\s*(?:\*|\/\*|\/\/)/.test(line)) return; // a comment may name a fault by its setting
    for (const m of line.matchAll(/\bbroken\s*(?::|=(?!=))\s*(["'`][^"'`]*["'`]|true\b|false\b|\d+)/g)) out.push(`${at}: broken set to ${m[1]} (only tests switch a fault on)`);
  });
  return out;
}

/** The faults of `faults` that no text of `tests` names as a quoted string. */
export function unusedFaults(faults: readonly string[], tests: readonly string[]): string[] {
  return faults.filter((f) => !tests.some((t) => t.includes(`"${f}"`) || t.includes(`'${f}'`)));
}

const FAULT_NAMES = Object.keys(FAULTS) as Fault[];

test("the fault table: kebab-case names and components, one line saying what each breaks", () => {
  assert.ok(FAULT_NAMES.length >= 30, `only ${FAULT_NAMES.length} faults`);
  const kebab = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  for (const name of FAULT_NAMES) {
    const { component, breaks } = FAULTS[name];
    assert.match(name, kebab);
    assert.match(component, kebab);
    assert.ok(breaks.length > 10 && !breaks.includes("\n"), `${name}: what it breaks, in one line`);
  }
});

test("every fault of the table is switched on by a test under test/ (no dead switch)", () => {
  const tests = sources("test").filter(([p]) => p !== THIS_FILE).map(([, t]) => t);
  assert.ok(tests.length > 100, `only ${tests.length} test files found`);
  assert.deepEqual(unusedFaults(FAULT_NAMES, tests), []);
});

test("src/ has no negative-control switch but the table's: no brokenX, no hand-typed broken, no fault set", () => {
  const files = sources("src");
  assert.ok(files.some(([p]) => p === "src/math/negativeControl.ts"), "the fault table was not found");
  // a known use of the table is seen (the scan reads what it should)
  assert.ok(files.some(([p, t]) => p === "src/samplers/kernels/hmc.ts" && /\bbroken\?: FaultOf<"hmc">/.test(t)), "hmc's broken option was not found");
  assert.deepEqual(files.flatMap(([p, t]) => switchViolations(p, t)), []);
});

test("negative control: a stray switch, a hand-typed broken, a fault set in src/ and an unused fault are each reported", () => {
  const cases: [string, string][] = [
    ["brokenFoo", `export interface O {\n  brokenFoo?: "x";\n}`],
    ["brokenFoo", `if (options.brokenFoo) x = 0;`],
    ["typed \"x\" | \"y\"", `interface O { broken?: "x" | "y"; stepSize: number }`],
    ["typed boolean", `function f(a: number, broken?: boolean) {}`],
    ["typed SmmalaOptions[\"broken\"]", `function iwls(t: Target, broken?: SmmalaOptions["broken"]) {}`],
    ["typed boolean", `interface O { readonly broken: boolean }`],
    ["set to \"no-ghost\"", `new DelayedRejection(leapfrog, { factor: 2, broken: "no-ghost" }, n);`],
    ["set to true", `gibbsChain({ broken: true })`],
    ["set to \"drop-w\"", `function w(t: T, broken = "drop-w") {}`],
  ];
  for (const [what, text] of cases) {
    const found = switchViolations("src/x.ts", text);
    assert.ok(found.some((l) => l.includes(what)), `${JSON.stringify(text)}: ${what} not reported (${found.join("; ")})`);
  }
  // and the table's own forms pass
  const fine = [
    `  broken?: FaultOf<"hmc">;`,
    `  readonly broken?: FaultOf<"delayed-rejection">;`,
    `export function iwls(target: Target, broken?: FaultOf<"smmala">): Kernel {`,
    `    broken: faultOf("nuts", options.broken),`,
    `  const potentialOnly = options.broken === "potential-only";`,
    `const prior: SvPriorOptions = { betaPriorRate: rate, broken: options.broken };`,
    `// One legend per row, rows broken here: the renderer's own measure of text`,
    ` * One KHR move from (t, f). \`broken: "no-proposal-density"\` drops the q terms from the ratio`,
  ];
  for (const line of fine) assert.deepEqual(switchViolations("src/x.ts", line), [], line);
  assert.deepEqual(unusedFaults(["made-up-fault", "potential-only"], [`hmc(t, { broken: "potential-only" })`]), ["made-up-fault"]);
});
