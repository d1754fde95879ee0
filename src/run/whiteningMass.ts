/**
 * The whitening of `laplace-hmc` and `laplace-nuts` (samplers/kernels/laplaceWhitening.ts): the diagonal
 * W of the metric K^-1 + W, so that (K^-1 + W)^-1 is a Gaussian approximation's covariance of
 * f | y, theta. Two are offered:
 * - "laplace": Laplace's W at the mode (GPML Algorithm 3.1, approx/laplace.ts);
 * - "ep": EP's site precisions tau~ (GPML Algorithm 3.5, approx/ep.ts), whose Gaussian is closer
 *   to the probit posterior than Laplace's (Kuss & Rasmussen 2005; BENCHMARKS.md, "laplace-nuts
 *   whitened by EP's covariance", measures what it gives). It needs EP sites for the likelihood (probit here).
 * The default is "ep" for laplace-nuts where the likelihood has EP sites, "laplace" otherwise.
 * Either W leaves the sampler exact (the change of variables is a fixed linear map); W only sets
 * its efficiency. So when EP fails (no convergence, an error, a site that is not finite) the run
 * goes on whitened by Laplace, with a warning.
 *
 * For laplace-nuts the Gaussian's mean (EP's mean, Laplace's mode) is filled in too, as the
 * centre of its split integrator (samplers/integrators/laplaceDynamics.ts).
 *
 * W is filled into the sampler's spec as plain numbers, so that worker threads rebuild the same
 * kernel without refitting; the samplers layer cannot call approx/ itself. The fit is timed here
 * (CPU and wall-clock seconds), as it belongs to the run's warm-up.
 */
import { expectationPropagation, type EpOptions } from "../approx/ep.js";
import { laplace, NotLogConcaveError } from "../approx/laplace.js";
import type { EpSites } from "../likelihoods/epSites.js";
import { likelihoodTraits } from "../likelihoods/registry.js";
import type { LatentSamplerSpec, WhiteningName } from "../samplers/registry.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";

/**
 * EP's settings for a whitening: the parallel schedule with Anderson mixing (about half the CPU of
 * the sequential one at n = 100-1000), to 1e-4 in the site change: W to a few digits is all a
 * metric needs, and it saves 20-40% of the sweeps of the default 1e-6.
 */
export const WHITENING_EP_OPTIONS: Readonly<EpOptions> = { schedule: "parallel", siteTolerance: 1e-4, logZTolerance: 1e-4 };

/** What the whitening of a run was fitted from, and what the fit cost. */
export interface WhiteningFit {
  /** What was asked for (the spec's, or the default). */
  requested: WhiteningName;
  /** What W came from: "laplace" when EP was asked for and failed; "fisher" when Laplace could not be fitted either (a likelihood that is not log-concave: the Fisher information at f = 0). */
  used: WhiteningName | "fisher";
  /** CPU seconds of this process spent fitting (EP, and Laplace after a failed EP). */
  cpuSeconds: number;
  /** Wall-clock seconds of the same. */
  wallSeconds: number;
  /** EP's sweeps, when EP was run. */
  epSweeps?: number;
  /** Why EP was not used, when it was asked for and failed. */
  fallback?: string;
}

/** EP sites of the target's likelihood (the likelihood registry's), or undefined where it has none. */
function epSitesOf(target: AnnealedLatentTarget): EpSites | undefined {
  return likelihoodTraits(target.likelihood.name)?.epSites?.(target.y);
}

/** Whether EP can whiten this target: a likelihood with EP sites, at beta = 1 (EP's sites are those of the full likelihood), with the prior as the Gaussian part. */
export function epWhiteningAvailable(target: AnnealedLatentTarget): boolean {
  return target.beta === 1 && target.qIsPrior && likelihoodTraits(target.likelihood.name)?.epSites !== undefined;
}

/** The whitening a laplace-hmc or laplace-nuts spec gets when it names none. */
export function defaultWhitening(sampler: "laplace-hmc" | "laplace-nuts", likelihood: string): WhiteningName {
  return sampler === "laplace-nuts" && likelihoodTraits(likelihood)?.epSites !== undefined ? "ep" : "laplace";
}

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Options of `withWhiteningMass`. */
export interface WhiteningOptions {
  /** Told (one line) when EP fails and Laplace is used instead (default: stderr). */
  onWarning?: (message: string) => void;
  /** EP's settings (default WHITENING_EP_OPTIONS). */
  ep?: EpOptions;
}

