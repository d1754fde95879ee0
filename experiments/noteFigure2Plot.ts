/**
 * The note's Figure 2 as one picture: merges the figure2.json files that
 * `experiments/noteFigure2.ts` wrote for the same data (same n, same EP references) and draws
 * every variant's log Z estimate (+- 2 delta-method standard errors) against seconds per run, with
 * EP's log Z (dashed) and its second-order correction (solid); prints the table EXPERIMENTS.md
 * holds: each estimate's distance from EP and from corrected EP, in nats and in its own standard
 * errors, beside the seconds it took.
 *
 *   node dist/experiments/noteFigure2Plot.js --out FIGURE.svg [--title T] [--zoom W] A/figure2.json B/figure2.json ...
 *
 * --zoom W also writes FIGURE-zoom.svg with only the estimates within W nats of corrected EP.
 *
 * A variant that appears in several files is taken from the last.
 */
import { readFileSync } from "node:fs";
import { writeFileAtomic } from "../src/io/atomic.js";
import { svgLineFigure } from "../src/report/figures.js";

interface Row { variant: string; label: string; temperatures: number; runs: number; logZ: number; standardError: number; secondsPerRun: number; acceptanceRate: number; divergences: number; logWeights: number[] }
interface Figure2 { n: number; epLogZ: number; epCorrectedLogZ: number; variants: Row[] }

const args = process.argv.slice(2);
const take = (name: string): string | undefined => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};
const out = take("--out");
const title = take("--title");
const zoomArg = take("--zoom");
const zoom = zoomArg === undefined ? undefined : Number(zoomArg);
if (zoom !== undefined && !(zoom > 0)) {
  console.error(`--zoom: a positive number of nats, got ${JSON.stringify(zoomArg)}`);
  process.exit(2);
}
if (out === undefined || args.length === 0) {
  console.error("usage: noteFigure2Plot --out FIGURE.svg [--title T] [--zoom W] figure2.json ...");
  process.exit(2);
}

const files = args.map((path) => ({ path, figure: JSON.parse(readFileSync(path, "utf8")) as Figure2 }));
const first = files[0].figure;
for (const { path, figure } of files) {
  // the references are computed from the data alone: files for other data cannot be merged
  if (figure.n !== first.n || Math.abs(figure.epLogZ - first.epLogZ) > 1e-6) {
    console.error(`${path}: n = ${figure.n}, EP log Z ${figure.epLogZ}; ${files[0].path} has n = ${first.n}, EP log Z ${first.epLogZ}`);
    process.exit(2);
  }
}
const rows = new Map<string, Row>();
for (const { figure } of files) for (const r of figure.variants) rows.set(r.variant, r);
// RMHMC with the note's 5 fixed-point iterations and no reversibility check, told apart from the checked one
for (const r of rows.values()) if (/rmhmc-\d/.test(r.variant) && !r.label.includes("f = 5")) r.label = r.label.replace("RMHMC", "RMHMC (f = 5)");
const ordered = [...rows.values()].sort((a, b) => a.secondsPerRun - b.secondsPerRun);

const figure = (shown: Row[], heading: string) => svgLineFigure({
  title: heading,
  xLabel: "seconds per run (one core)",
  yLabel: "log Z (+- 2 standard errors)",
  xLog: true,
  width: 760,
  height: 480,
  series: shown.map((r) => ({ name: `${r.label} (${r.runs} runs)`, x: [r.secondsPerRun], y: [r.logZ], error: [2 * r.standardError], line: false })),
  references: [
    { y: first.epLogZ, label: `EP ${first.epLogZ.toFixed(2)}`, dashed: true },
    { y: first.epCorrectedLogZ, label: `EP, corrected ${first.epCorrectedLogZ.toFixed(2)}`, dashed: false },
  ],
});
const heading = title ?? `AIS estimates of log Z against time, USPS 3 vs 5 (n = ${first.n})`;
writeFileAtomic(out, figure(ordered, heading));
// --zoom W: a second figure (FIGURE-zoom.svg) with the estimates within W nats of corrected EP
const zoomed = zoom === undefined ? [] : ordered.filter((r) => Math.abs(r.logZ - first.epCorrectedLogZ) <= zoom);
if (zoom !== undefined) writeFileAtomic(out.replace(/\.svg$/, "") + "-zoom.svg", figure(zoomed, `${heading}: within ${zoom} of corrected EP`));

const f = (x: number, d = 3) => x.toFixed(d);
console.log(`n = ${first.n}: EP log Z ${f(first.epLogZ, 4)}, corrected EP ${f(first.epCorrectedLogZ, 4)}`);
console.log("");
console.log("| variant | B | runs | log Z | standard error | s per run | minus EP | minus corrected EP | in standard errors | acceptance | divergences |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of ordered) {
  const off = r.logZ - first.epCorrectedLogZ;
  console.log(`| ${r.label} | ${r.temperatures} | ${r.runs} | ${f(r.logZ)} | ${f(r.standardError)} | ${f(r.secondsPerRun, 1)} | ${f(r.logZ - first.epLogZ, 2)} | ${f(off, 2)} | ${f(off / r.standardError, 1)} | ${f(r.acceptanceRate)} | ${r.divergences} |`);
}
console.log("");
console.log(`wrote ${out}${zoom !== undefined ? ` and the zoomed figure (${zoomed.length} of ${ordered.length} estimates)` : ""}`);
