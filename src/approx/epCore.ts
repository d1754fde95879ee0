/**
 * The pieces of EP that its schedules share (Rasmussen & Williams, GPML Algorithms 3.5 and 3.6):
 * the posterior recomputed from the sites, one site's update from its posterior marginal, the
 * blocked sequential sweep, log Z_EP with the cavities, and the site change that convergence is
 * judged on. Notation as in ep.ts.
 */
import { backendFor, Cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";
import { symmetricMatvecInto } from "../linalg/products.js";
import { woodbury, woodburyInverseFromSolved } from "../targets/woodbury.js";
import { solvedFromInverse, woodburyFromInverseFactor, type InverseFactorWork } from "../targets/woodburyFromInverseFactor.js";
import type { EpSites, TiltedMoments } from "../likelihoods/epSites.js";

/**
 * The posterior given the sites, recomputed from scratch (GPML Algorithm 3.5 lines 12-14): its
 * mean, the diagonal of Sigma and chol(B), and the dense Sigma only when `full` (the sequential
 * schedule updates it site by site; the parallel one needs only the diagonal, which saves the
 * n^3 of forming V'V in every sweep). Without `full`, diag(Sigma) comes from L and L^-1
 * (woodburyFromInverseFactor.ts: a Cholesky and a triangular inverse, 2/3 n^3 flops, where the
 * triangular solve for V = L^-1 S~^1/2 K took n^3), and L^-1 is kept (in `work.inverse`, reused
 * from sweep to sweep with `work.b`, where B is factorised) so that the dense Sigma = K - V'V of
 * the last sweep costs O(n^2) for V and one syrk. With `work`, the posterior's `inverse` and
 * `chol` are valid until the next recompute with the same workspaces.
 */
export interface Posterior {
  mean: Float64Array;
  diagonal: Float64Array;
  covariance: Matrix | undefined;
  sqrtTau: Float64Array;
  chol: Cholesky;
  /** L^-1 (column-major n x n, lower triangle) when the posterior was recomputed without `full`. */
  inverse: Float64Array | undefined;
}

/** Workspaces of the parallel schedule's sweeps: L^-1 (n x n), the matrix B is factorised in, and n-vectors. */
export type SweepWork = InverseFactorWork;

/**
 * Fresh workspaces, or with `b`, an n x n matrix whose contents are no longer needed (the
 * sequential first sweep's Sigma) taken as the one B is factorised in: at n in the thousands a
 * fresh n x n array costs milliseconds in page faults on first writing, as much as an O(n^2) pass.
 */
export function sweepWork(n: number, b?: Matrix): SweepWork {
  return {
    inverse: new Float64Array(n * n), b: b ?? new Matrix(n, n),
    rowSquares: new Float64Array(n), cv: new Float64Array(n), y: new Float64Array(n),
  };
}

export function recompute(k: Matrix, tau: Float64Array, nu: Float64Array, full: boolean, work?: SweepWork): Posterior {
  const n = k.rows;
  const sqrtTau = new Float64Array(n);
  for (let i = 0; i < n; i++) sqrtTau[i] = Math.sqrt(tau[i]);
  const mean = new Float64Array(n);
  const diagonal = new Float64Array(n);
  // B = I + S~^1/2 K S~^1/2 = L L', V = L \ (S~^1/2 K), Sigma = K - V'V (the Woodbury step)
  if (full) {
    const { cholesky: chol, inverse: sigma } = woodbury(k, sqrtTau, "B = I + S^1/2 K S^1/2", { skipFiniteCheck: true });
    symmetricMatvecInto(sigma, nu, mean);
    for (let i = 0; i < n; i++) diagonal[i] = sigma.data[i + i * n];
    return { mean, diagonal, covariance: sigma, sqrtTau, chol, inverse: undefined };
  }
  const w = work ?? sweepWork(n);
  const chol = woodburyFromInverseFactor(k, sqrtTau, nu, "B = I + S^1/2 K S^1/2", w, diagonal, mean);
  return { mean, diagonal, covariance: undefined, sqrtTau, chol, inverse: w.inverse };
}

/**
 * The posterior at tau~ = 0, nu~ = 0: Sigma = K (a copy), mean 0, chol(B) = I. No solve is
 * needed, which is why a run from the prior starts here rather than in `recompute`. chol(I) is
 * formed on first reading (the accelerated schedule's first sweep never reads it: one n x n
 * array fewer to allocate).
 */
export function priorPosterior(k: Matrix): Posterior {
  const n = k.rows;
  const sqrtTau = new Float64Array(n);
  const diagonal = new Float64Array(n);
  for (let i = 0; i < n; i++) diagonal[i] = k.data[i + i * n];
  let chol: Cholesky | undefined;
  return {
    mean: new Float64Array(n), diagonal, covariance: k.clone(), sqrtTau, inverse: undefined,
    get chol(): Cholesky {
      if (!chol) {
        const identity = new Matrix(n, n);
        for (let i = 0; i < n; i++) identity.data[i + i * n] = 1;
        chol = new Cholesky(identity); // chol(I) = I, without a factorisation
      }
      return chol;
    },
  };
}

/** The dense Sigma = K - V'V of a posterior recomputed without `full` (V from L and L^-1, then one syrk, n^3 flops; a new matrix). */
export function covarianceOf(k: Matrix, post: Posterior): Matrix {
  if (post.covariance) return post.covariance;
  const n = k.rows;
  const v = new Float64Array(n * n);
  solvedFromInverse(k.data, post.sqrtTau, post.chol.factor.data, post.inverse!, n, v);
  return woodburyInverseFromSolved(k, v);
}

/**
 * Site i's update from the posterior marginal N(mu_i, Sigma_ii) (GPML Algorithm 3.5 lines 5-7):
 * the cavity, the tilted moments, the new site parameters damped towards the old ones, tau~ < 0
 * set to 0 as GPML's code does. "skipped" when the cavity precision is not positive (round-off).
 */
export function proposeSite(
  sites: EpSites, i: number, sii: number, mui: number, tauI: number, nuI: number, damping: number,
  tm: TiltedMoments, out: { tau: number; nu: number },
): "updated" | "clamped" | "skipped" {
  const tc = 1 / sii - tauI;
  const nc = mui / sii - nuI;
  if (!(tc > 0)) return "skipped";
  sites.tilted(i, nc / tc, 1 / tc, tm);
  const tNew = (1 - damping) * tauI + damping * (1 / tm.variance - tc);
  const nNew = (1 - damping) * nuI + damping * (tm.mean / tm.variance - nc);
  if (!Number.isFinite(tNew) || !Number.isFinite(nNew)) {
    throw new Error(`EP: site ${i} update is not finite (tilted mean ${tm.mean}, variance ${tm.variance}, cavity mean ${nc / tc}, variance ${1 / tc})`);
  }
  out.nu = nNew;
  if (tNew < 0) {
    out.tau = 0;
    return "clamped";
  }
  out.tau = tNew;
  return "updated";
}

/**
 * One sequential sweep (GPML Algorithm 3.5 lines 4-9) with the rank-one updates of Sigma
 * gathered into blocks: within a block Sigma = Sigma0 - U diag(c) U', so site i's column is
 * Sigma0[:, i] - U diag(c) U[i, :]' (one gemv), and at the end of the block Sigma0 takes the
 * rank-k update in gemm calls. The arithmetic is that of the one-at-a-time updates, grouped so
 * that the flops of a sweep run at matrix-matrix speed rather than as n rank-one loops. Sigma is
 * symmetric, so only its lower triangle is updated (n^3 flops a sweep rather than 2 n^3) and
 * site i's column is read from it (rows >= i from column i, rows < i from row i). On return the
 * lower triangle of `post.covariance` and `post.mean` hold the posterior at the new sites; the
 * strict upper triangle and `post.diagonal` are stale (both callers recompute or read the diagonal).
 */
export function sequentialSweep(
  post: Posterior, tau: Float64Array, nu: Float64Array, sites: EpSites, damping: number, tm: TiltedMoments,
): { clamped: number; skipped: number } {
  const sigma = post.covariance!;
  const n = sigma.rows;
  const sd = sigma.data;
  const mu = post.mean;
  const be = backendFor(n);
  const block = Math.min(n, SEQUENTIAL_BLOCK);
  const u = new Float64Array(n * block); // columns s_m = Sigma[:, i_m] at the time of update m
  const uc = new Float64Array(n * block); // c_m s_m
  const cs = new Float64Array(block);
  const w = new Float64Array(block);
  const col = new Float64Array(n);
  const proposal = { tau: 0, nu: 0 };
  let clamped = 0;
  let skipped = 0;
  let k = 0;
  const flush = (): void => {
    if (k === 0) return;
    // the lower triangle of Sigma0 - (U diag(c)) U', by column blocks: rows c0..n-1 of columns c0..c1-1
    for (let c0 = 0; c0 < n; c0 += LOWER_UPDATE_COLUMNS) {
      const w = Math.min(LOWER_UPDATE_COLUMNS, n - c0);
      be.gemm("N", "T", n - c0, w, k, -1, uc.subarray(c0), n, u.subarray(c0), n, 1, sd.subarray(c0 + c0 * n), n);
    }
    k = 0;
  };
  for (let i = 0; i < n; i++) {
    // col = Sigma[:, i] = Sigma0[:, i] - U diag(c) U[i, :]', Sigma0 read from its lower triangle
    for (let r = 0; r < i; r++) col[r] = sd[i + r * n];
    col.set(sd.subarray(i * n + i, i * n + n), i);
    if (k > 0) {
      for (let m = 0; m < k; m++) w[m] = cs[m] * u[i + m * n];
      be.gemv("N", n, k, -1, u, n, w.subarray(0, k), 1, col);
    }
    const sii = col[i];
    const outcome = proposeSite(sites, i, sii, mu[i], tau[i], nu[i], damping, tm, proposal);
    if (outcome === "skipped") {
      skipped++;
      continue;
    }
    if (outcome === "clamped") clamped++;
    const tNew = proposal.tau;
    const nNew = proposal.nu;
    const dTau = tNew - tau[i];
    const dNu = nNew - nu[i];
    tau[i] = tNew;
    nu[i] = nNew;
    // Rank-one update (GPML Algorithm 3.5 line 8):
    // Sigma <- Sigma - c s s', s = Sigma[:, i], c = d tau / (1 + d tau Sigma_ii);
    // mu <- Sigma_new nu~_new = mu + d nu s - c s (mu_i + d nu Sigma_ii).
    const c = dTau / (1 + dTau * sii);
    const coef = dNu - c * (mu[i] + dNu * sii);
    for (let r = 0; r < n; r++) mu[r] += coef * col[r];
    if (c !== 0) {
      u.set(col, k * n);
      for (let r = 0; r < n; r++) uc[r + k * n] = c * col[r];
      cs[k] = c;
      if (++k === block) flush();
    }
  }
  flush();
  return { clamped, skipped };
}

/** Sites per block of rank-one updates in the sequential sweep (the k of the gemm). */
const SEQUENTIAL_BLOCK = 64;
/** Columns per gemm call of the lower-triangular update (the upper part of each diagonal block is updated too, and ignored). */
const LOWER_UPDATE_COLUMNS = 128;

export interface Cavities {
  mean: Float64Array;
  variance: Float64Array;
  tau: Float64Array;
  nu: Float64Array;
  tiltedLogZ: Float64Array;
}

/** Cavities at the posterior, and log Z_EP (GPML eq. 3.65 in the form of Algorithm 3.6). */
export function evaluateLogZ(post: Posterior, tau: Float64Array, nu: Float64Array, sites: EpSites): { logZ: number; cav: Cavities } {
  const n = tau.length;
  const cav: Cavities = {
    mean: new Float64Array(n), variance: new Float64Array(n), tau: new Float64Array(n),
    nu: new Float64Array(n), tiltedLogZ: new Float64Array(n),
  };
  const tm: TiltedMoments = { logZ: 0, mean: 0, variance: 0 };
  const sd = post.diagonal;
  const mu = post.mean;
  let logZ = 0;
  let logDetB = 0;
  const ld = post.chol.factor.data;
  for (let i = 0; i < n; i++) logDetB += Math.log(ld[i + i * n]);
  // log Z_EP = sum_i log Z-hat_i - sum_i log L_ii + 1/2 sum_i log(1 + tau~_i / tau_-i)
  //   + 1/2 nu~' Sigma nu~ - 1/2 sum_i nu~_i^2 / (tau_-i + tau~_i)
  //   + 1/2 sum_i mu_-i tau_-i (tau~_i mu_-i - 2 nu~_i) / (tau_-i + tau~_i).
  // This is eq. 3.65 with log|K + S~^-1| = log|B| - sum log tau~_i and
  // (K + S~^-1)^-1 = S~ - S~ Sigma S~, rearranged so that no 1/tau~_i appears (sites with
  // tau~_i = 0 are allowed); GPML Algorithm 3.6 lines 7-10 group the same terms.
  let quad = 0;
  for (let i = 0; i < n; i++) {
    const sii = sd[i];
    const tc = 1 / sii - tau[i];
    const nc = mu[i] / sii - nu[i];
    cav.tau[i] = tc;
    cav.nu[i] = nc;
    cav.variance[i] = 1 / tc;
    cav.mean[i] = nc / tc;
    sites.tilted(i, cav.mean[i], cav.variance[i], tm);
    cav.tiltedLogZ[i] = tm.logZ;
    const mc = cav.mean[i];
    const denom = tc + tau[i];
    logZ += tm.logZ + 0.5 * Math.log1p(tau[i] / tc);
    quad += nu[i] * mu[i] - (nu[i] * nu[i]) / denom + (mc * tc * (tau[i] * mc - 2 * nu[i])) / denom;
  }
  logZ += -logDetB + 0.5 * quad;
  return { logZ, cav };
}

export function siteChangeOf(tauOld: Float64Array, nuOld: Float64Array, tau: Float64Array, nu: Float64Array, diagonal: Float64Array): number {
  const n = tau.length;
  let change = 0;
  for (let i = 0; i < n; i++) {
    const sii = diagonal[i];
    const c = Math.max(Math.abs(tau[i] - tauOld[i]) * sii, Math.abs(nu[i] - nuOld[i]) * Math.sqrt(sii));
    if (!(c <= change)) change = c; // NaN propagates
  }
  return change;
}
