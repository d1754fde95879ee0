/** `gpmcmc report DIR`: the HTML report of a run directory (src/report). */
import { join } from "node:path";
import type { Command } from "commander";
import { writeFileAtomic } from "../io/atomic.js";
import { renderReport, UnknownVariableError, DEFAULT_MAX_VARIABLES } from "../report/html.js";
import { loadRun } from "../report/run.js";
import { checkOutputFile, isReportPage } from "./outputFile.js";
import { OptionError, parsePath, parsePositiveInteger } from "./options.js";

interface ReportCommandOptions {
  variables?: string;
  maxVariables?: string;
  out?: string;
  force?: boolean;
  json?: boolean;
}

/** Column names from a comma-separated --variables value. */
export function parseVariableList(option: string, raw: string): string[] {
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (names.length === 0) throw new OptionError(option, "needs one or more column names, e.g. lp__,f.1,f.2");
  return names;
}

/** Adds the `report` command to the program. */
export function registerReportCommand(program: Command): void {
  program
    .command("report")
    .description("write a self-contained HTML page with trace, rank, autocorrelation, density and energy plots, diagnostics, and log Z for AIS runs")
    .argument("<DIR>", "the run's output directory (draws_1.csv, draws_2.csv, ...; ais.json for an AIS run)")
    .option("--variables <LIST>", "comma-separated columns to show, e.g. lp__,f.1,f.7 (default: lp__, the first 3 variables and those with the highest R-hat)")
    .option("--max-variables <N>", `how many variables to show when they are chosen by default (default ${DEFAULT_MAX_VARIABLES})`)
    .option("--out <FILE>", "where to write the page (default DIR/report.html)")
    .option("--force", "replace an existing --out file that is not a page of gpmcmc report")
    .option("--json", "print one JSON object")
    .action((dir: string, opts: ReportCommandOptions) => {
      const variables = opts.variables !== undefined ? parseVariableList("--variables", opts.variables) : undefined;
      const maxVariables = opts.maxVariables !== undefined ? parsePositiveInteger("--max-variables", opts.maxVariables) : undefined;
      const out = opts.out !== undefined ? parsePath("--out", opts.out) : join(dir, "report.html");
      const run = loadRun(dir);
      // an existing file other than a report is not replaced without --force (a data file given as --out by mistake)
      checkOutputFile(out, opts.force === true, { is: isReportPage, what: "a page of gpmcmc report", example: "report.html" });
      let html: string;
      try {
        html = renderReport(run, { variables, maxVariables });
      } catch (e) {
        if (e instanceof UnknownVariableError) throw new OptionError("--variables", e.message);
        throw e;
      }
      writeFileAtomic(out, html);
      if (opts.json) {
        process.stdout.write(JSON.stringify({ out, chains: run.chains.length, ais: run.ais !== undefined, bytes: Buffer.byteLength(html) }) + "\n");
      } else {
        process.stdout.write(`wrote ${out}\n`);
      }
    });
}
