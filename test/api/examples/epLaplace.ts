import { Matrix, expectationPropagation, probitSites, epCorrectedLogZ, epApproximation, laplace, probit, seKernel } from "gpmcmc";

// 12 probit labels at inputs 0, 0.5, ..., 5.5, and their prior covariance K.
const n = 12;
const X = new Matrix(n, 1, Float64Array.from({ length: n }, (_, i) => i / 2));
const y = Float64Array.from({ length: n }, (_, i) => (Math.sin(i / 2) > 0 ? 1 : -1));
const K = seKernel({ lengthscale: 1, signalSd: 2 }).matrix(X);

const ep = expectationPropagation(K, probitSites(y));     // sequential sites (GPML Alg. 3.5); { schedule: "parallel", damping: 0.5 }
ep.logZ; ep.mean; ep.covariance; ep.siteTau; ep.siteNu;   // log Z_EP (eq. 3.65), mu, Sigma, tau~ = Sigma~^-1, nu~
ep.converged; ep.sweeps;                                  // a run that stops unconverged also warns on stderr
const c = epCorrectedLogZ(ep);                            // log Z_EP + R_2 (Opper, Paquet & Winther 2013)
const q = epApproximation(ep);                            // { mean, sitePrecisions }: q for annealedLatentTarget
const lap = laplace(K, y, probit);                        // Newton with line search (GPML Alg. 3.1); any log-concave likelihood
lap.mode; lap.logZ;                                       // f^ and eq. 3.32
console.log(`log Z: EP ${ep.logZ.toFixed(4)}, corrected ${c.logZ.toFixed(4)}, Laplace ${lap.logZ.toFixed(4)}; q has ${q.mean.length} means`);
