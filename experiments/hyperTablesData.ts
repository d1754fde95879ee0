/**
 * The problems of Tables 3-6 (comparison paper, Sections 4.1 and 5): simulated data sets of
 * src/run/simulate.ts for Tables 3-5, and the four UCI data sets of Table 6 with their features
 * standardised (src/grid/hyperProblems.ts, where the grid's hyperparameter chain jobs build them).
 */
import { csvProblem, type HyperProblem } from "../src/grid/hyperProblems.js";
import { TABLE6_DATA_SETS } from "./hyperTablesPaper.js";

export { simulatedProblem, standardiseColumns, type HyperProblem } from "../src/grid/hyperProblems.js";

/** The repository-relative CSV of a Table 6 data set. */
export function table6File(name: string): string {
  const entry = TABLE6_DATA_SETS.find((e) => e.name === name);
  if (!entry) throw new Error(`unknown data set ${JSON.stringify(name)} (known: ${TABLE6_DATA_SETS.map((e) => e.name).join(", ")})`);
  return entry.file;
}

/** A Table 6 data set (logistic likelihood, labels 0/1, features standardised). */
export function uciProblem(name: string): HyperProblem {
  return csvProblem(table6File(name));
}
