/** Tables 3-6 in the paper's layout, ours beside the paper's (experiments/hyperTables.ts). */
import { PAPER_CHECKPOINTS, RHAT_CODE_BOUNDS } from "../src/diagnostics/convergence.js";
import { CODE_GLYPHS } from "./table2.js";
import { LIKELIHOOD_LABELS, METHOD_LABELS, PAPER_TABLE1, PAPER_TABLE5, TABLE6_DATA_SETS, paperHyperEss, paperHyperOrdering } from "./hyperTablesPaper.js";
import type { HyperCell, HyperTablesResult } from "./hyperTablesTypes.js";

const TITLES: { readonly [t: number]: string } = {
  3: "Table 3 (theta | f: f and sigma at their true values, the lengthscales sampled)",
  4: "Table 4 (theta | y, nu: nu at its true value, all of theta sampled)",
  5: "Table 5 ((f, theta) | y by the five schemes, LRG data; f by HMC v2, theta by MH, SURR by slice sampling)",
  6: "Table 6 ((f, theta) | y by the five schemes on UCI data, LRG model, features standardised)",
};

function essText(mean: number, sd: number): string {
  const f = (x: number) => (Number.isFinite(x) ? String(Math.round(x)) : "n/a");
  return `${f(mean)} (${f(sd)})`;
}

function blockLabel(table: number, group: string): string {
  if (table === 3) return "theta | f (the same for every likelihood: f is shared, y does not enter)";
  if (table === 6) {
    const e = TABLE6_DATA_SETS.find((x) => x.name === group);
    return e ? `${e.label} (paper: n = ${e.n}, d = ${e.d})` : group;
  }
  return `${LIKELIHOOD_LABELS[group] ?? group} (${group})`;
}

/** Operations per iteration as "chol C, inv I, mult M" (an inversion is two triangular solves with n x n right-hand sides). */
export function opsText(c: HyperCell): string {
  const f = (x: number) => (Math.abs(x - Math.round(x)) < 0.005 ? String(Math.round(x)) : x.toFixed(2));
  return `C ${f(c.ops.cholesky)}, I ${f(c.ops.solves / 2)}, M ${f(c.ops.products)}`;
}

function paperCost(table: number, method: string): string {
  if (table === 5 || table === 6) return PAPER_TABLE5.complexity[method] ?? "";
  return PAPER_TABLE1[table]?.[method] ?? "";
}

/** The table of one run (one table of the paper), ours beside the paper's. */
export function formatHyperTable(r: HyperTablesResult): string {
  const cfg = r.config;
  const scale = PAPER_CHECKPOINTS[PAPER_CHECKPOINTS.length - 1]! / cfg.draws;
  const lines: string[] = [];
  lines.push(`${TITLES[cfg.table]}`);
  lines.push(`ours: ${cfg.dataSets} data set(s) x ${cfg.chains} chains, ${cfg.draws} draws after ${cfg.burnIn} burn-in${cfg.table >= 5 ? `, ${cfg.latentUpdates} update(s) of f per iteration` : ""}, seed ${cfg.seed}; backend ${r.backend}; ${r.seconds.toFixed(1)} s`);
  lines.push(`min ESS over theta's sampled components: mean (sd) over chains x data sets; R-hat codes at checkpoints ${cfg.checkpoints.join(", ")} (the paper's 1000..20000 scaled by ${cfg.draws}/20000): median over data sets of max R-hat, ${CODE_GLYPHS[0]} < ${RHAT_CODE_BOUNDS[0]} <= ${CODE_GLYPHS[1]} < ${RHAT_CODE_BOUNDS[1]} <= ${CODE_GLYPHS[2]} < ${RHAT_CODE_BOUNDS[2]} <= ${CODE_GLYPHS[3]}`);
  if (scale !== 1) lines.push(`"x${+scale.toFixed(3)}": our ESS times 20000 / ${cfg.draws}, what ${cfg.draws} stationary draws would extrapolate to at the paper's length`);
  lines.push(`per iteration after burn-in: acceptance of the theta update, ms, O(n^3) operations (C Cholesky, I inversions = 2 triangular solves with n x n right-hand sides, M n x n products)`);
  lines.push(`paper: ${cfg.table === 6 ? "10 chains" : "10 data sets x 10 chains"}, 20000 draws after 5000 burn-in (its R-hat boxes did not survive the text extraction)`);
  const groups = cfg.groups;
  for (const group of groups) {
    const blocks = [...new Map(r.cells.filter((c) => c.group === group).map((c) => [`${c.n},${c.d}`, { n: c.n, d: c.d }])).values()];
    lines.push("", blockLabel(cfg.table, group));
    for (const { n, d } of blocks) {
      lines.push(`  n = ${n}, d = ${d}`);
      lines.push(`  ${"method".padEnd(7)} ${"ours ESS".padEnd(24)} ${"R-hat".padEnd(cfg.checkpoints.length + 1)} ${"paper ESS".padEnd(13)} ${"acc".padEnd(5)} ${"ms/it".padEnd(7)} ${"ours per it".padEnd(26)} paper per it`);
      for (const method of cfg.methods) {
        const c = r.cells.find((x) => x.group === group && x.method === method && x.n === n && x.d === d);
        if (!c) continue;
        const ours = essText(c.essMean, c.essSd) + (scale !== 1 ? ` x${+scale.toFixed(3)}: ${Math.round(c.essMean * scale)}` : "");
        const p = paperHyperEss(cfg.table, group, method, n, d);
        lines.push(`  ${(METHOD_LABELS[method] ?? method).padEnd(7)} ${ours.padEnd(24)} ${c.codes.map((k) => CODE_GLYPHS[k]).join("").padEnd(cfg.checkpoints.length + 1)} ${(p ? essText(p[0], p[1]) : "-").padEnd(13)} ${c.acceptanceRate.toFixed(2).padEnd(5)} ${c.msPerIteration.toFixed(1).padEnd(7)} ${opsText(c).padEnd(26)} ${paperCost(cfg.table, method)}`);
      }
      const o = r.orderings.find((x) => x.group === group && x.n === n && x.d === d);
      const paper = paperHyperOrdering(cfg.table, group, n, d);
      lines.push(`  ordering: ours ${o?.text ?? "n/a"}${paper ? `; paper, as extracted: ${paper}` : ""}`);
    }
  }
  lines.push("", `rows of the ordering: ${cfg.methods.map((s, i) => `${i + 1} ${METHOD_LABELS[s] ?? s}`).join(", ")}; by R-hat at the last checkpoint, best first, "|" significantly faster convergence than the next (Mann-Whitney, 0.05), "," not`);
  return lines.join("\n") + "\n";
}
