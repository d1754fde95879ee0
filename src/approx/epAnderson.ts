/**
 * Parallel EP as a fixed-point iteration accelerated by Anderson mixing (Anderson 1965; Walker &
 * Ni, "Anderson acceleration for fixed-point iterations", SIAM J. Numer. Anal. 49, 2011, eq. 2.2
 * and Algorithm AA). The parallel update of GPML Algorithm 3.5 (every site from the same posterior)
 * is a map x -> G(x) on the site parameters x = (tau~, nu~); EP's fixed point is x = G(x). Plain
 * parallel EP iterates x <- x + delta (G(x) - x) and needs damping delta < 1 where it would
 * oscillate, at a linear rate that takes tens of sweeps, each a Cholesky of B and a triangular
 * solve for diag(Sigma) (4/3 n^3 flops). Anderson mixing combines the last m residuals
 * f_j = G(x_j) - x_j: with dF, dX the differences of consecutive residuals and iterates,
 *
 *   gamma = argmin || D (f_k - dF gamma) ||_2,   x_{k+1} = x_k + beta f_k - (dX + beta dF) gamma,
 *
 * D the dimensionless weights of EP's convergence test (Sigma_ii for tau~_i, sqrt(Sigma_ii) for
 * nu~_i), beta the mixing (EpOptions.damping). On a linear map this is GMRES-like; on EP it takes
 * the sweep count down several-fold, and an oscillating plain iteration is what it damps best.
 *
 * Safeguards, so that it converges where plain undamped EP would not: tau~ < 0 is set to 0 (as
 * GPML's code does for single sites); a point whose cavities are not all proper (tau_-i <= 0), whose
 * log Z_EP is not finite, or whose residual is more than `REJECT_GROWTH` times the smallest seen, is
 * rejected: the iteration returns to the previous point, forgets its history, halves beta and takes
 * a plain damped step. Mixing starts only once the residual is below `ANDERSON_FROM` (far from the
 * fixed point the map is far from linear), and until then a plain step that does not reduce the
 * residual halves beta (the oscillation of undamped parallel EP). The fixed point is EP's (the
 * same equations x = G(x)); only the path differs.
 *
 * Stopping: log Z_EP is stationary in the site parameters at EP's fixed point (its gradient in
 * (tau~, nu~) vanishes there: the site updates are its stationarity conditions, which is why
 * GPML eq. 5.27, logZGradient.ts, may neglect the sites' dependence on the hyperparameters;
 * Seeger 2005, "Expectation propagation for exponential families"), so its error at a point
 * whose residual is r is about c r^2. The change of log Z_EP over an accepted step,
 * |Z_j - Z_{j-1}|, is about the error at the earlier point, c r_{j-1}^2, which gives c; the
 * estimate is
 *
 *   |Z_k - Z*| ~ c r_k^2,   c = max over the last CURVATURE_STEPS accepted steps j of |Z_j - Z_{j-1}| / r_{j-1}^2
 *
 * (the maximum over a few steps, because a step that hardly moves, as when the iteration
 * stalls, shows a small change that says nothing about c), and `logZTolerance` bounds it. It is
 * an estimate, not a bound: on the test problems (test/approx/epAnderson.test.ts) the error at
 * the stop was at most 2.1 times the tolerance, and BENCHMARKS.md compares it with the measured
 * error sweep by sweep on USPS 3 vs 5. The residual r_k itself is
 * reported as the result's site change, and must be below `siteTolerance`.
 */
import type { Matrix } from "../linalg/matrix.js";
import { evaluateLogZ, proposeSite, recompute, sweepWork, type Cavities, type Posterior, type SweepWork } from "./epCore.js";
import type { EpSites, TiltedMoments } from "../likelihoods/epSites.js";

