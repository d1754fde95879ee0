/**
 * The bad-input table, in one place: every way a user can get a command's input wrong that we
 * know of, with the one line it must print after "gpmcmc: " (exit code 2, nothing written).
 * `SAMPLE_ROWS` are `sample`'s inputs checked in process (badInput.test.ts); `COMMAND_ROWS` are
 * whole commands run with the built `gpmcmc` (badInputMore.test.ts).
 */
import { COMMAND_ROWS } from "./commandRows.js";
import { SAMPLE_ROWS } from "./sampleRows.js";

export { COMMAND_ROWS, SAMPLE_ROWS };
export type { CommandRow, SampleRow } from "./rowKit.js";

/** Every row's name, for the table's own checks (a name says which row failed, so each is unique). */
export function rowNames(): string[] {
  return [...SAMPLE_ROWS.map((r) => `sample inputs: ${r.name}`), ...COMMAND_ROWS.map((r) => `command: ${r.name}`)];
}
