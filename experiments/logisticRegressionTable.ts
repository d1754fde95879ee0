/**
 * The markdown tables of EXPERIMENTS.md for experiments/logisticRegression.ts, from any number of
 * its result files (cells are pooled; several runs of a cell are averaged):
 *
 * - Tables 4-9: CPU time of sampling, ESS (min, med, max), s / min-ESS, relative speed (to the
 *   slowest method of the data set), acceptance, and Girolami & Calderhead's (2011) figures beside
 *   ours with the ratio of s / min-ESS (paper / ours: above 1 means ours is faster);
 * - Table 2 (cells with thinning), Table 3 (cells with a fixed step size and leapfrog count);
 * - Table 10: the smallest and largest marginal posterior sd (from the RM-HMC cells);
 * - the agreement of the posterior means and sds across methods: for each data set and method, the
 *   largest |z| over coefficients of its mean against the ESS-weighted mean of the other methods
 *   whose min ESS is at least 20, z = (m - m_ref) / sqrt(sd^2 / ESS + sd_ref^2 / sum ESS_ref), and
 *   likewise of its sd (standard errors sd / sqrt(2 ESS)), ESS capped at the number of draws;
 *   |z| > 4 is flagged.
 *
 * A file made with --trajectory-length l (RMHMC) or --smmala-target-acceptance a (simplified
 * mMALA) holds another variant of those methods: their rows are named "rmhmc (eps L l)",
 * "smmala (target a)"; one made with --integrator lagrangian, "rmhmc (lagrangian, eps L l)".
 *
 *   node dist/experiments/logisticRegressionTable.js RESULT.json [RESULT.json ...]
 */
import { readResultFile } from "./experimentScript.js";
import { PAPER_TABLE, PAPER_TABLE_10, PAPER_TABLE_2, PAPER_TABLE_3, PAPER_TABLES_4_9, TABLE_2_THINNING } from "./logisticRegressionPaper.js";

interface Cell {
  data: string; sampler: string; run: number; thin?: number; stepSize?: number | null; leapfrogSteps?: number | null;
  seconds: number; cpuSeconds?: number; ess?: number[]; minEss: number; medianEss: number; maxEss: number;
  acceptanceRate: number; divergences: number; means: number[]; sds: number[];
}
interface Result { cells: Cell[]; burnIn: number; draws: number; command?: string }

