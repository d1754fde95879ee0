/**
 * Do two runs sample the same posterior? For every variable the two runs share, the z-scores of
 * the differences of their means and of their standard deviations, each difference divided by its
 * Monte Carlo standard error: the mean's MCSE is sd / sqrt(ESS_mean) of the chains (as `diagnose`
 * reports it), the sd's is that of the second central moment by the same estimator, carried to
 * the sd by the delta method (se(sd) = se(m2) / (2 sd)). Under agreement each z is about N(0, 1);
 * over many variables a few |z| near 3 are expected, |z| > 4 is a flag.
 *
 *   node dist/experiments/compareRuns.js RUN_A RUN_B [--top 5]
 */
import { columnValues, findDrawsFiles, readCmdStanCsv } from "../src/io/cmdstanReader.js";
import { mcseMean, meanAndSd } from "../src/diagnostics/mcse.js";
import { runAsCommand } from "./experimentScript.js";

export interface MomentComparison {
  variable: string;
  meanA: number;
  meanB: number;
  meanZ: number;
  sdA: number;
  sdB: number;
  sdZ: number;
}

interface Moments { mean: number; mcse: number; sd: number; sdSe: number }

/** Mean, sd and their MCSEs of one variable over its chains. */
export function momentsWithErrors(chains: readonly Float64Array[]): Moments {
  const { mean, sd } = meanAndSd(chains);
  const squares = chains.map((c) => c.map((v) => (v - mean) ** 2));
  return { mean, mcse: mcseMean(chains), sd, sdSe: mcseMean(squares) / (2 * sd) };
}

/** The z-scores of every variable in both sets of chains (name -> chains). */
export function compareMoments(a: ReadonlyMap<string, Float64Array[]>, b: ReadonlyMap<string, Float64Array[]>): MomentComparison[] {
  const out: MomentComparison[] = [];
  for (const [variable, chainsA] of a) {
    const chainsB = b.get(variable);
    if (!chainsB) continue;
    const x = momentsWithErrors(chainsA);
    const y = momentsWithErrors(chainsB);
    out.push({
      variable, meanA: x.mean, meanB: y.mean, meanZ: (x.mean - y.mean) / Math.hypot(x.mcse, y.mcse),
      sdA: x.sd, sdB: y.sd, sdZ: (x.sd - y.sd) / Math.hypot(x.sdSe, y.sdSe),
    });
  }
  return out;
}

/** The model's variables (columns not ending in "__") of a run directory, each as its chains. */
export function readRunChains(dir: string): Map<string, Float64Array[]> {
  const files = findDrawsFiles(dir).map(readCmdStanCsv);
  const out = new Map<string, Float64Array[]>();
  for (const name of files[0].variables) out.set(name, files.map((f) => columnValues(f, name)));
  return out;
}

async function main(argv: string[]): Promise<number> {
  const paths = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--top");
  const t = argv.indexOf("--top");
  const top = t >= 0 ? Number(argv[t + 1]) : 5;
  if (paths.length !== 2 || !(top >= 1)) throw new Error("usage: compareRuns RUN_A RUN_B [--top N]");
  const rows = compareMoments(readRunChains(paths[0]), readRunChains(paths[1]));
  const fmt = (v: number) => v.toPrecision(4);
  for (const [what, key] of [["means", "meanZ"], ["sds", "sdZ"]] as const) {
    const worst = [...rows].sort((p, q) => Math.abs(q[key]) - Math.abs(p[key])).slice(0, top);
    const flagged = rows.filter((r) => Math.abs(r[key]) > 4).length;
    process.stdout.write(`${what}: ${rows.length} variables, ${flagged} with |z| > 4; largest |z|:\n`);
    for (const r of worst) {
      const [va, vb] = key === "meanZ" ? [r.meanA, r.meanB] : [r.sdA, r.sdB];
      process.stdout.write(`  ${r.variable}: ${fmt(va)} against ${fmt(vb)}, z = ${r[key].toFixed(2)}\n`);
    }
  }
  return 0;
}

await runAsCommand(import.meta.url, "compareRuns", main);
