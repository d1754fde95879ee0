/**
 * The markdown table of EXPERIMENTS.md for experiments/fitzhughNagumo.ts beside Girolami &
 * Calderhead's (2011) Table 14 (Matlab, 5000 draws, 10 runs): per sampler, the means over runs
 * of the seconds of sampling and of each parameter's ESS, s / min mean-ESS (the paper's
 * "Total Time / (Min mean ESS)"), the speed relative to the slowest of ours, and the paper's
 * figures, with its ESS scaled to our number of draws for a per-draw comparison.
 *
 *   node dist/experiments/fitzhughNagumoTable.js experiments/results/fitzhugh-nagumo/table14-first-order.json \
 *     experiments/results/fitzhugh-nagumo/table14-hmc-rmhmc.json
 *
 * (one or more result files; a sampler's row takes the burn-in and draws of the first file with its
 * runs, and its runs from every file at that burn-in and draws).
 */
import { readResultFile } from "./experimentScript.js";

/** The paper's Table 14: time (s), mean ESS (a, b, c), s / min mean-ESS, relative speed. */
const PAPER: Record<string, { name: string; time: number; ess: [number, number, number]; perMinEss: number; speed: number }> = {
  "mh-componentwise": { name: "Metropolis", time: 18.5, ess: [132, 130, 108], perMinEss: 0.17, speed: 3.9 },
  mala: { name: "MALA", time: 14.4, ess: [125, 21, 46], perMinEss: 0.67, speed: 1 },
  hmc: { name: "HMC", time: 815, ess: [4668, 3483, 3811], perMinEss: 0.23, speed: 2.9 },
  mmala: { name: "mMALA", time: 34.9, ess: [1057, 925, 956], perMinEss: 0.037, speed: 18.1 },
  smmala: { name: "mMALA Simp.", time: 14.9, ess: [1007, 479, 762], perMinEss: 0.031, speed: 21.6 },
  rmhmc: { name: "RM-HMC", time: 266, ess: [4302, 4202, 3199], perMinEss: 0.083, speed: 8 },
};
const PAPER_DRAWS = 5000;

interface Cell { sampler: string; run: number; seconds: number; ess: number[]; acceptanceRate: number; divergences: number; burnInDivergences?: number; solves: { statesOnly: number; firstOrder: number; secondOrder: number } }

const f = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));
interface Result { cells: Cell[]; draws: number; burnIn: number; runs: number }
// (samplers under their present names: readResultFile)
const results = process.argv.slice(2).map((file) => readResultFile<Result>(file));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const order = Object.keys(PAPER);
const samplers = [...new Set(results.flatMap((r) => r.cells.map((c) => c.sampler)))].sort((a, b) => order.indexOf(a) - order.indexOf(b));
const rows = samplers.map((sampler) => {
  // the first file with the sampler sets its protocol; its runs in every file at that protocol
  const result = results.find((r) => r.cells.some((c) => c.sampler === sampler))!;
  const cs = results.filter((r) => r.burnIn === result.burnIn && r.draws === result.draws).flatMap((r) => r.cells.filter((c) => c.sampler === sampler));
  const runs = cs.map((c) => c.run);
  if (new Set(runs).size < runs.length) throw new Error(`${sampler}: run ${runs.find((r, i) => runs.indexOf(r) !== i)} is in two of the files`);
  const ess = [0, 1, 2].map((k) => mean(cs.map((c) => c.ess[k])));
  const time = mean(cs.map((c) => c.seconds));
  const perDraw = (n: number) => n / (result.burnIn + result.draws);
  const solves = [perDraw(mean(cs.map((c) => c.solves.statesOnly))), perDraw(mean(cs.map((c) => c.solves.firstOrder))), perDraw(mean(cs.map((c) => c.solves.secondOrder)))];
  // divergent transitions summed over the runs, after burn-in and (where the file records them) in it
  const divergent = cs.reduce((a, c) => a + c.divergences, 0);
  const inBurnIn = cs.every((c) => c.burnInDivergences !== undefined) ? ` (${cs.reduce((a, c) => a + c.burnInDivergences!, 0)})` : "";
  return { sampler, runs: cs.length, draws: result.draws, time, ess, perMinEss: time / Math.min(...ess), accept: mean(cs.map((c) => c.acceptanceRate)), divergent: `${divergent}${inBurnIn}`, solves };
});
const slowest = Math.max(...rows.map((r) => r.perMinEss));
const lines = [
  "| method | runs x draws | time (s) | mean ESS (a, b, c) | s / min mean-ESS | rel. speed | accept | divergent, all runs (in burn-in) | solves per iteration (states, 1st, 2nd order) | paper: time (s), mean ESS (a, b, c), s / min mean-ESS, rel. speed | paper's ESS scaled to our draws |",
  "|---|---|---|---|---|---|---|---|---|---|---|",
];
for (const r of rows) {
  const p = PAPER[r.sampler];
  lines.push(
    `| ${r.sampler} | ${r.runs} x ${r.draws} | ${f(r.time)} | ${r.ess.map(f).join(", ")} | ${f(r.perMinEss)} | x${(slowest / r.perMinEss).toFixed(1)} | ${r.accept.toFixed(2)} | ${r.divergent} | ${r.solves.map((s) => s.toFixed(1)).join(", ")} | ` +
      (p ? `${p.name}: ${p.time}, ${p.ess.join(", ")}, ${p.perMinEss}, x${p.speed} | ${p.ess.map((e) => f((e * r.draws) / PAPER_DRAWS)).join(", ")} |` : "- | - |"),
  );
}
process.stdout.write(lines.join("\n") + "\n");
