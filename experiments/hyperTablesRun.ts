/**
 * The chains of Tables 3-6 of the comparison paper and their statistics (the protocol is in
 * experiments/hyperTables.ts).
 *
 * - Table 3, theta | f (Section 4.2.2): f at its true value, sigma at its true value, the
 *   lengthscales psi sampled by MH, HMC or SMMALA ("sampling only the length-scale parameters,
 *   as sigma can be efficiently sampled using exact Gibbs steps").
 * - Table 4, theta | y, nu (Section 4.2.3): nu = L(theta_true)^-1 f_true fixed, all of theta
 *   sampled (f = L(theta) nu moves with it).
 * - Tables 5, 6 (Sections 4.3, 5): (f, theta) by the five schemes, f by HMC v2 (at most 10
 *   leapfrog steps), theta by MH (SURR: slice sampling), both adapted in burn-in.
 *
 * Starting points (Section 4.1): psi_r ~ U[-3, -1] on simulated data (the paper's remedy for
 * the diffuse lengthscale prior), log sigma from its prior; on the UCI data (Section 5) all of
 * theta from the prior; f (Tables 5, 6) from N(0, K(theta_0)). A chain's start comes from its
 * identity without the method, so every method starts chain c of a data set at the same point.
 */
import { rhatAtCheckpoints, rhatCode, medianOf } from "../src/diagnostics/convergence.js";
import { drawsArray } from "../src/diagnostics/draws.js";
import { orderMethods } from "../src/diagnostics/mannWhitney.js";
import { meanAndSd } from "../src/diagnostics/mcse.js";
import { minEssByChain } from "../src/diagnostics/summary.js";
import { kernelAt } from "../src/hyper/covariance.js";
import { cachedKernel, jointChain, type SchemeName } from "../src/hyper/schemes.js";
import { thetaGivenF } from "../src/hyper/thetaGivenF.js";
import { thetaGivenNu } from "../src/hyper/thetaGivenNu.js";
import { thetaStep, thetaTunable, type ThetaSamplerName } from "../src/hyper/thetaSamplers.js";
import { thetaTarget } from "../src/hyper/thetaTargets.js";
import { snapshotOpCounts, type OpCounts } from "../src/linalg/counters.js";
import { getBackend } from "../src/linalg/backend.js";
import { likelihoodByName } from "../src/likelihoods/registry.js";
import { Rng } from "../src/random/rng.js";
import type { SimulationLikelihood } from "../src/run/simulate.js";
import { SIMULATION_LOG_LENGTHSCALE_RANGE } from "../src/run/simulate.js";
import { simulatedProblem, uciProblem, type HyperProblem } from "./hyperTablesData.js";
import { seedOfIdentity } from "./table2.js";
import type { CellOps, HyperCell, HyperTablesConfig, HyperTablesResult } from "./hyperTablesTypes.js";

/** What one chain gives: theta's sampled components after burn-in, and its costs. */
export interface ChainOutput {
  /** draws x m, row-major (draw after draw). */
  samples: Float64Array;
  m: number;
  accepted: number;
  steps: number;
  ops: OpCounts;
  samplingMs: number;
}

/** The seed of chain `chain` of `method` on data set `dataSet` of a block: a hash of its identity (never of its place in the grid). */
export function hyperChainSeed(cfg: HyperTablesConfig, group: string, n: number, d: number, dataSet: number, method: string, chain: number): bigint {
  return seedOfIdentity(`hyperTables table=${cfg.table} seed=${cfg.seed} group=${group} n=${n} d=${d} data-set=${dataSet} method=${method} chain=${chain}`);
}

/** The seed of chain `chain`'s starting point (the same for every method). */
export function hyperInitSeed(cfg: HyperTablesConfig, group: string, n: number, d: number, dataSet: number, chain: number): bigint {
  return seedOfIdentity(`hyperTables init table=${cfg.table} seed=${cfg.seed} group=${group} n=${n} d=${d} data-set=${dataSet} chain=${chain}`);
}

/** The problems (data sets) of a block and setting. */
export function problemsOf(cfg: HyperTablesConfig, group: string, n: number, d: number): HyperProblem[] {
  if (cfg.table === 6) return [uciProblem(group)];
  const likelihood = (cfg.table === 3 ? "logistic" : group) as SimulationLikelihood;
  return Array.from({ length: cfg.dataSets }, (_, s) => simulatedProblem(cfg.seed, likelihood, n, d, s));
}

/** theta_0 of a chain (see the module comment). */
export function initialTheta(cfg: HyperTablesConfig, p: HyperProblem, rng: Rng): Float64Array {
  const [lo, hi] = SIMULATION_LOG_LENGTHSCALE_RANGE;
  const t = new Float64Array(p.d + 1);
  for (let r = 0; r < p.d; r++) t[r] = cfg.table === 6 ? Math.log(p.space.lengthscalePriors[r]!.sample(rng)) : lo + (hi - lo) * rng.uniform();
  t[p.d] = cfg.table === 3 ? p.tTrue![p.d]! : Math.log(p.space.variancePrior.sample(rng));
  return t;
}

