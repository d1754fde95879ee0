/**
 * The documentation's pages (README.md and docs/), their fenced blocks, and the rule by which a
 * shown output is compared with what its command prints now.
 *
 * A block is a shell block (```sh), an output block (``` with no language), or other (```ts,
 * ...). A shell block's commands are its lines, with a trailing backslash joining a line to the
 * next. An output block's lines that start with "$ " name the command whose output follows
 * them; an output block without such a line stands alone (the error messages of
 * docs/data-and-outputs.md).
 *
 * Comparison (`compareOutput`), line by line after trailing blanks are dropped:
 * - a line that is exactly "..." in a page stands for any number of lines left out;
 * - a run of timing lines (a duration in seconds, or a rate per second) matches a run of timing
 *   lines, whatever their wording and figures: times differ from run to run and machine to
 *   machine, and their wording is the least settled part of the output;
 * - every other line must have the same words, in the same places, to the character, and the same
 *   figures: under the rule "exact", a figure with decimals may differ by one unit of its last
 *   shown digit (a rounding that the last bits of a sum tip either way), a whole number not at
 *   all; under the rule "layout", used where the figures cannot be those shown (a CPU
 *   that cannot run the BLAS kernels the shown outputs were made with: another kernel's order
 *   of summation changes the last bits, and a chain amplifies them into other draws), any figure
 *   of the same form (the same count of decimals) stands for any other.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The pages whose commands and examples the tests check, as paths relative to the repository:
 * README.md and every docs/**\/*.md, but docs/ARCHITECTURE.md unless it has a shell block.
 */
export function docPages(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) found.push(rel);
    }
  };
  walk("docs");
  const pages = found.sort().filter((p) => p !== "docs/ARCHITECTURE.md" || readmeBlocks(readFileSync(join(root, p), "utf8")).some((b) => b.lang === "sh"));
  return ["README.md", ...pages];
}

export interface Block {
  /** "sh", "" (output), or another language. */
  lang: string;
  /** 1-based line of the opening fence in the page. */
  line: number;
  /** The `## ` or `### ` heading the block sits under. */
  section: string;
  text: string;
}

export function readmeBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{2,3} (.*)$/.exec(lines[i]);
    if (heading) section = heading[1];
    const fence = /^```(\S*)\s*$/.exec(lines[i]);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    if (i >= lines.length) throw new Error(`line ${start + 1}: the block is never closed`);
    blocks.push({ lang: fence[1], line: start + 1, section, text: body.join("\n") });
  }
  return blocks;
}

/** A shell block's commands: one per line, a trailing backslash continuing it on the next. */
export function shellCommands(block: Block): string[] {
  const out: string[] = [];
  let pending = "";
  for (const raw of block.text.split("\n")) {
    const l = raw.trimEnd();
    if (l.endsWith("\\")) {
      pending += l.slice(0, -1).trim() + " ";
      continue;
    }
    const command = (pending + l.trim()).trim();
    pending = "";
    if (command !== "") out.push(command);
  }
  return out;
}

/** The parts of an output block: the command each part is the output of ("" for none), and its lines. */
export function outputParts(block: Block): { command: string; expected: string }[] {
  const parts: { command: string; lines: string[] }[] = [];
  for (const l of block.text.split("\n")) {
    if (l.startsWith("$ ")) parts.push({ command: l.slice(2).trim(), lines: [] });
    else if (parts.length === 0) parts.push({ command: "", lines: [l] });
    else parts[parts.length - 1].lines.push(l);
  }
  return parts.map((p) => ({ command: p.command, expected: p.lines.join("\n") }));
}

/** A line that reports a duration or a rate per second. */
export function isTimingLine(line: string): boolean {
  return /\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*(?:s|ms|seconds?)\b/.test(line) || /per second/.test(line);
}

/** How figures are compared: to the last shown digit ("exact"), or by their form only ("layout"). */
export type FigureRule = "exact" | "layout";

const NUMBER = /\d+(?:\.\d+)?(?:e[-+]?\d+)?/g;

/** The line split into its words (the text between figures) and its figures. */
function figuresOf(line: string): { words: string[]; figures: string[] } {
  return { words: line.split(NUMBER), figures: line.match(NUMBER) ?? [] };
}

/** Decimals shown and exponent of a figure, as "d.e" (its form). */
function formOf(figure: string): string {
  const m = /^\d+(?:\.(\d+))?(?:e([-+]?\d+))?$/.exec(figure)!;
  return `${m[1]?.length ?? 0}.${m[2] ?? ""}`;
}

/** One unit of the last shown digit apart, or closer; a whole number only equal. */
function withinLastDigit(e: string, a: string): boolean {
  if (e === a) return true;
  const m = /^\d+\.(\d+)(?:e([-+]?\d+))?$/.exec(e);
  if (!m) return false;
  const unit = 10 ** (-m[1]!.length + Number(m[2] ?? 0));
  return Math.abs(Number(e) - Number(a)) <= unit * (1 + 1e-9);
}

/** Whether a printed line matches a shown one under the rule. */
export function sameLine(expected: string, actual: string, rule: FigureRule): boolean {
  if (expected === actual) return true;
  const e = figuresOf(expected);
  const a = figuresOf(actual);
  if (e.figures.length !== a.figures.length || e.words.some((w, i) => w !== a.words[i])) return false;
  return e.figures.every((x, i) => formOf(x) === formOf(a.figures[i]!) && (rule === "layout" || withinLastDigit(x, a.figures[i]!)));
}

const TIMING = "\u0000timing";
const ANY = "\u0000any";

/** Lines to compare: trailing blanks dropped, "..." as a wildcard, each run of timing lines as one. */
function normalise(text: string, withWildcards: boolean): string[] {
  const lines = text.split("\n").map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const out: string[] = [];
  for (const l of lines) {
    if (withWildcards && l === "...") out.push(ANY);
    else if (isTimingLine(l)) {
      if (out[out.length - 1] !== TIMING) out.push(TIMING);
    } else out.push(l);
  }
  return out;
}

/**
 * Compares a shown output with what the command printed; returns "" when they match, else a
 * message naming the first line that does not.
 */
export function compareOutput(expected: string, actual: string, rule: FigureRule = "exact"): string {
  const e = normalise(expected, true);
  const a = normalise(actual, false);
  // match[i][j]: e[i..] matches a[j..]; filled from the end (a glob match, "..." the star).
  const same = (x: string, y: string) => x === y || (x !== TIMING && x !== ANY && y !== TIMING && sameLine(x, y, rule));
  const match: boolean[][] = Array.from({ length: e.length + 1 }, () => new Array<boolean>(a.length + 1).fill(false));
  match[e.length][a.length] = true;
  for (let i = e.length - 1; i >= 0; i--) {
    for (let j = a.length; j >= 0; j--) {
      if (e[i] === ANY) match[i][j] = match[i + 1][j] || (j < a.length && match[i][j + 1]);
      else match[i][j] = j < a.length && same(e[i]!, a[j]!) && match[i + 1][j + 1];
    }
  }
  if (match[0][0]) return "";
  // The first line where the two part: the longest matching prefix outside wildcards.
  let i = 0;
  let j = 0;
  while (i < e.length && j < a.length && e[i] !== ANY && same(e[i]!, a[j]!)) {
    i++;
    j++;
  }
  const show = (x: string | undefined) => (x === undefined ? "(end of output)" : x === TIMING ? "(a timing line)" : x === ANY ? "..." : JSON.stringify(x));
  return `line ${i + 1} of the shown output: the page has ${show(e[i])}, the command printed ${show(a[j])}`;
}
