/**
 * The bad-input table, in one place: every way a user can get a command's input wrong that we
 * know of, with the one line it must print after "gpmcmc: " (exit code 2, nothing written).
 * `SAMPLE_ROWS` are `sample`'s inputs checked in process (badInput.test.ts); `COMMAND_ROWS` are
 * whole commands run with the built `gpmcmc` (badInputMore.test.ts).
 */
import { APPROX_ROWS } from "./approxRows.js";
import { COMMAND_ROWS as SAMPLE_COMMAND_ROWS } from "./commandRows.js";
import { GRID_ROWS } from "./gridRows.js";
import type { CommandRow } from "./rowKit.js";
import { SAMPLE_ROWS } from "./sampleRows.js";
import { TOOL_ROWS } from "./toolRows.js";

/** Every command row: sample's and the listed cases' (commandRows.ts), predict, laplace, ep, ais, simulate, diagnose, report, grid and worker. */
export const COMMAND_ROWS: CommandRow[] = [...SAMPLE_COMMAND_ROWS, ...APPROX_ROWS, ...TOOL_ROWS, ...GRID_ROWS];
export { SAMPLE_ROWS };
export type { CommandRow, SampleRow } from "./rowKit.js";

/** Every row's name, for the table's own checks (a name says which row failed, so each is unique). */
export function rowNames(): string[] {
  return [...SAMPLE_ROWS.map((r) => `sample inputs: ${r.name}`), ...COMMAND_ROWS.map((r) => `command: ${r.name}`)];
}