function diff(a: OpCounts, b: OpCounts): OpCounts {
  return { cholesky: a.cholesky - b.cholesky, triangularSolveMatrix: a.triangularSolveMatrix - b.triangularSolveMatrix, symmetricProduct: a.symmetricProduct - b.symmetricProduct, matrixProduct: a.matrixProduct - b.matrixProduct, flops: a.flops - b.flops };
}

/** Tables 3, 4: a chain of theta sampler `name` on theta | f or theta | y, nu. */
export function thetaOnlyChain(cfg: HyperTablesConfig, p: HyperProblem, name: ThetaSamplerName, t0: Float64Array, rng: Rng): ChainOutput {
  const kernel = cachedKernel(p.space);
  const tTrue = p.tTrue!;
  let target;
  let x: Float64Array;
  if (cfg.table === 3) {
    const free = Array.from({ length: p.d }, (_, r) => r);
    target = thetaTarget(thetaGivenF(p.space, p.fTrue!, kernel), tTrue, free);
    x = t0.slice(0, p.d);
  } else {
    const nu = kernelAt(p.space, tTrue).chol.solveLowerInPlace(p.fTrue!.slice());
    const lik = likelihoodByName(p.likelihood, p.likelihoodOptions);
    const zero = new Float64Array(p.n);
    // SMMALA's metric as in the AA scheme (src/hyper/schemes.ts): the Fisher information of f | theta.
    const density = { ...thetaGivenNu(p.space, lik, p.y, nu, kernel), metric: (t: ArrayLike<number>) => thetaGivenF(p.space, zero, kernel).metric(t) };
    target = thetaTarget(density, tTrue);
    x = t0.slice();
  }
  const tuned = thetaTunable(name);
  const m = x.length;
  const out: ChainOutput = { samples: new Float64Array(cfg.draws * m), m, accepted: 0, steps: 0, ops: snapshotOpCounts(), samplingMs: 0 };
  let start = 0;
  for (let it = 0; it < cfg.burnIn + cfg.draws; it++) {
    if (it === cfg.burnIn) {
      tuned.freeze();
      out.ops = snapshotOpCounts();
      start = performance.now();
    }
    const r = thetaStep(name, target, x, tuned, rng);
    x = r.x;
    if (it >= cfg.burnIn) {
      out.samples.set(x, (it - cfg.burnIn) * m);
      if (r.info.accepted) out.accepted++;
      out.steps += r.info.leapfrogSteps;
    }
  }
  out.samplingMs = performance.now() - start;
  out.ops = diff(snapshotOpCounts(), out.ops);
  return out;
}

/** Tables 5, 6: a chain of `scheme` on (f, theta) | y. */
export function schemeChain(cfg: HyperTablesConfig, p: HyperProblem, scheme: SchemeName, t0: Float64Array, f0: Float64Array, rng: Rng): ChainOutput {
  const likelihood = likelihoodByName(p.likelihood, p.likelihoodOptions);
  const chain = jointChain({ space: p.space, likelihood, y: p.y }, { scheme, thetaSampler: scheme === "surr" ? undefined : "mh", latentUpdates: cfg.latentUpdates }, t0, f0);
  const m = p.d + 1;
  const out: ChainOutput = { samples: new Float64Array(cfg.draws * m), m, accepted: 0, steps: 0, ops: snapshotOpCounts(), samplingMs: 0 };
  let start = 0;
  for (let it = 0; it < cfg.burnIn + cfg.draws; it++) {
    if (it === cfg.burnIn) {
      chain.freeze();
      out.ops = snapshotOpCounts();
      start = performance.now();
    }
    const info = chain.step(rng);
    if (it >= cfg.burnIn) {
      out.samples.set(chain.t, (it - cfg.burnIn) * m);
      const last = info.theta[info.theta.length - 1]!;
      // SURR always moves; what its width is adapted to is the first slice point being accepted.
      if (scheme === "surr" ? last.densityEvaluations === 1 : last.accepted) out.accepted++;
      out.steps += scheme === "surr" ? last.densityEvaluations ?? 0 : 0;
    }
  }
  out.samplingMs = performance.now() - start;
  out.ops = diff(snapshotOpCounts(), out.ops);
  return out;
}

/** Chain c of `method` on problem p (data set s of the block). */
export function runOneChain(cfg: HyperTablesConfig, group: string, p: HyperProblem, s: number, method: string, c: number): ChainOutput {
  const initRng = new Rng(hyperInitSeed(cfg, group, p.n, p.d, s, c));
  const t0 = initialTheta(cfg, p, initRng);
  const rng = new Rng(hyperChainSeed(cfg, group, p.n, p.d, s, method, c));
  if (cfg.table === 3 || cfg.table === 4) return thetaOnlyChain(cfg, p, method as ThetaSamplerName, t0, rng);
  const z = Float64Array.from({ length: p.n }, () => initRng.normal());
  const f0 = kernelAt(p.space, t0).chol.multiplyLower(z);
  return schemeChain(cfg, p, method as SchemeName, t0, f0, rng);
}

