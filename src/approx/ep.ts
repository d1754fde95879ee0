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
import { assertSquare } from "../linalg/matrix.js";
import type { Cholesky } from "../linalg/cholesky.js";
import type { Matrix } from "../linalg/matrix.js";
import type { GaussianApproximation } from "../targets/latentModel.js";
import { andersonParallelEp } from "./epAnderson.js";
import { covarianceOf, evaluateLogZ, priorPosterior, proposeSite, recompute, sequentialSweep, sweepWork, siteChangeOf, type Cavities, type Posterior, type SweepWork } from "./epCore.js";
import type { EpSites, TiltedMoments } from "../likelihoods/epSites.js";

export interface EpOptions {
  /**
   * "sequential" (GPML Algorithm 3.5: one site at a time with a rank-one update of Sigma) or
   * "parallel" (all sites from the same posterior, then one recomputation). Default sequential.
   */
  schedule?: "sequential" | "parallel";
  /**
   * Damping delta in (0, 1] on the natural site parameters:
   * tau~_new = (1 - delta) tau~_old + delta tau~_proposed, the same for nu~. 1 means no damping.
   * With Anderson acceleration it is the mixing beta of the accelerated step (epAnderson.ts),
   * halved whenever a point is rejected. Default 1 for sequential updates and for accelerated
   * parallel ones, 0.5 for plain parallel updates (undamped plain parallel EP can oscillate).
   */
  damping?: number;
  /**
   * Parallel schedule only: "anderson" (default) mixes the last `andersonMemory` residuals of
   * the parallel update, with the safeguards of epAnderson.ts; "none" is the plain damped
   * iteration. Both converge to the same fixed point.
   */
  acceleration?: "anderson" | "none";
  /** Residuals Anderson mixing remembers (default 5). */
  andersonMemory?: number;
  /**
   * Accelerated parallel schedule started from the prior (no initial sites): "sequential"
   * (default) makes the first sweep a sequential one, "prior" starts the parallel iteration at
   * tau~ = 0 (plain damped steps until the residual is small enough for Anderson mixing).
   */
  parallelStart?: "sequential" | "prior";
  /** At most this many sweeps over the sites (default 100). */
  maxSweeps?: number;
  /** At least this many sweeps (default 2, so that convergence is judged on a change). */
  minSweeps?: number;
  /**
   * Converged when, over one sweep, every site moved by less than this relative to the
   * posterior marginal: max_i max(|d tau~_i| Sigma_ii, |d nu~_i| sqrt(Sigma_ii)) < siteTolerance
   * (both terms are dimensionless), and log Z_EP changed by less than logZTolerance.
   * With Anderson acceleration d tau~, d nu~ are what a plain undamped parallel sweep would
   * still change at the new point (the residual of the fixed-point equations), since the
   * accelerated step itself is not an EP update, and the log Z test is on the estimated error
   * |log Z_EP - its fixed-point value| (c r^2 for the residual r, c from the last changes:
   * epAnderson.ts; log Z_EP is stationary at the fixed point, so its error is quadratic in the
   * residual). Defaults 1e-6 and 1e-8; with Anderson acceleration 1e-4 and 1e-8.
   */
  siteTolerance?: number;
  logZTolerance?: number;
  /** Warm start from these site parameters (both or neither). */
  initialSiteTau?: Float64Array;
  initialSiteNu?: Float64Array;
  /** Receives the one-line warning when EP stops without converging (default: stderr). */
  onWarning?: (message: string) => void;
}

/**
 * The accelerated schedule's default site tolerance: its log Z test is on log Z_EP's estimated
 * error itself (quadratic in the residual), so the sites need not be driven to 1e-6 for it
 * (BENCHMARKS.md measures what it saves on USPS 3 vs 5). The result's siteChange says how far the
 * sites are.
 */
const ANDERSON_SITE_TOLERANCE = 1e-4;

export interface EpResult {
  /** Posterior mean mu = Sigma nu~. */
  mean: Float64Array;
  /**
   * Posterior covariance Sigma = K - K S~^1/2 B^-1 S~^1/2 K (dense, both triangles), formed on
   * first reading for the parallel schedule.
   */
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
  /**
   * What the log Z test was on: with Anderson acceleration the estimated |log Z_EP - its value at
   * the fixed point| (EpOptions.siteTolerance), otherwise logZChange.
   */
  logZError: number;
  /** log Z_EP after each sweep that recomputed the posterior (not after the sequential first sweep of the accelerated parallel schedule, nor after a rejected point). */
  logZHistory: number[];
  /** Site updates that proposed tau~_i < 0 and were set to 0 (as GPML's code does). */
  clampedSites: number;
  /** Site updates skipped because the cavity precision was not positive (round-off). */
  skippedSites: number;
  schedule: "sequential" | "parallel";
  damping: number;
  /** "anderson" or "none" for the parallel schedule; "none" for the sequential one. */
  acceleration: "anderson" | "none";
  /** Points the accelerated iteration rejected (each cost a sweep); 0 otherwise. */
  rejectedSweeps: number;
  /** The likelihood terms the result was computed with (the correction to log Z_EP needs them). */
  sites: EpSites;
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
  const acceleration = schedule === "parallel" ? options.acceleration ?? "anderson" : "none";
  if (acceleration !== "anderson" && acceleration !== "none") throw new Error(`EP: acceleration must be "anderson" or "none", got ${String(acceleration)}`);
  const memory = options.andersonMemory ?? 5;
  if (!Number.isInteger(memory) || memory < 0) throw new Error(`EP: andersonMemory must be a non-negative integer, got ${memory}`);
  const damping = options.damping ?? (schedule === "parallel" && acceleration === "none" ? 0.5 : 1);
  if (!(damping > 0 && damping <= 1)) throw new Error(`EP: damping must be in (0, 1], got ${damping}`);
  const maxSweeps = options.maxSweeps ?? 100;
  const minSweeps = Math.min(options.minSweeps ?? 2, maxSweeps);
  if (!Number.isInteger(maxSweeps) || maxSweeps < 1) throw new Error(`EP: maxSweeps must be a positive integer, got ${maxSweeps}`);
  const siteTol = options.siteTolerance ?? (acceleration === "anderson" ? ANDERSON_SITE_TOLERANCE : 1e-6);
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

