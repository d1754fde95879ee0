/**
 * A data file with its input columns standardised (mean 0, sd 1; the response column as it is),
 * as the comparison paper's Table 6 data sets are used (src/grid/hyperProblems.ts does the same
 * in memory): for runs of `gpmcmc sample` on them from the shell.
 *
 *   node dist/experiments/standardiseCsv.js IN.csv OUT.csv
 */
import { writeFileSync } from "node:fs";
import { readDataset } from "../src/io/dataset.js";
import { standardiseColumns } from "../src/grid/hyperProblems.js";

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  process.stderr.write("usage: node dist/experiments/standardiseCsv.js IN.csv OUT.csv\n");
  process.exit(2);
}
const ds = readDataset(input);
const X = standardiseColumns(ds.X);
const lines = [[ds.responseName, ...ds.inputNames].join(",")];
for (let i = 0; i < ds.n; i++) lines.push([ds.y[i], ...Array.from({ length: ds.d }, (_, j) => X.data[i + j * ds.n])].join(","));
writeFileSync(output, lines.join("\n") + "\n");
