import { test } from "node:test";
import { probit } from "../../src/likelihoods/index.js";
import { Rng } from "../../src/random/index.js";
import { assertContract } from "./contract.js";

test("probit meets the likelihood contract: FD derivatives to |f| = 40, exact and Monte Carlo Fisher, sampler", () => {
  const fs = [-40, -20, -8, -2.5, -1, 0, 0.3, 1.7, 6, 20, 40];
  assertContract({
    likelihood: probit,
    derivativePoints: fs.flatMap((f) => [[-1, f], [1, f]] as Array<[number, number]>),
    latent: [-2.5, -0.8, 0, 0.4, 1.9],
    support: () => ({ y: Float64Array.of(-1, 1), weight: Float64Array.of(1, 1) }),
    seed: 17,
    makeRng: (seed, stream) => new Rng(seed, stream),
  });
});
