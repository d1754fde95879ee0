/**
 * The chains of Tables 3-6 of the comparison paper and their statistics (the protocol is in
 * experiments/hyperTables.ts; the chains themselves, and where they start, in
 * src/grid/hyperChains.ts).
 *
 * runHyperTables runs the chains as the jobs of a grid (src/grid, job kind "hyper-chain"; one
 * spec per block, hyperGridSpec): on a pool of worker threads here, or on a BullMQ queue run by
 * `gpmcmc worker` processes. runHyperTablesDirect runs the same chains one after another in this
 * thread. A cell's figures are computed from its chains' draws and tallies afterwards, so both
 * give the same numbers bit for bit.
 */
import { join } from "node:path";
import { rhatAtCheckpoints, rhatCode, medianOf } from "../src/diagnostics/convergence.js";
import { drawsArray } from "../src/diagnostics/draws.js";
import { orderMethods } from "../src/diagnostics/mannWhitney.js";
import { meanAndSd } from "../src/diagnostics/mcse.js";
import { minEssByChain } from "../src/diagnostics/summary.js";
import { runOneChain, type ChainOutput } from "../src/grid/hyperChains.js";
import { HYPER_CHAIN, type HyperChainJobResult } from "../src/grid/hyperChainJob.js";
import { runGridJobs, withGridRoot, type GridPlace } from "../src/grid/runGrid.js";
import { readJobDraws } from "../src/grid/simulatedChainJob.js";
import { gridJobs, type GridSpec, type LoadedGrid } from "../src/grid/spec.js";
import { readJobResults } from "../src/grid/store.js";
import { getBackend } from "../src/linalg/backend.js";
import type { SimulationLikelihood } from "../src/run/simulate.js";
import { simulatedProblem, table6File, uciProblem, type HyperProblem } from "./hyperTablesData.js";
import type { CellOps, HyperCell, HyperTablesConfig, HyperTablesResult } from "./hyperTablesTypes.js";

export { hyperChainSeed, hyperInitSeed, initialTheta, runOneChain, schemeChain, thetaOnlyChain, type ChainOutput } from "../src/grid/hyperChains.js";

/** The problems (data sets) of a block and setting. */
export function problemsOf(cfg: HyperTablesConfig, group: string, n: number, d: number): HyperProblem[] {
  if (cfg.table === 6) return [uciProblem(group)];
  const likelihood = (cfg.table === 3 ? "logistic" : group) as SimulationLikelihood;
  return Array.from({ length: cfg.dataSets }, (_, s) => simulatedProblem(cfg.seed, likelihood, n, d, s));
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

function resultOf(cfg: HyperTablesConfig, cells: HyperCell[], t0: number): HyperTablesResult {
  const b = getBackend().describe();
  return { config: cfg, backend: `${b.backend} (${b.library})`, cells, orderings: orderingsOf(cfg.methods, cells), seconds: (performance.now() - t0) / 1000 };
}

/** Runs the experiment's chains one after another in this thread; `onCell` hears about each finished cell. */
export function runHyperTablesDirect(cfg: HyperTablesConfig, onCell?: (cell: HyperCell) => void): HyperTablesResult {
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
  return resultOf(cfg, cells, t0);
}

/**
 * Iterations between a chain's checkpoints by default: a checkpoint holds the hyperparameters'
 * draws so far and the chain's state (the latent f, a factor of K), small beside the iterations'
 * O(n^3) work, so a killed worker loses at most this many.
 */
export const HYPER_CHECKPOINT_EVERY = 500;

/**
 * The grid of one block (group, n, d): one "hyper-chain" job per chain (data set x method x
 * chain), named so that each job's identity is the one its chain's seed is the hash of
 * (hyperChainSeed).
 */
export function hyperGridSpec(cfg: HyperTablesConfig, block: { group: string; n: number; d: number }, out: string, checkpointEvery = HYPER_CHECKPOINT_EVERY): GridSpec {
  const range = (k: number) => Array.from({ length: k }, (_, i) => i);
  return {
    grid: `hyperTables table=${cfg.table} seed=${cfg.seed}`,
    kind: HYPER_CHAIN,
    fixed: { table: cfg.table, seed: cfg.seed, draws: cfg.draws, burnIn: cfg.burnIn, latentUpdates: cfg.latentUpdates, ...(cfg.table === 6 ? { dataFile: table6File(block.group) } : {}) },
    axes: { group: [block.group], n: [block.n], d: [block.d], "data-set": range(cfg.table === 6 ? 1 : cfg.dataSets), method: [...cfg.methods], chain: range(cfg.chains) },
    out,
    checkpointEvery,
  };
}

/** Where and how the experiment's grid runs (as Table 2's: experiments/table2.ts), and who hears of each finished cell. */
export interface HyperTablesRunOptions extends GridPlace {
  onCell?: (cell: HyperCell) => void;
  /** Iterations between a chain's checkpoints (default HYPER_CHECKPOINT_EVERY; 0: none). */
  checkpointEvery?: number;
}

/** Runs the experiment through its grid (one spec per block), then computes each cell from its chains' draws. */
export async function runHyperTables(cfg: HyperTablesConfig, options: HyperTablesRunOptions = {}): Promise<HyperTablesResult> {
  const t0 = performance.now();
  const cells: HyperCell[] = [];
  await withGridRoot(options, "hyperTables", async (root) => {
    for (const block of blocksOf(cfg)) {
      const name = `table${cfg.table}-${block.group}-n${block.n}-d${block.d}`;
      const g: LoadedGrid = { spec: hyperGridSpec(cfg, block, name, options.checkpointEvery), path: join(root, "spec.json"), outDir: join(root, name) };
      const jobs = gridJobs(g);
      await runGridJobs(options, g.outDir, jobs);
      const results = readJobResults<HyperChainJobResult>(g.outDir, jobs);
      const dataSets = cfg.table === 6 ? 1 : cfg.dataSets;
      for (const [k, method] of cfg.methods.entries()) {
        let seconds = 0;
        // jobs: data set, then method, then chain (the last axis fastest)
        const chains = Array.from({ length: dataSets }, (_, s) => Array.from({ length: cfg.chains }, (_, c): ChainOutput => {
          const r = results[(s * cfg.methods.length + k) * cfg.chains + c]!;
          seconds += r.seconds.job;
          const samples = readJobDraws(join(g.outDir, "draws"), r).samples;
          return { samples, m: r.dim, accepted: r.accepted, steps: r.steps, ops: r.ops, samplingMs: r.seconds.sampling * 1000 };
        }));
        const cell = cellStatistics(cfg, block.group, method, block.n, block.d, chains, seconds);
        cells.push(cell);
        options.onCell?.(cell);
      }
    }
  });
  return resultOf(cfg, cells, t0);
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