/** The statistics of a cell from its chains (chains[s][c] of data set s). */
export function cellStatistics(cfg: HyperTablesConfig, group: string, method: string, n: number, d: number, chains: ChainOutput[][], seconds: number): HyperCell {
  const minEss: number[] = [];
  const rhat: number[][] = [];
  const lastRhats: number[] = [];
  let accepted = 0;
  let steps = 0;
  let ms = 0;
  const ops: CellOps = { cholesky: 0, solves: 0, products: 0 };
  for (const perData of chains) {
    const m = perData[0]!.m;
    const all = new Float64Array(cfg.chains * cfg.draws * m);
    perData.forEach((ch, c) => {
      all.set(ch.samples, c * cfg.draws * m);
      accepted += ch.accepted;
      steps += ch.steps;
      ms += ch.samplingMs;
      ops.cholesky += ch.ops.cholesky;
      ops.solves += ch.ops.triangularSolveMatrix;
      ops.products += ch.ops.matrixProduct + ch.ops.symmetricProduct;
    });
    const draws = drawsArray(all, cfg.chains, cfg.draws, m);
    minEss.push(...minEssByChain(draws));
    const at = rhatAtCheckpoints(draws, cfg.checkpoints);
    rhat.push(at.map((r) => r.reduce((mx, x) => (Number.isNaN(x) ? Infinity : Math.max(mx, x)), -Infinity)));
    lastRhats.push(...at[at.length - 1]!);
  }
  const iterations = chains.length * cfg.chains * cfg.draws;
  // A chain that never moved has no finite ESS (zero variance); it counts as ESS 0.
  const { mean, sd } = meanAndSd([Float64Array.from(minEss, (x) => (Number.isFinite(x) ? x : 0))]);
  const medianRhat = cfg.checkpoints.map((_, k) => medianOf(rhat.map((r) => r[k]!)));
  return {
    group, method, n, d, minEss, essMean: mean, essSd: sd, rhat, medianRhat, codes: medianRhat.map(rhatCode), lastRhats,
    acceptanceRate: accepted / iterations,
    ops: { cholesky: ops.cholesky / iterations, solves: ops.solves / iterations, products: ops.products / iterations },
    stepsPerUpdate: steps / iterations,
    msPerIteration: ms / iterations,
    seconds,
  };
}

/** The (n, d) blocks of the run: the settings (Tables 3-5) or each data set's own (Table 6). */
function blocksOf(cfg: HyperTablesConfig): { group: string; problems: () => HyperProblem[]; n: number; d: number }[] {
  if (cfg.table === 6) {
    return cfg.groups.map((group) => {
      const p = uciProblem(group);
      return { group, n: p.n, d: p.d, problems: () => [p] };
    });
  }
  return cfg.groups.flatMap((group) => cfg.settings.map(({ n, d }) => ({ group, n, d, problems: () => problemsOf(cfg, group, n, d) })));
}

/** Runs the experiment; `onCell` hears about each finished cell (progress). */
export function runHyperTables(cfg: HyperTablesConfig, onCell?: (cell: HyperCell) => void): HyperTablesResult {
  const t0 = performance.now();
  const cells: HyperCell[] = [];
  for (const block of blocksOf(cfg)) {
    const problems = block.problems();
    for (const method of cfg.methods) {
      const c0 = performance.now();
      const chains = problems.map((p, s) => Array.from({ length: cfg.chains }, (_, c) => runOneChain(cfg, block.group, p, s, method, c)));
      const cell = cellStatistics(cfg, block.group, method, block.n, block.d, chains, (performance.now() - c0) / 1000);
      cells.push(cell);
      onCell?.(cell);
    }
  }
  const b = getBackend().describe();
  return { config: cfg, backend: `${b.backend} (${b.library})`, cells, orderings: orderingsOf(cfg.methods, cells), seconds: (performance.now() - t0) / 1000 };
}

/**
 * The ordering row of each block (group, n, d): its methods by R-hat at the last checkpoint,
 * labelled by their rows 1.. in `methods`; "n/a" for a block with one method.
 */
export function orderingsOf(methods: readonly string[], cells: readonly HyperCell[]): HyperTablesResult["orderings"] {
  const out: HyperTablesResult["orderings"] = [];
  for (const c of cells) {
    if (out.some((o) => o.group === c.group && o.n === c.n && o.d === c.d)) continue;
    const row = methods.flatMap((m, i) => cells.filter((x) => x.group === c.group && x.n === c.n && x.d === c.d && x.method === m).map((x) => ({ x, label: String(i + 1) })));
    const text = row.length < 2 ? "n/a" : orderMethods(row.map(({ x }) => x.lastRhats.map((v) => (Number.isNaN(v) ? Infinity : v))), { better: "smaller", labels: row.map((r) => r.label) }).text;
    out.push({ group: c.group, n: c.n, d: c.d, text });
  }
  return out;
}