const f = (x: number) => (!Number.isFinite(x) ? "-" : Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/**
 * s / min-ESS of a cell's runs as the paper computes it: the mean time over the mean min ESS
 * (Table 4's Metropolis row: 9.1 s / 15 = 0.61), not the mean of each run's ratio, which a run
 * with a small min ESS inflates (for component-wise MH and IWLS by 10-60%).
 */
const secondsPerMinEss = (cs: Cell[]) => mean(cs.map(time)) / mean(cs.map((c) => c.minEss));
const time = (c: Cell) => c.cpuSeconds ?? c.seconds;

// --speed: only the matrix of s / min-ESS (ours, and paper / ours) by method and data set, for BENCHMARKS.md
const speedOnly = process.argv.includes("--speed");
/** Methods with a smaller min ESS are compared, but not part of the reference of the others. */
const MIN_REFERENCE_ESS = 20;
const files = process.argv.slice(2).filter((a) => a !== "--speed");
// (samplers under their present names: readResultFile)
const results = files.map((file) => ({ file, ...readResultFile<Result>(file) }));
// a result file under table2/ holds Table 2's cells; cells with a fixed leapfrog count, Table 3's
// a cell run twice (same identity, seed and chain length, in two result files) counts once; the
// seed does not depend on the chain length, so runs of another length are other cells
const seen = new Set<string>();
const cells = results
  .flatMap((r) => r.cells.map((c) => ({ ...c, burnIn: r.burnIn, draws: r.draws, table2: r.file.includes("table2"), variant: variantOf(c.sampler, r.command) })))
  .filter((c) => {
    const key = JSON.stringify([c.data, c.sampler, c.variant, c.run, (c as { seed?: number }).seed, c.thin, c.stepSize, c.leapfrogSteps, c.table2, c.burnIn, c.draws]);
    return !seen.has(key) && !!seen.add(key);
  });

/** The variant of `sampler` that a file's command asks for ("" for the default). */
function variantOf(sampler: string, command: string | undefined): string {
  const words = (command ?? "").split(" ");
  const value = (option: string) => (words.includes(option) ? words[words.indexOf(option) + 1] : undefined);
  const length = value("--trajectory-length");
  const target = value("--smmala-target-acceptance");
  const integrator = sampler === "rmhmc" && value("--integrator") === "lagrangian" ? "lagrangian" : "";
  if (integrator) return length !== undefined ? `lagrangian, eps L ${length}` : integrator;
  if (length !== undefined && (sampler === "rmhmc" || sampler === "rmhmc-t")) return `eps L ${length}`;
  // HMC draws its count of steps from 1..round(l / eps)
  if (length !== undefined && (sampler === "hmc" || sampler === "hmc-diagonal")) return `eps L up to ${length}`;
  if (target !== undefined && sampler === "smmala") return `target ${target}`;
  return "";
}
// (a trajectory-length run records the count of steps it settled at, but is not a Table 3 cell)
const isTable3 = (c: Cell & { variant: string }) => c.leapfrogSteps !== undefined && c.leapfrogSteps !== null && c.variant === "";
const main = cells.filter((c) => !isTable3(c) && !c.table2);
const dataSets = Object.keys(PAPER_TABLE).filter((d) => cells.some((c) => c.data === d));
// a method run on a data set at two chain lengths is two rows, named with the length
const lengths = new Map<string, Set<string>>();
const named = (c: { sampler: string; variant: string }) => (c.variant ? `${c.sampler} (${c.variant})` : c.sampler);
for (const c of main) lengths.set(`${c.data} ${named(c)}`, (lengths.get(`${c.data} ${named(c)}`) ?? new Set()).add(`${c.burnIn}+${c.draws}`));
const method = (c: { data: string; sampler: string; variant: string; burnIn: number; draws: number }) =>
  lengths.get(`${c.data} ${named(c)}`)!.size > 1 ? `${named(c)} (${c.burnIn}+${c.draws})` : named(c);
const out: string[] = [];

if (speedOnly) {
  const methods = [...new Set(main.map(method))];
  out.push(`| method | ${dataSets.join(" | ")} |`, `|---|${dataSets.map(() => "---").join("|")}|`);
  for (const m of methods) {
    const row = dataSets.map((data) => {
      const cs = main.filter((c) => c.data === data && method(c) === m);
      if (!cs.length) return "-";
      const ours = secondsPerMinEss(cs);
      const p = PAPER_TABLES_4_9[data]?.[cs[0].sampler];
      return `${f(ours)} (${p ? `x${f(p[2] / ours)}` : "-"})`;
    });
    out.push(`| ${m} | ${row.join(" | ")} |`);
  }
  process.stdout.write(out.join("\n") + "\n");
  process.exit(0);
}

// Tables 4-9
out.push("### Tables 4-9", "");
for (const data of dataSets) {
  const rows = new Map<string, (typeof main)[number][]>();
  for (const c of main.filter((x) => x.data === data)) rows.set(method(c), [...(rows.get(method(c)) ?? []), c]);
  if (rows.size === 0) continue;
  const spm = secondsPerMinEss;
  const slowest = Math.max(...[...rows.values()].map(spm).filter(Number.isFinite));
  out.push(`#### ${data} (paper: ${PAPER_TABLE[data]})`, "");
  out.push("| method | burn-in + draws x runs | CPU time (s) | ESS (min, med, max) | s / min-ESS | rel. speed | accept | paper: time, min ESS of 5000, s / min-ESS | paper / ours (s / min-ESS) |");
  out.push("|---|---|---|---|---|---|---|---|---|");
  for (const [sampler, cs] of rows) {
    const p = PAPER_TABLES_4_9[data]?.[cs[0].sampler];
    const s = spm(cs);
    out.push(`| ${sampler} | ${cs[0].burnIn} + ${cs[0].draws} x ${cs.length} | ${f(mean(cs.map(time)))} | (${f(mean(cs.map((c) => c.minEss)))}, ${f(mean(cs.map((c) => c.medianEss)))}, ${f(mean(cs.map((c) => c.maxEss)))}) | ${f(s)} | ${Number.isFinite(s) ? `x${f(slowest / s)}` : "-"} | ${f(mean(cs.map((c) => c.acceptanceRate)))} | ${p ? `${p[0]}, ${p[1]}, ${p[2]}` : "-"} | ${p ? f(p[2] / s) : "-"} |`);
  }
  out.push("");
}

// Table 2
const t2 = cells.filter((c) => c.table2);
if (t2.length) {
  out.push("### Table 2: component-wise MH keeping every k-th draw (s / min-ESS; paper's in brackets)", "");
  out.push(`| data set | ${TABLE_2_THINNING.map((k) => `k = ${k}`).join(" | ")} |`, `|---|${TABLE_2_THINNING.map(() => "---").join("|")}|`);
  for (const data of Object.keys(PAPER_TABLE_2)) {
    const row = TABLE_2_THINNING.map((k, i) => {
      const cs = t2.filter((c) => c.data === data && (c.thin ?? 1) === k);
      return cs.length ? `${f(secondsPerMinEss(cs))} (${PAPER_TABLE_2[data][i]})` : `- (${PAPER_TABLE_2[data][i]})`;
    });
    out.push(`| ${data} | ${row.join(" | ")} |`);
  }
  out.push("");
}

// Table 3
const t3 = cells.filter(isTable3).sort((a, b) => a.leapfrogSteps! - b.leapfrogSteps!);
if (t3.length) {
  out.push("### Table 3: RM-HMC on German credit, fixed step size and leapfrog count", "");
  out.push("| eps L | eps | L | CPU time (s) | min ESS | s / min-ESS | accept | paper: time, min ESS of 5000, s / min-ESS |", "|---|---|---|---|---|---|---|---|");
  for (const c of t3) {
    const el = c.stepSize! * c.leapfrogSteps!;
    const p = PAPER_TABLE_3.find((r) => Math.abs(r[0] - el) < 1e-9);
    out.push(`| ${f(el)} | ${c.stepSize} | ${c.leapfrogSteps} | ${f(time(c))} | ${f(c.minEss)} | ${f(time(c) / c.minEss)} | ${f(c.acceptanceRate)} | ${p ? `${p[2]}, ${p[3]}, ${p[4]}` : "-"} |`);
  }
  out.push("");
}

// Table 10 and the agreement across methods
out.push("### Table 10 and the agreement of posterior means and sds across methods", "");
out.push("| data set | smallest marginal sd (paper) | largest (paper) | methods | worst mean z (method, coefficient) | worst sd z (method, coefficient) | means flagged (abs z > 4) | sds flagged (abs z > 4) |", "|---|---|---|---|---|---|---|---|");
for (const data of dataSets) {
  const cs = main.filter((c) => c.data === data && Number.isFinite(c.minEss));
  if (cs.length === 0) continue;
  const d = cs[0].means.length;
  // ESS capped at the number of draws (Geyer's estimate exceeds it for antithetic chains)
  const essOf = (c: (typeof cs)[number], k: number) => Math.min(c.draws, Math.max(1, c.ess?.[k] ?? c.minEss));
  const ref = cs.filter((c) => c.sampler === "rmhmc");
  const sds = Array.from({ length: d }, (_, k) => mean((ref.length ? ref : cs).map((c) => c.sds[k])));
  let worstMean = { z: 0, at: "" };
  let worstSd = { z: 0, at: "" };
  const flagged = new Set<string>();
  const flaggedSd = new Set<string>();
  for (const c of cs) {
    // the reference: the other methods whose min ESS is at least MIN_REFERENCE_ESS (a method that
    // has not mixed would drag a pooled reference away), pooled with ESS weights
    const others = cs.filter((o) => o !== c && o.minEss >= MIN_REFERENCE_ESS);
    if (others.length === 0) continue;
    for (let k = 0; k < d; k++) {
      const w = others.map((o) => essOf(o, k));
      const sw = w.reduce((a, b) => a + b, 0);
      const refMean = others.reduce((a, o, i) => a + w[i] * o.means[k], 0) / sw;
      const refSd = others.reduce((a, o, i) => a + w[i] * o.sds[k], 0) / sw;
      const seMean = Math.hypot(c.sds[k] / Math.sqrt(essOf(c, k)), refSd / Math.sqrt(sw));
      const seSd = Math.hypot(c.sds[k] / Math.sqrt(2 * essOf(c, k)), refSd / Math.sqrt(2 * sw));
      const zm = (c.means[k] - refMean) / seMean;
      const zs = (c.sds[k] - refSd) / seSd;
      if (Math.abs(zm) > Math.abs(worstMean.z)) worstMean = { z: zm, at: `${named(c)}, beta.${k + 1}` };
      if (Math.abs(zs) > Math.abs(worstSd.z)) worstSd = { z: zs, at: `${named(c)}, beta.${k + 1}` };
      if (Math.abs(zm) > 4) flagged.add(named(c));
      if (Math.abs(zs) > 4) flaggedSd.add(named(c));
    }
  }
  const p = PAPER_TABLE_10[data];
  out.push(`| ${data} | ${f(Math.min(...sds))} (${p[0]}) | ${f(Math.max(...sds))} (${p[1]}) | ${new Set(cs.map(named)).size} | ${f(worstMean.z)} (${worstMean.at}) | ${f(worstSd.z)} (${worstSd.at}) | ${[...flagged].join(", ") || "none"} | ${[...flaggedSd].join(", ") || "none"} |`);
}
out.push("");
process.stdout.write(out.join("\n"));