export interface AndersonOptions {
  /** Mixing beta in (0, 1] (the damping of the plain step); halved at each rejected point and at each plain step that makes no progress. */
  mixing: number;
  /** Residuals remembered (m); 0 gives plain damped parallel EP with the same safeguards. */
  memory: number;
  /**
   * The posterior marginals at the starting sites when the caller has them (the sequential
   * sweep that starts the schedule keeps Sigma and mu up to date): they save the first
   * recomputation, and log Z_EP is first evaluated after the first step.
   */
  start?: Marginals;
  /** Workspaces to use (default: fresh ones). */
  work?: SweepWork;
  maxSweeps: number;
  minSweeps: number;
  siteTolerance: number;
  logZTolerance: number;
}

export interface AndersonOutcome {
  post: Posterior;
  logZ: number;
  cav: Cavities;
  sweeps: number;
  converged: boolean;
  siteChange: number;
  logZChange: number;
  /** The estimate of |log Z_EP - its value at the fixed point| the iteration stopped on (see above). */
  logZError: number;
  history: number[];
  clamped: number;
  /** Points rejected by the safeguards (each cost one sweep). */
  rejected: number;
  /** Sites left unchanged in the first step because their cavity was improper at the given sites. */
  skipped: number;
  /** The mixing at the end (the starting one, halved once per rejection). */
  mixing: number;
}

/**
 * Anderson mixing starts once the residual (in the units of EpOptions.siteTolerance) is below
 * this; further out the parallel map is far from linear and plain damped steps are safer.
 */
const ANDERSON_FROM = 0.1;
/** The posterior marginals a parallel update needs: diag(Sigma) and mu. */
type Marginals = Pick<Posterior, "diagonal" | "mean">;

/** Accepted steps whose |Z_j - Z_{j-1}| / r_{j-1}^2 the log Z error estimate takes the largest of. */
const CURVATURE_STEPS = 3;
/** A residual this many times the smallest seen marks the point as diverging. */
const REJECT_GROWTH = 10;
/** A column of dF whose weighted norm after orthogonalisation falls below this fraction of its own is dropped (near-collinear history). */
const COLLINEAR = 1e-10;

/**
 * The undamped parallel update G(x) - x at the posterior `post` of x = (tau, nu), written to f
 * (tau part first, then nu), and the number of sites whose update was clamped to tau~ = 0.
 * Returns -1 when some cavity is improper (the point is rejected), unless `skip` is given: then
 * such sites get a zero residual and are counted there.
 */
function residual(
  post: Marginals, tau: Float64Array, nu: Float64Array, sites: EpSites, f: Float64Array, tm: TiltedMoments, skip?: { count: number },
): number {
  const n = tau.length;
  const out = { tau: 0, nu: 0 };
  let clamped = 0;
  for (let i = 0; i < n; i++) {
    const r = proposeSite(sites, i, post.diagonal[i], post.mean[i], tau[i], nu[i], 1, tm, out);
    if (r === "skipped" && skip) {
      // at the given starting sites there is no earlier point to return to: the site is left as
      // it is this sweep, as the plain iteration leaves it
      skip.count++;
      f[i] = 0;
      f[n + i] = 0;
      continue;
    }
    if (r === "skipped") return -1;
    if (r === "clamped") clamped++;
    f[i] = out.tau - tau[i];
    f[n + i] = out.nu - nu[i];
  }
  return clamped;
}

/** max_i max(|f_tau,i| Sigma_ii, |f_nu,i| sqrt(Sigma_ii)): the site change of EpOptions.siteTolerance. */
function scaledMax(f: Float64Array, weights: Float64Array): number {
  const n = weights.length / 2;
  let m = 0;
  for (let i = 0; i < 2 * n; i++) {
    const c = Math.abs(f[i]) * weights[i];
    if (!(c <= m)) m = c;
  }
  return m;
}

function weightsOf(diagonal: Float64Array, w: Float64Array): void {
  const n = diagonal.length;
  for (let i = 0; i < n; i++) {
    w[i] = diagonal[i];
    w[n + i] = Math.sqrt(diagonal[i]);
  }
}

/**
 * gamma = argmin || W (f - dF gamma) || by modified Gram-Schmidt on the columns W dF (m <= a few),
 * dropping the oldest columns while the rest are nearly collinear. Returns gamma for the columns
 * kept (the first `dropped` columns of the history get 0).
 */
