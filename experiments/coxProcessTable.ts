/**
 * Prints Table 13 of EXPERIMENTS.md from experiments/coxProcess.ts's result file, ours beside the
 * paper's: seconds of sampling (wall and CPU), ESS (min, median, max) over the N cells,
 * s / min-ESS (wall and CPU) and the speed relative to the slowest method (CPU), and the paper's
 * seconds, ESS and s / min-ESS.
 *
 *   node dist/experiments/coxProcessTable.js [experiments/results/lgcp/table13.json]
 */
import { readFileSync } from "node:fs";

interface Cell {
  sampler: string;
  burnIn: number;
  draws: number;
  seconds: number;
  cpuSeconds: number;
  minEss: number;
  medianEss: number;
  maxEss: number;
  secondsPerMinEss: number;
  cpuSecondsPerMinEss: number;
  acceptanceRate: number;
  meanAbsErrorOfPosteriorMean: number;
  meanPosteriorVariance: number;
}

const file = process.argv[2] ?? "experiments/results/lgcp/table13.json";
const result = JSON.parse(readFileSync(file, "utf8")) as { cells: Cell[]; paper: Record<string, { seconds: number; ess: number[]; secondsPerMinEss: number; relativeSpeed: number }> };
const slowest = Math.max(...result.cells.map((c) => c.cpuSecondsPerMinEss));
const f = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toPrecision(2));
const lines = [
  "| method | burn-in + draws | s (wall) | s (CPU) | ESS (min, med, max) | s / min-ESS (wall) | s / min-ESS (CPU) | rel. speed (CPU) | acceptance | paper: s, ESS, s / min-ESS, rel. speed |",
  "|---|---|---|---|---|---|---|---|---|---|",
];
for (const c of result.cells) {
  const p = result.paper[c.sampler];
  lines.push(`| ${c.sampler} | ${c.burnIn} + ${c.draws} | ${f(c.seconds)} | ${f(c.cpuSeconds)} | (${f(c.minEss)}, ${f(c.medianEss)}, ${f(c.maxEss)}) | ${f(c.secondsPerMinEss)} | ${f(c.cpuSecondsPerMinEss)} | x${f(slowest / c.cpuSecondsPerMinEss)} | ${c.acceptanceRate.toFixed(2)} | ${p.seconds}, (${p.ess.join(", ")}), ${p.secondsPerMinEss}, x${p.relativeSpeed} |`);
}
lines.push("", "| method | mean abs. error of the posterior mean field against the true field | mean posterior variance |", "|---|---|---|");
for (const c of result.cells) lines.push(`| ${c.sampler} | ${c.meanAbsErrorOfPosteriorMean.toFixed(3)} | ${c.meanPosteriorVariance.toFixed(3)} |`);
process.stdout.write(lines.join("\n") + "\n");
