/**
 * The markdown table of EXPERIMENTS.md for experiments/logisticRegression.ts: our time, ESS and
 * s / min-ESS beside Girolami & Calderhead's (2011) Tables 6-8 (Matlab, 5000 + 5000 iterations,
 * 10 runs), and the ratio of s / min-ESS (paper / ours: above 1 means ours is faster).
 *
 *   node dist/experiments/logisticRegressionTable.js experiments/results/logistic-regression/tables4-9-reduced.json
 */
import { readFileSync } from "node:fs";

/** The paper's (time s, min ESS, s / min-ESS) by data set and method; methods it has no row for are absent. */
const PAPER: Record<string, Record<string, [number, number, number]>> = {
  pima532: { "mh-componentwise": [4.1, 14, 0.29], mala: [1.63, 3, 0.54], hmc: [1499.1, 3149, 0.48], iwls: [3.2, 6, 0.53], mmala: [4.4, 1124, 0.0039], "simplified-mmala": [1.9, 1022, 0.0019], rmhmc: [50.9, 5000, 0.01] },
  heart_statlog: { "mh-componentwise": [5.2, 8, 0.65], hmc: [2018, 368, 5.48], iwls: [2.9, 3, 0.97], mmala: [6.4, 649, 0.01], "simplified-mmala": [1.7, 373, 0.004], rmhmc: [59.2, 4925, 0.012] },
  synth_tr: { "mh-componentwise": [2.5, 11, 0.23], mala: [1.1, 4, 0.28], hmc: [52.8, 1365, 0.039], iwls: [1.7, 8, 0.21], mmala: [3.0, 857, 0.0035], "simplified-mmala": [1.4, 682, 0.0021], rmhmc: [25.3, 4999, 0.0051] },
};
const TABLE: Record<string, string> = { pima532: "Table 6", heart_statlog: "Table 7", synth_tr: "Table 8" };

interface Cell { data: string; sampler: string; seconds: number; minEss: number; medianEss: number; maxEss: number; secondsPerMinEss: number; acceptanceRate: number; divergences: number }

const f = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));
const result = JSON.parse(readFileSync(process.argv[2], "utf8")) as { cells: Cell[]; burnIn: number; draws: number; runs: number };
const lines: string[] = [];
for (const data of [...new Set(result.cells.map((c) => c.data))]) {
  lines.push(`#### ${data} (paper: ${TABLE[data] ?? "-"})`, "");
  lines.push("| method | time (s) | ESS (min, med, max) | s / min-ESS | accept | paper: time, min ESS, s / min-ESS | paper / ours (s / min-ESS) |");
  lines.push("|---|---|---|---|---|---|---|");
  for (const c of result.cells.filter((x) => x.data === data)) {
    const p = PAPER[data]?.[c.sampler];
    lines.push(`| ${c.sampler} | ${f(c.seconds)} | (${f(c.minEss)}, ${f(c.medianEss)}, ${f(c.maxEss)}) | ${f(c.secondsPerMinEss)} | ${f(c.acceptanceRate)} | ${p ? `${p[0]}, ${p[1]}, ${p[2]}` : "-"} | ${p ? f(p[2] / c.secondsPerMinEss) : "-"} |`);
  }
  lines.push("");
}
process.stdout.write(lines.join("\n"));