export function andersonCoefficients(dF: Float64Array[], f: Float64Array, w: Float64Array): Float64Array {
  const m = dF.length;
  const len = f.length;
  const gamma = new Float64Array(m);
  for (let first = 0; first < m; first++) {
    const q: Float64Array[] = [];
    const r = new Float64Array(m * m); // r[i + j m], upper triangular on the kept columns
    let ok = true;
    for (let j = first; j < m && ok; j++) {
      const v = new Float64Array(len);
      let own = 0;
      for (let t = 0; t < len; t++) {
        v[t] = w[t] * dF[j][t];
        own += v[t] * v[t];
      }
      for (let i = 0; i < q.length; i++) {
        let d = 0;
        for (let t = 0; t < len; t++) d += q[i][t] * v[t];
        r[i + (j - first) * m] = d;
        for (let t = 0; t < len; t++) v[t] -= d * q[i][t];
      }
      let nv = 0;
      for (let t = 0; t < len; t++) nv += v[t] * v[t];
      if (!(nv > COLLINEAR * COLLINEAR * own) || !(own > 0)) {
        ok = false;
        break;
      }
      const s = Math.sqrt(nv);
      r[q.length + (j - first) * m] = s;
      for (let t = 0; t < len; t++) v[t] /= s;
      q.push(v);
    }
    if (!ok) continue;
    const k = q.length;
    const rhs = new Float64Array(k);
    for (let i = 0; i < k; i++) {
      let d = 0;
      for (let t = 0; t < len; t++) d += q[i][t] * w[t] * f[t];
      rhs[i] = d;
    }
    for (let i = k - 1; i >= 0; i--) {
      let s = rhs[i];
      for (let j = i + 1; j < k; j++) s -= r[i + j * m] * gamma[first + j];
      gamma[first + i] = s / r[i + i * m];
    }
    return gamma;
  }
  return gamma; // no usable column: the plain step
}

