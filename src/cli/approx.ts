/**
 * `gpmcmc laplace` and `gpmcmc ep`, the Gaussian approximations at fixed hyperparameters:
 * laplace.ts and ep.ts, sharing approxCommon.ts.
 */
import type { Command } from "commander";
import { registerEpCommand } from "./ep.js";
import { registerLaplaceCommand } from "./laplace.js";

/** Adds `laplace` and `ep` to the program. */
export function registerApproxCommands(program: Command): void {
  registerLaplaceCommand(program);
  registerEpCommand(program);
}
