/**
 * The report's text sections: the run's configuration (from the draws files' comments and
 * summary.json) and the diagnostics table of the chosen variables.
 */
import { summarize, type VariableSummary } from "../diagnostics/index.js";
import { esc, fmt, fmtEss, fmtRhat, keyValueTable } from "./pageParts.js";
import type { RunData } from "./run.js";
import { chainsOf, worse, type VariableChoice } from "./variableChoice.js";

export function runSection(run: RunData): string {
  const out: string[] = [];
  if (run.chains.length > 0) {
    const config = run.chains[0].config;
    const keys = Object.keys(config);
    out.push(`<p>Configuration from the comments of <code>${esc(run.chains[0].path)}</code>:</p>`);
    out.push(keyValueTable(keys.map((k) => [k, config[k]])));
  }
  if (run.summary !== undefined) {
    out.push(`<p>From <code>summary.json</code>:</p>`);
    out.push(keyValueTable(flatten(run.summary).slice(0, 200)));
  }
  if (out.length === 0) out.push("<p>No configuration recorded.</p>");
  return out.join("\n");
}

/** Nested JSON as dotted keys and printable values; long arrays are summarised. */
function flatten(value: unknown, prefix = ""): [string, string][] {
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null)) {
      const text = value.length > 8 ? `[${value.slice(0, 8).map(String).join(", ")}, ... (${value.length} values)]` : `[${value.map(String).join(", ")}]`;
      return [[prefix, text]];
    }
    return value.slice(0, 20).flatMap((v, i) => flatten(v, `${prefix}[${i}]`));
  }
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => flatten(v, prefix === "" ? k : `${prefix}.${k}`));
  }
  return [[prefix, typeof value === "number" ? fmt(value) : String(value)]];
}

export function diagnosticsSection(run: RunData, choice: VariableChoice, n: number): string {
  const chains = run.chains.length;
  const lowEss = 100 * chains;
  const out: string[] = [];
  const finiteRhat = [...choice.rhatAll.entries()];
  if (finiteRhat.length > 0) {
    const [worstName, worstValue] = finiteRhat.sort((a, b) => worse(a[1], b[1]))[0];
    const over = finiteRhat.filter(([, r]) => !(r <= 1.01)).length;
    out.push(
      `<p>Over all ${finiteRhat.length} model variables: highest R-hat ${fmtRhat(worstValue)} (<code>${esc(worstName)}</code>); ` +
        `${over} with R-hat above 1.01 or undefined.</p>`,
    );
  }
  if (n < 4) {
    out.push(`<p class="warn">Too few draws for diagnostics: ${n} per chain, at least 4 are needed.</p>`);
  }
  if (run.chains.some((c) => c.draws !== n)) {
    out.push(`<p class="warn">The chains have different numbers of draws; the diagnostics use the first ${n} of each.</p>`);
  }
  const rows = choice.variables.map((v, i) => {
    const s: VariableSummary | undefined = n >= 4 ? summarize(chainsOf(run, v, n)) : undefined;
    const cell = (x: number | undefined, f: (x: number) => string, bad = false) => `<td class="num${bad ? " warn" : ""}">${x === undefined ? "—" : f(x)}</td>`;
    const essBad = (x: number | undefined) => x !== undefined && !(x >= lowEss);
    const rhatBad = s !== undefined && !(s.rhat <= 1.01);
    return (
      `<tr><th><code>${esc(v)}</code></th><td class="why">${esc(choice.reasons[i])}</td>` +
      cell(s?.mean, fmt) +
      cell(s?.sd, fmt) +
      cell(s?.mcseMean, fmt) +
      cell(s?.q5, fmt) +
      cell(s?.q50, fmt) +
      cell(s?.q95, fmt) +
      cell(s?.essBulk, fmtEss, essBad(s?.essBulk)) +
      cell(s?.essTail, fmtEss, essBad(s?.essTail)) +
      cell(s?.rhat, fmtRhat, rhatBad) +
      cell(s?.essGeyer, fmtEss) +
      `</tr>`
    );
  });
  out.push(
    `<div class="scroll"><table class="diag"><thead><tr><th>variable</th><th>shown as</th><th>mean</th><th>sd</th><th>MCSE</th><th>5%</th><th>50%</th><th>95%</th>` +
      `<th>ESS bulk</th><th>ESS tail</th><th>R-hat</th><th>ESS (Geyer)</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`,
  );
  out.push(
    `<p class="note">R-hat: rank-normalised split R-hat, the larger of bulk and folded (Vehtari et al. 2021); flagged above 1.01. ` +
      `ESS bulk and tail as in Stan, flagged below ${lowEss} (100 per chain); ESS (Geyer): initial monotone sequence over all chains, as the papers report it. ` +
      `MCSE: Monte Carlo standard error of the mean.</p>`,
  );
  return out.join("\n");
}
