// The GP probit classification problem the latent-sampler benchmarks time (inputs uniform in
// [0, 1]^2, SE kernel with lengthscale 0.3 and signal sd 1.5, y drawn from the model), the
// kernels' tunables, and the timer they share.
import { seKernel } from "../src/gp/index.js";
import { Cholesky } from "../src/linalg/cholesky.js";
import { Matrix } from "../src/linalg/matrix.js";
import { probit } from "../src/likelihoods/probit.js";
import { Rng } from "../src/random/rng.js";
import type { LatentSamplerName, LatentSamplerSpecInput } from "../src/samplers/registry.js";
import type { Kernel, SamplerState } from "../src/samplers/types.js";
import { annealedLatentTarget, type AnnealedLatentTarget } from "../src/targets/annealedLatent.js";

export function problem(n: number, seed = 1): AnnealedLatentTarget {
  const rng = new Rng(seed);
  const x = new Matrix(n, 2);
  for (let i = 0; i < 2 * n; i++) x.data[i] = rng.uniform();
  const K = seKernel({ lengthscale: 0.3, signalSd: 1.5 }).matrix(x);
  for (let i = 0; i < n; i++) K.data[i + i * n] += 1e-6 * 2.25;
  const target0 = annealedLatentTarget({ likelihood: probit, y: new Float64Array(n).fill(1), kernelMatrix: K });
  const f = new Cholesky(target0.kernelCholesky.factor).multiplyLower(Float64Array.from({ length: n }, () => rng.normal()));
  const y = probit.sample(f, rng, new Float64Array(n));
  return annealedLatentTarget({ likelihood: probit, y, kernelMatrix: K });
}

/** Seconds per unit of `count(info)` over `transitions` steps, fastest of `reps` runs. */
export function timePer<S extends SamplerState>(kernel: Kernel<S>, n: number, transitions: number, reps: number, count: (i: { leapfrogSteps: number }) => number): number {
  let best = Infinity;
  const rng = new Rng(7);
  let state = kernel.init(new Float64Array(n));
  for (let r = 0; r < reps; r++) {
    let units = 0;
    const t0 = performance.now();
    for (let t = 0; t < transitions; t++) {
      const out = kernel.step(state, rng);
      state = out.state;
      units += count(out.info);
    }
    best = Math.min(best, (performance.now() - t0) / 1000 / units);
  }
  return best;
}

/**
 * The kernels of the tables in BENCHMARKS.md: small tunables, and for hmc the identity mass with
 * up to 10 steps (the row "hmc (identity mass, up to 10 steps)"), so its figures stay comparable.
 */
export function benchSpec(name: LatentSamplerName): LatentSamplerSpecInput {
  switch (name) {
    case "hmc": return { sampler: name, stepSize: 0.02, mass: "identity", randomiseSteps: true };
    case "mh": return { sampler: name, proposalSd: 0.001 };
    case "mh-v1": case "mh-v2": return { sampler: name, alpha: 0.05 };
    case "ess": case "exact-hmc": return { sampler: name };
    case "mgrad": return { sampler: name, stepSize: 1 };
    case "smmala": return { sampler: name, stepSize: 0.3 };
    default: return { sampler: name, stepSize: 0.02 };
  }
}
