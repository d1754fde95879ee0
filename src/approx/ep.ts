/**
 * Expectation propagation for a latent GP with prior N(f; 0, K) and factorised likelihood
 * terms t_i(f_i), in the numerically stable form of Rasmussen & Williams, GPML Algorithms 3.5
 * (site updates, posterior recomputation through B = I + S~^1/2 K S~^1/2) and 3.6 (log Z_EP).
 *
 * Notation (GPML section 3.6): site precisions tau~_i and site natural means nu~_i = tau~_i mu~_i;
 * S~ = diag(tau~) (the note's Sigma~^-1); posterior q(f) = N(mu, Sigma) with
 * Sigma = (K^-1 + S~)^-1 and mu = Sigma nu~; cavity i: tau_-i = 1/Sigma_ii - tau~_i,
 * nu_-i = mu_i / Sigma_ii - nu~_i.
 */
import { backendFor, type Cholesky } from "../linalg/cholesky.js";
import { assertSquare, Matrix } from "../linalg/matrix.js";
import { symmetricMatvecInto } from "../linalg/products.js";
import type { GaussianApproximation } from "../targets/latentModel.js";
import {
  applyWoodburyInverse, choleskyIdentityPlusScaled, woodbury, woodburyInverseDiagonal, woodburyInverseMatrix,
} from "../targets/woodbury.js";
import type { EpSites, TiltedMoments } from "./sites.js";

export interface EpOptions {
  /**
   * "sequential" (GPML Algorithm 3.5: one site at a time with a rank-one update of Sigma) or
   * "parallel" (all sites from the same posterior, then one recomputation). Default sequential.
   */
  schedule?: "sequential" | "parallel";
  /**
   * Damping delta in (0, 1] on the natural site parameters:
   * tau~_new = (1 - delta) tau~_old + delta tau~_proposed, the same for nu~. 1 means no damping.
   * Default 1 for sequential and 0.5 for parallel updates (undamped parallel EP can oscillate).
   */
  damping?: number;
  /** At most this many sweeps over the sites (default 100). */
  maxSweeps?: number;
  /** At least this many sweeps (default 2, so that convergence is judged on a change). */
  minSweeps?: number;
  /**
   * Converged when, over one sweep, every site moved by less than this relative to the
   * posterior marginal: max_i max(|d tau~_i| Sigma_ii, |d nu~_i| sqrt(Sigma_ii)) < siteTolerance
   * (both terms are dimensionless), and log Z_EP changed by less than logZTolerance.
   * Defaults 1e-6 and 1e-8.
   */
  siteTolerance?: number;
  logZTolerance?: number;
  /** Warm start from these site parameters (both or neither). */
  initialSiteTau?: Float64Array;
  initialSiteNu?: Float64Array;
  /** Receives the one-line warning when EP stops without converging (default: stderr). */
  onWarning?: (message: string) => void;
}

export interface EpResult {
  /** Posterior mean mu = Sigma nu~. */
  mean: Float64Array;
  /** Posterior covariance Sigma = K - K S~^1/2 B^-1 S~^1/2 K (dense, both triangles). */
  covariance: Matrix;
  /** Site precisions tau~_i (the diagonal of the note's Sigma~^-1); >= 0. */
  siteTau: Float64Array;
  /** Site natural means nu~_i = tau~_i mu~_i. */
  siteNu: Float64Array;
  /** Site means mu~_i = nu~_i / tau~_i (NaN where tau~_i = 0). */
  siteMean: Float64Array;
  /** sqrt(tau~), the S~^1/2 of B = I + S~^1/2 K S~^1/2. */
  sqrtSiteTau: Float64Array;
  /** Cholesky factor of B; log|Sigma| = log|K| - log|B|. */
  choleskyB: Cholesky;
  /** Cavity means and variances at the returned posterior (GPML eq. 3.56). */
  cavityMean: Float64Array;
  cavityVariance: Float64Array;
  /** log Z-hat_i, the tilted normalisers at the returned cavities. */
  tiltedLogZ: Float64Array;
  /** log Z_EP, GPML eq. 3.65 in the stable form of Algorithm 3.6. */
  logZ: number;
  /** Sweeps performed. */
  sweeps: number;
  converged: boolean;
  /** Site change and |change of log Z_EP| over the last sweep (see EpOptions.siteTolerance). */
  siteChange: number;
  logZChange: number;
  /** log Z_EP after each sweep. */
  logZHistory: number[];
  /** Site updates that proposed tau~_i < 0 and were set to 0 (as GPML's code does). */
  clampedSites: number;
  /** Site updates skipped because the cavity precision was not positive (round-off). */
  skippedSites: number;
  schedule: "sequential" | "parallel";
  damping: number;
  /** The likelihood terms the result was computed with (the correction to log Z_EP needs them). */
  sites: EpSites;
}