/** Anderson-accelerated parallel EP from the sites (tau, nu), which it updates in place. */
export function andersonParallelEp(k: Matrix, sites: EpSites, tau: Float64Array, nu: Float64Array, opts: AndersonOptions): AndersonOutcome {
  const n = tau.length;
  const work = opts.work ?? sweepWork(n);
  const tm: TiltedMoments = { logZ: 0, mean: 0, variance: 0 };
  let post: Posterior | undefined = opts.start ? undefined : recompute(k, tau, nu, false, work);
  let ev = post ? evaluateLogZ(post, tau, nu, sites) : undefined;
  if (ev && !Number.isFinite(ev.logZ)) throw new Error("EP: log Z_EP is not finite at the starting sites");
  const start: Marginals = post ?? opts.start!;
  let stale = false; // the accepted point's posterior was overwritten by a rejected one's
  let beta = opts.mixing;
  const x = new Float64Array(2 * n);
  x.set(tau);
  x.set(nu, n);
  const f = new Float64Array(2 * n);
  const w = new Float64Array(2 * n);
  const skipped = { count: 0 };
  let clamped = residual(start, tau, nu, sites, f, tm, skipped);
  weightsOf(start.diagonal, w);
  const dX: Float64Array[] = [];
  const dF: Float64Array[] = [];
  let best = scaledMax(f, w);
  let lastSize = best;
  const history: number[] = [];
  let rejected = 0;
  let converged = false;
  let siteChange = Infinity;
  let logZChange = Infinity;
  let logZError = Infinity;
  const curvature: number[] = []; // |Z_j - Z_{j-1}| / r_{j-1}^2 of the last accepted steps
  let sweeps = 0;
  const xNew = new Float64Array(2 * n);
  const tauOld = new Float64Array(n);
  const nuOld = new Float64Array(n);
  let plainStep = false;
  for (let sweep = 1; sweep <= opts.maxSweeps; sweep++) {
    // the next point from x and its residual f
    const plain = plainStep || dF.length === 0 || lastSize > ANDERSON_FROM;
    if (plain) {
      for (let t = 0; t < 2 * n; t++) xNew[t] = x[t] + beta * f[t];
    } else {
      const gamma = andersonCoefficients(dF, f, w);
      for (let t = 0; t < 2 * n; t++) {
        let s = x[t] + beta * f[t];
        for (let j = 0; j < dF.length; j++) s -= (dX[j][t] + beta * dF[j][t]) * gamma[j];
        xNew[t] = s;
      }
    }
    plainStep = false;
    for (let i = 0; i < n; i++) if (!(xNew[i] >= 0)) xNew[i] = 0; // tau~ >= 0, as GPML clamps a site
    tauOld.set(tau);
    nuOld.set(nu);
    tau.set(xNew.subarray(0, n));
    nu.set(xNew.subarray(n));
    const candidate = recompute(k, tau, nu, false, work);
    const evNew = evaluateLogZ(candidate, tau, nu, sites);
    sweeps = sweep;
    const fNew = new Float64Array(2 * n);
    const c = Number.isFinite(evNew.logZ) ? residual(candidate, tau, nu, sites, fNew, tm) : -1;
    const wNew = new Float64Array(2 * n);
    weightsOf(candidate.diagonal, wNew);
    const size = c < 0 ? NaN : scaledMax(fNew, wNew);
    if (!(size <= REJECT_GROWTH * best)) {
      // reject: back to x (its residual f and weights w are kept), plain step with half the mixing
      rejected++;
      tau.set(tauOld);
      nu.set(nuOld);
      beta /= 2;
      dX.length = 0;
      dF.length = 0;
      plainStep = true;
      stale = true;
      continue;
    }
    clamped += c;
    // accept: the history gets x_new - x and f_new - f
    if (opts.memory > 0) {
      const ddx = new Float64Array(2 * n);
      const ddf = new Float64Array(2 * n);
      for (let t = 0; t < 2 * n; t++) {
        ddx[t] = xNew[t] - x[t];
        ddf[t] = fNew[t] - f[t];
      }
      dX.push(ddx);
      dF.push(ddf);
      if (dX.length > opts.memory) {
        dX.shift();
        dF.shift();
      }
    }
    x.set(xNew);
    f.set(fNew);
    w.set(wNew);
    const logZPrev = ev ? ev.logZ : NaN;
    post = candidate;
    stale = false;
    ev = evNew;
    history.push(ev.logZ);
    // A plain step that made no progress (the oscillation of undamped parallel EP): halve the
    // mixing. Anderson steps are not judged so: their residuals need not fall monotonically.
    if (plain && size >= lastSize) beta /= 2;
    logZChange = Math.abs(ev.logZ - logZPrev);
    // the error is quadratic in the residual, c r^2; c from the last few changes (see above)
    if (Number.isFinite(logZChange)) {
      // (no log Z_EP at the starting point when the caller gave its marginals: no change yet)
      curvature.push(lastSize > 0 ? logZChange / (lastSize * lastSize) : logZChange > 0 ? Infinity : 0);
      if (curvature.length > CURVATURE_STEPS) curvature.shift();
    }
    logZError = size === 0 ? 0 : curvature.length > 0 ? Math.max(...curvature) * size * size : Infinity;
    lastSize = size;
    best = Math.min(best, size);
    // How far the sites are from EP's fixed point: the change a plain undamped parallel update
    // would make at the new point, in EpOptions.siteTolerance's units (for plain parallel EP
    // with damping delta the move over a sweep, which the other schedules test, is delta times it).
    siteChange = size;
    if (sweep >= opts.minSweeps && siteChange < opts.siteTolerance && logZError < opts.logZTolerance) {
      converged = true;
      break;
    }
  }
  if (!post || stale) post = recompute(k, tau, nu, false, work);
  ev ??= evaluateLogZ(post, tau, nu, sites);
  return { post, logZ: ev.logZ, cav: ev.cav, sweeps, converged, siteChange, logZChange, logZError, history, clamped, rejected, skipped: skipped.count, mixing: beta };
}
