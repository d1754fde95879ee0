/**
 * Prints the rows of Figure 9's table in EXPERIMENTS.md from experiments/coxProcessHyper.ts's
 * result files: the start, iterations, wall and CPU seconds, the posterior mean (sd) of sigma,
 * beta and, where recorded, sigma^2 / beta over the kept iterations, and the acceptance rates.
 *
 *   node dist/experiments/figure9Table.js experiments/results/lgcp-euclidean/figure9*.json
 */
import { readFileSync } from "node:fs";

interface Stat {
  mean: number;
  sd: number;
}

interface Figure9Result {
  iterations: number;
  burnIn: number;
  seconds: number;
  cpuSeconds: number;
  meanCount: number;
  totalCount: number;
  start: { sigma: number; beta: number };
  truth: { sigma: number; beta: number };
  acceptance: { x: number; theta: number; nonCentred?: number | null };
  nonCentredSteps?: number;
  posterior: { sigma: Stat; beta: Stat; sigma2OverBeta?: Stat };
}

const f = (s: Stat, digits: number) => `${s.mean.toPrecision(digits)} (sd ${s.sd.toPrecision(2)})`;
const lines = [
  "| file | data (points) | start (sigma, beta) | iterations (burn-in) | wall s | CPU s | sigma | beta | sigma^2 / beta | acceptance field, theta (, non-centred) |",
  "|---|---|---|---|---|---|---|---|---|---|",
];
for (const file of process.argv.slice(2)) {
  const r = JSON.parse(readFileSync(file, "utf8")) as Figure9Result;
  const ratio = r.posterior.sigma2OverBeta ? f(r.posterior.sigma2OverBeta, 3) : "-";
  lines.push(`| ${file.split("/").pop()} | ${r.meanCount} expected (${r.totalCount}) | (${r.start.sigma}, ${r.start.beta}) | ${r.iterations} (${r.burnIn}) | ${r.seconds.toFixed(0)} | ${r.cpuSeconds.toFixed(1)} | ${f(r.posterior.sigma, 3)} | ${f(r.posterior.beta, 3)} | ${ratio} | ${r.acceptance.x.toFixed(2)}, ${r.acceptance.theta.toFixed(2)}${r.acceptance.nonCentred == null ? "" : `, ${r.acceptance.nonCentred.toFixed(2)} (${r.nonCentredSteps} steps)`} |`);
}
process.stdout.write(lines.join("\n") + "\n");