/**
 * The posterior given the sites, recomputed from scratch (GPML Algorithm 3.5 lines 12-14): its
 * mean, the diagonal of Sigma and chol(B), and the dense Sigma only when `full` (the sequential
 * schedule updates it site by site; the parallel one needs only the diagonal, which saves the
 * n^3 of forming V'V in every sweep).
 */
interface Posterior {
  mean: Float64Array;
  diagonal: Float64Array;
  covariance: Matrix | undefined;
  sqrtTau: Float64Array;
  chol: Cholesky;
}

function recompute(k: Matrix, tau: Float64Array, nu: Float64Array, full: boolean): Posterior {
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
    return { mean, diagonal, covariance: sigma, sqrtTau, chol };
  }
  const chol = choleskyIdentityPlusScaled(k, sqrtTau, "B = I + S^1/2 K S^1/2", { skipFiniteCheck: true });
  woodburyInverseDiagonal(k.data, sqrtTau, chol.factor.data, n, new Float64Array(n * n), diagonal);
  applyWoodburyInverse(k.data, sqrtTau, chol.factor.data, n, nu, mean, new Float64Array(n), new Float64Array(n));
  return { mean, diagonal, covariance: undefined, sqrtTau, chol };
}

/**
 * Site i's update from the posterior marginal N(mu_i, Sigma_ii) (GPML Algorithm 3.5 lines 5-7):
 * the cavity, the tilted moments, the new site parameters damped towards the old ones, tau~ < 0
 * set to 0 as GPML's code does. "skipped" when the cavity precision is not positive (round-off).
 */