/**
 * `spec` with `massDiagonal` set to beta times the W of its whitening (`spec.whitening`, or the
 * default), for a laplace-hmc or laplace-nuts spec that has none and a target whose Gaussian part
 * is the prior; any other spec as it is (fit undefined). A likelihood that is not log-concave
 * keeps the sampler's own default (the Fisher information at f = 0).
 */
export function withWhiteningMass(target: AnnealedLatentTarget, spec: LatentSamplerSpec, options: WhiteningOptions = {}): { spec: LatentSamplerSpec; fit?: WhiteningFit } {
  if ((spec.sampler !== "laplace-hmc" && spec.sampler !== "laplace-nuts") || spec.massDiagonal !== undefined || !target.qIsPrior) return { spec };
  const warn = options.onWarning ?? ((m: string) => void process.stderr.write(m + "\n"));
  const requested = spec.whitening ?? defaultWhitening(spec.sampler, target.likelihood.name);
  const cpu0 = cpuSeconds();
  const wall0 = performance.now();
  // laplace-nuts also gets the Gaussian's mean, the centre of its split integrator (at beta < 1,
  // an annealed target, shrunk by beta towards the prior's mean 0: any centre keeps it exact).
  const done = (w: ArrayLike<number> | undefined, mean: ArrayLike<number> | undefined, used: WhiteningFit["used"], extra: Partial<WhiteningFit> = {}) => ({
    spec: w === undefined ? spec : {
      ...spec,
      massDiagonal: Array.from(w, (v) => Math.max(0, v) * target.beta),
      ...(spec.sampler === "laplace-nuts" && mean ? { center: Array.from(mean, (m) => m * target.beta) } : {}),
    },
    fit: { requested, used, cpuSeconds: cpuSeconds() - cpu0, wallSeconds: (performance.now() - wall0) / 1e3, ...extra },
  });
  let fallback: string | undefined;
  let epSweeps: number | undefined;
  if (requested === "ep") {
    const ep = fitEp(target, options.ep ?? WHITENING_EP_OPTIONS);
    if (typeof ep !== "string") return done(ep.siteTau, ep.mean, "ep", { epSweeps: ep.sweeps });
    fallback = ep;
    warn(`${spec.sampler}: EP whitening not used (${ep}); whitened by Laplace's covariance at the mode instead`);
  }
  try {
    const fit = laplace(target.kernelMatrix, target.y, target.likelihood, { onWarning: () => undefined });
    return done(fit.w, fit.mode, "laplace", { fallback, epSweeps });
  } catch (e) {
    if (e instanceof NotLogConcaveError) return done(undefined, undefined, "fisher", { fallback, epSweeps });
    throw e;
  }
}

/** EP's site precisions, or why there are none to use. */
function fitEp(target: AnnealedLatentTarget, epOptions: EpOptions): { siteTau: Float64Array; mean: Float64Array; sweeps: number } | string {
  if (!epWhiteningAvailable(target)) return `the ${target.likelihood.name} likelihood has no EP sites`;
  try {
    const sites = epSitesOf(target)!;
    const ep = expectationPropagation(target.kernelMatrix, sites, { ...epOptions, onWarning: () => undefined });
    if (!ep.converged) return `EP did not converge in ${ep.sweeps} sweeps (site change ${ep.siteChange.toPrecision(3)})`;
    for (let i = 0; i < ep.siteTau.length; i++) {
      if (!(ep.siteTau[i] >= 0 && Number.isFinite(ep.siteTau[i]))) return `EP's site precision ${i + 1} is ${ep.siteTau[i]}`;
    }
    for (let i = 0; i < ep.mean.length; i++) {
      if (!Number.isFinite(ep.mean[i])) return `EP's mean ${i + 1} is ${ep.mean[i]}`;
    }
    return { siteTau: ep.siteTau, mean: ep.mean, sweeps: ep.sweeps };
  } catch (e) {
    return `EP failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}
