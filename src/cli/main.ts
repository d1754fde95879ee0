#!/usr/bin/env node
/** The `gpmcmc` command. */
import { Command } from "commander";
import { getBackend, nativeUnavailableReason } from "../linalg/backend.js";
import { VERSION } from "../version.js";
import { registerAisCommand } from "./ais.js";
import { registerApproxCommands } from "./approx.js";
import { configureErrorOutput, runAndExit } from "./errors.js";
import { registerDiagnoseCommand } from "./diagnose.js";
import { registerGridCommands } from "./grid.js";
import { registerPredictCommand } from "./predict.js";
import { registerReportCommand } from "./report.js";
import { registerSampleCommand } from "./sample.js";
import { registerSimulateCommand } from "./simulate.js";

export function buildProgram(): Command {
  // Usage errors are one line and exit code 2 (see errors.ts); set before adding commands.
  const program = configureErrorOutput(new Command());
  program
    .name("gpmcmc")
    .description("Fully Bayesian inference in latent Gaussian process models by MCMC")
    .version(VERSION, "-V, --version", "print the version");

  program
    .command("info")
    .description("print the version and the linear-algebra backend in use")
    .option("--json", "print one JSON object")
    .action((opts: { json?: boolean }) => {
      const d = getBackend().describe();
      // On js, say why: chosen by GPMCMC_BACKEND, or the addon did not load (and why not).
      const nativeUnavailable = d.backend === "native" ? undefined
        : process.env.GPMCMC_BACKEND === "js" ? "not selected (GPMCMC_BACKEND=js)" : nativeUnavailableReason();
      const info = { version: VERSION, node: process.version, ...d, ...(nativeUnavailable ? { nativeUnavailable } : {}) };
      if (opts.json) {
        process.stdout.write(JSON.stringify(info) + "\n");
        return;
      }
      const lines = [
        `gpmcmc ${VERSION} (node ${process.version})`,
        `linear algebra: ${d.backend} (${d.library})`,
      ];
      if (d.core !== undefined) lines.push(`OpenBLAS core: ${d.core}`);
      lines.push(`threads: ${d.threads}${d.cores !== undefined ? ` of ${d.cores} cores` : ""}`);
      if (d.config !== undefined) lines.push(`OpenBLAS config: ${d.config}`);
      if (nativeUnavailable !== undefined) lines.push(`native backend: ${nativeUnavailable}`);
      process.stdout.write(lines.join("\n") + "\n");
    });
  registerSampleCommand(program);
  registerDiagnoseCommand(program);
  registerReportCommand(program);
  registerApproxCommands(program);
  registerSimulateCommand(program);
  registerAisCommand(program);
  registerPredictCommand(program);
  registerGridCommands(program);
  return program;
}

void runAndExit(buildProgram());