function proposeSite(
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
 * rank-k update in one gemm. The arithmetic is that of the one-at-a-time updates, grouped so
 * that the n^3 flops of a sweep run at matrix-matrix speed rather than as n rank-one loops.
 */
function sequentialSweep(
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
    be.gemm("N", "T", n, n, k, -1, uc, n, u, n, 1, sd, n);
    k = 0;
  };
  for (let i = 0; i < n; i++) {
    // col = Sigma[:, i] = Sigma0[:, i] - U diag(c) U[i, :]'
    col.set(sd.subarray(i * n, i * n + n));
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

interface Cavities {
  mean: Float64Array;
  variance: Float64Array;
  tau: Float64Array;
  nu: Float64Array;
  tiltedLogZ: Float64Array;
}

/** Cavities at the posterior, and log Z_EP (GPML eq. 3.65 in the form of Algorithm 3.6). */
function evaluateLogZ(post: Posterior, tau: Float64Array, nu: Float64Array, sites: EpSites): { logZ: number; cav: Cavities } {
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

function siteChangeOf(tauOld: Float64Array, nuOld: Float64Array, tau: Float64Array, nu: Float64Array, diagonal: Float64Array): number {
  const n = tau.length;
  let change = 0;
  for (let i = 0; i < n; i++) {
    const sii = diagonal[i];
    const c = Math.max(Math.abs(tau[i] - tauOld[i]) * sii, Math.abs(nu[i] - nuOld[i]) * Math.sqrt(sii));
    if (!(c <= change)) change = c; // NaN propagates
  }
  return change;
}

/**
 * EP for a GP prior N(0, K) and the given sites (`probitSites(y)` for GP classification).
 * Every sweep ends by recomputing the posterior from scratch for stability (GPML Algorithm
 * 3.5); convergence is judged on the site parameters and log Z_EP (EpOptions). When EP stops
 * without converging the result says so (converged: false) and a warning is issued.
 */
export function expectationPropagation(k: Matrix, sites: EpSites, options: EpOptions = {}): EpResult {
  assertSquare(k, "K");
  const n = k.rows;
  if (sites.n !== n) throw new Error(`EP: K is ${n} x ${n} but there are ${sites.n} sites`);
  const schedule = options.schedule ?? "sequential";
  if (schedule !== "sequential" && schedule !== "parallel") throw new Error(`EP: schedule must be "sequential" or "parallel", got ${String(schedule)}`);
  const damping = options.damping ?? (schedule === "parallel" ? 0.5 : 1);
  if (!(damping > 0 && damping <= 1)) throw new Error(`EP: damping must be in (0, 1], got ${damping}`);
  const maxSweeps = options.maxSweeps ?? 100;
  const minSweeps = Math.min(options.minSweeps ?? 2, maxSweeps);
  if (!Number.isInteger(maxSweeps) || maxSweeps < 1) throw new Error(`EP: maxSweeps must be a positive integer, got ${maxSweeps}`);
  const siteTol = options.siteTolerance ?? 1e-6;
  const logZTol = options.logZTolerance ?? 1e-8;
  const warn = options.onWarning ?? ((s: string) => process.stderr.write(s + "\n"));

  const tau = new Float64Array(n);
  const nu = new Float64Array(n);
  if ((options.initialSiteTau === undefined) !== (options.initialSiteNu === undefined)) {
    throw new Error("EP: give both initialSiteTau and initialSiteNu, or neither");
  }
  if (options.initialSiteTau && options.initialSiteNu) {
    if (options.initialSiteTau.length !== n || options.initialSiteNu.length !== n) throw new Error(`EP: initial sites must have length ${n}`);
    for (let i = 0; i < n; i++) {
      if (!(options.initialSiteTau[i] >= 0) || !Number.isFinite(options.initialSiteNu[i])) {
        throw new Error(`EP: initial site ${i} has tau~ = ${options.initialSiteTau[i]}, nu~ = ${options.initialSiteNu[i]}; need tau~ >= 0 and finite nu~`);
      }
    }
    tau.set(options.initialSiteTau);
    nu.set(options.initialSiteNu);
  }

  const full = schedule === "sequential";
  let post = recompute(k, tau, nu, full);
  let { logZ } = evaluateLogZ(post, tau, nu, sites);
  const history: number[] = [];
  const tm: TiltedMoments = { logZ: 0, mean: 0, variance: 0 };
  const proposal = { tau: 0, nu: 0 };
  const tauOld = new Float64Array(n);
  const nuOld = new Float64Array(n);
  let clamped = 0;
  let skipped = 0;
  let sweeps = 0;
  let converged = false;
  let siteChange = Infinity;
  let logZChange = Infinity;
  let cav: Cavities | undefined;

  for (let sweep = 1; sweep <= maxSweeps; sweep++) {
    tauOld.set(tau);
    nuOld.set(nu);
    const sd = post.diagonal;
    const mu = post.mean;
    if (schedule === "sequential") {
      const r = sequentialSweep(post, tau, nu, sites, damping, tm);
      clamped += r.clamped;
      skipped += r.skipped;
    } else {
      for (let i = 0; i < n; i++) {
        const outcome = proposeSite(sites, i, sd[i], mu[i], tauOld[i], nuOld[i], damping, tm, proposal);
        if (outcome === "skipped") {
          skipped++;
          continue;
        }
        if (outcome === "clamped") clamped++;
        tau[i] = proposal.tau;
        nu[i] = proposal.nu;
      }
    }
    // Recompute the posterior from scratch (GPML Algorithm 3.5 lines 12-14).
    post = recompute(k, tau, nu, full);
    const ev = evaluateLogZ(post, tau, nu, sites);
    cav = ev.cav;
    logZChange = Math.abs(ev.logZ - logZ);
    logZ = ev.logZ;
    history.push(logZ);
    siteChange = siteChangeOf(tauOld, nuOld, tau, nu, post.diagonal);
    sweeps = sweep;
    if (!Number.isFinite(logZ)) throw new Error(`EP: log Z_EP is not finite after sweep ${sweep}`);
    if (sweep >= minSweeps && siteChange < siteTol && logZChange < logZTol) {
      converged = true;
      break;
    }
  }
  if (!converged) {
    warn(`gpmcmc: EP did not converge in ${sweeps} sweeps (${schedule}, damping ${damping}): last site change ${siteChange.toExponential(2)} (tolerance ${siteTol}), log Z change ${logZChange.toExponential(2)} (tolerance ${logZTol})`);
  }
  if (!cav) cav = evaluateLogZ(post, tau, nu, sites).cav;
  const covariance = post.covariance ?? woodburyInverseMatrix(k, post.sqrtTau, post.chol.factor.data);
  const siteMean = new Float64Array(n);
  for (let i = 0; i < n; i++) siteMean[i] = tau[i] > 0 ? nu[i] / tau[i] : NaN;
  return {
    mean: post.mean, covariance, siteTau: tau, siteNu: nu, siteMean,
    sqrtSiteTau: post.sqrtTau, choleskyB: post.chol, cavityMean: cav.mean, cavityVariance: cav.variance,
    tiltedLogZ: cav.tiltedLogZ, logZ, sweeps, converged, siteChange, logZChange, logZHistory: history,
    clampedSites: clamped, skippedSites: skipped, schedule, damping, sites,
  };
}

/**
 * EP's q(f) = N(mu, Sigma) in the form the annealed target of note eq. (4) takes: the mean and
 * the site precisions tau~ (Sigma^-1 = K^-1 + Sigma~^-1, note Section 4.1).
 */
export function epApproximation(ep: EpResult): GaussianApproximation {
  return { mean: ep.mean, sitePrecisions: ep.siteTau };
}
