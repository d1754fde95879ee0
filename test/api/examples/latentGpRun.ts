import { writeFileSync } from "node:fs";
import { modelInfo, sample } from "gpmcmc";

// 30 probit labels (0/1 or -1/+1) at one input column x, as `gpmcmc sample --data` reads them.
const rows = Array.from({ length: 30 }, (_, i) => `${i / 5},${Math.sin(i / 5) > 0 ? 1 : 0}`);
writeFileSync("labels.csv", ["x,y", ...rows].join("\n") + "\n");

// The latent GP (gpmcmc sample without --model): read data -> build target -> a latent sampler by name.
const model = modelInfo["latent-gp"];
const data = model.readData("labels.csv", { likelihood: "probit" });      // the likelihood's labels, coded -1/+1
const target = model.buildTarget(data, { logLengthscale: [0], logSignalSd: Math.log(2), jitter: { relative: 1e-6 } });
const { kernel, init, adapt } = model.sampler(target, model.defaultSampler, { burnIn: 100 }); // f = 0, dual averaging
const result = sample(kernel, { draws: 100, burnIn: 100, thin: 1, chains: 2, seed: 1, init, adapt });

// result.samples[(c * draws + i) * dim + j]: f_j of draw i of chain c
let s = 0;
for (let k = 0; k < result.chains * result.draws; k++) s += result.samples[k * result.dim];
console.log(`${model.defaultSampler}: posterior mean of f.1 ${(s / (result.chains * result.draws)).toFixed(2)} (${data.n} cases, likelihood ${model.defaults.likelihood})`);