  const stopped = (sweeps: number, siteChange: number, logZError: number, mixing: number): void => {
    const what = acceleration === "anderson" ? "estimated log Z error" : "log Z change";
    warn(`gpmcmc: EP did not converge in ${sweeps} sweeps (${schedule}, damping ${mixing}): last site change ${siteChange.toExponential(2)} (tolerance ${siteTol}), ${what} ${logZError.toExponential(2)} (tolerance ${logZTol})`);
  };
  const fromPrior = options.initialSiteTau === undefined;
  if (acceleration === "anderson") {
    // From the prior, the first sweep is sequential (assumed-density filtering: Sigma = K needs
    // no solve, and its rank-one updates cost 2 n^3 at matrix-matrix speed), which puts the
    // sites where the accelerated parallel iteration converges fast; from the prior itself the
    // parallel map is far from linear and needs many damped sweeps.
    let startSweeps = 0;
    let startClamped = 0;
    let start: Pick<Posterior, "diagonal" | "mean"> | undefined;
    let work: SweepWork | undefined;
    if (fromPrior && options.parallelStart !== "prior" && maxSweeps > 1) {
      const prior = priorPosterior(k);
      const r = sequentialSweep(prior, tau, nu, sites, 1, { logZ: 0, mean: 0, variance: 0 });
      // the sweep kept mu and the lower triangle of Sigma up to date; the parallel iteration starts
      // from them, and factorises B in Sigma's storage, which it no longer needs
      const sigma = prior.covariance!;
      for (let i = 0; i < n; i++) prior.diagonal[i] = sigma.data[i + i * n];
      start = { diagonal: prior.diagonal, mean: prior.mean };
      work = sweepWork(n, sigma);
      startSweeps = 1;
      startClamped = r.clamped;
    }
    const a = andersonParallelEp(k, sites, tau, nu, {
      mixing: damping, memory, maxSweeps: maxSweeps - startSweeps, minSweeps: Math.max(1, minSweeps - startSweeps),
      siteTolerance: siteTol, logZTolerance: logZTol, start, work,
    });
    a.sweeps += startSweeps;
    a.clamped += startClamped;
    if (!a.converged) stopped(a.sweeps, a.siteChange, a.logZError, a.mixing);
    return resultOf(k, a.post, a.cav, tau, nu, sites, {
      logZ: a.logZ, sweeps: a.sweeps, converged: a.converged, siteChange: a.siteChange, logZChange: a.logZChange, logZError: a.logZError,
      logZHistory: a.history, clampedSites: a.clamped, skippedSites: a.skipped, schedule, damping, acceleration, rejectedSweeps: a.rejected,
    });
  }

  const full = schedule === "sequential";
  const work = full ? undefined : sweepWork(n);
  let post = fromPrior && full ? priorPosterior(k) : recompute(k, tau, nu, full, work);
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
    post = recompute(k, tau, nu, full, work);
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
  if (!converged) stopped(sweeps, siteChange, logZChange, damping);
  if (!cav) cav = evaluateLogZ(post, tau, nu, sites).cav;
  return resultOf(k, post, cav, tau, nu, sites, {
    logZ, sweeps, converged, siteChange, logZChange, logZError: logZChange, logZHistory: history, clampedSites: clamped, skippedSites: skipped,
    schedule, damping, acceleration, rejectedSweeps: 0,
  });
}

type RunFigures = Pick<EpResult, "logZ" | "sweeps" | "converged" | "siteChange" | "logZChange" | "logZError" | "logZHistory" |
  "clampedSites" | "skippedSites" | "schedule" | "damping" | "acceleration" | "rejectedSweeps">;

/**
 * The result at the posterior `post` of the sites (tau, nu). The dense Sigma is formed on first
 * reading of `covariance` (for the parallel schedule, one syrk from the V = L^-1 S~^1/2 K of the
 * last sweep), so that callers needing only the mean, the sites and log Z do not pay its n^3.
 */
function resultOf(
  k: Matrix, post: Posterior, cav: Cavities, tau: Float64Array, nu: Float64Array, sites: EpSites, figures: RunFigures,
): EpResult {
  const n = tau.length;
  const siteMean = new Float64Array(n);
  for (let i = 0; i < n; i++) siteMean[i] = tau[i] > 0 ? nu[i] / tau[i] : NaN;
  let covariance: Matrix | undefined = post.covariance;
  return {
    mean: post.mean,
    get covariance(): Matrix {
      return (covariance ??= covarianceOf(k, post));
    },
    siteTau: tau, siteNu: nu, siteMean,
    sqrtSiteTau: post.sqrtTau, choleskyB: post.chol, cavityMean: cav.mean, cavityVariance: cav.variance,
    tiltedLogZ: cav.tiltedLogZ, sites, ...figures,
  };
}

/**
 * EP's q(f) = N(mu, Sigma) in the form the annealed target of note eq. (4) takes: the mean and
 * the site precisions tau~ (Sigma^-1 = K^-1 + Sigma~^-1, note Section 4.1).
 */
export function epApproximation(ep: EpResult): GaussianApproximation {
  return { mean: ep.mean, sitePrecisions: ep.siteTau };
}
