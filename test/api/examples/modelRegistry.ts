import { writeFileSync } from "node:fs";
import { modelInfo, sample } from "gpmcmc";

// A small data set: an input column x and labels y (0/1 or -1/+1), as `gpmcmc sample --data` reads it.
const rows = Array.from({ length: 60 }, (_, i) => {
  const x = (i - 30) / 10;
  return `${x},${Math.sin(7 * i) < x ? 1 : 0}`;
});
writeFileSync("labels.csv", ["x,y", ...rows].join("\n") + "\n");

// --model logistic-regression as the command builds it: read data -> build target -> a sampler by name.
const model = modelInfo["logistic-regression"];
const data = model.readData("labels.csv");                        // a bad file: a DataError naming file, line, column
const target = model.buildTarget(data, { polynomialDegree: 2 });  // the options not given: model.defaults
for (const w of target.warnings) console.warn(w);
const { kernel, init, adapt } = model.sampler(target, "rmhmc", { burnIn: 200 }); // one of model.samplers
const result = sample(kernel, { draws: 200, burnIn: 200, thin: 1, chains: 2, seed: 1, init, adapt });

// result.samples[(c * draws + i) * dim + j]: coefficient j (target.design.terms[j]) of draw i of chain c
const means = target.design.terms.map((term, j) => {
  let s = 0;
  for (let k = 0; k < result.chains * result.draws; k++) s += result.samples[k * result.dim + j];
  return `${term} ${(s / (result.chains * result.draws)).toFixed(2)}`;
});
console.log(`prior variance ${model.defaults.priorVariance}; posterior means: ${means.join(", ")}`);
