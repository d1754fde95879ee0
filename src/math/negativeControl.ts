/**
 * Negative controls: deliberately wrong variants of a sampler, or of a step a sampler relies on,
 * which the tests switch on to show that their check (invariance, agreement with a known answer)
 * catches a broken kernel. Every fault is declared here once, with the component it breaks and
 * what it breaks; a component takes its faults through one option, `broken?: FaultOf<"component">`,
 * and passes the same value on to the parts it builds (`faultOf`). Nothing else in src/ breaks a
 * sampler on purpose, and no code path outside the tests sets a fault
 * (test/layout/negativeControls.test.ts).
 */
export const FAULTS = {
  "potential-only": { component: "hmc", breaks: "HMC's accept step on the potential alone, the kinetic energy left out" },
  "no-ghost": { component: "delayed-rejection", breaks: "RMHMC's second stage accepted without the ghost trajectory's test" },
  "last-state": { component: "nuts", breaks: "NUTS moves to the trajectory's last state instead of the multinomial draw" },
  "weights-potential": { component: "nuts", breaks: "NUTS weighs states by exp(L) alone, the kinetic energy left out" },
  "center-precision": { component: "laplace-dynamics", breaks: "the split integrator rotates q about c instead of Sigma^-1 c" },
  "kick-before": { component: "laplace-dynamics", breaks: "the split integrator kicks a whole step before the rotation and none after" },
  "drop-w": { component: "laplace-whitening", breaks: "the Laplace-whitened log p(u) without its 1/2 f' W f term" },
  "stale-log-density": { component: "metropolis-rw", breaks: "random-walk Metropolis keeps the proposal's log density in the state after a rejection" },
  "likelihood-only": { component: "mh-neal", breaks: "MH v1 accepts on the likelihood ratio, as if its proposal were prior-reversible" },
  "full-posterior": { component: "mh-neal", breaks: "MH v2 accepts on the full posterior ratio, counting the prior twice" },
  "full-density-threshold": { component: "elliptical-slice", breaks: "the elliptical slice on the full log density, so the prior counts twice" },
  "bracket-to-zero": { component: "elliptical-slice", breaks: "the elliptical slice's bracket edge shrunk to 0, as the extracted Algorithm 3 reads" },
  "prior-scale": { component: "elliptical-slice", breaks: "the elliptical slice draws z ~ N(0, 2K) instead of N(0, K)" },
  "forward-metric": { component: "smmala", breaks: "SMMALA's reverse density g(f | f') with the metric G(f) of the current point instead of G(f')" },
  "smmala-no-hastings": { component: "smmala", breaks: "SMMALA (and MALA, mMALA, IWLS) without the proposal densities in the ratio" },
  "reverse-without-christoffel": { component: "smmala", breaks: "mMALA's reverse density without the Christoffel drift" },
  "mgrad-no-hastings": { component: "mgrad", breaks: "mgrad without q(x | y) / q(y | x) in the ratio" },
  "draw-variance-a": { component: "mgrad", breaks: "mgrad draws with variance A alone while the ratio keeps A + (2/delta) A^2" },
  "euclidean-reflection": { component: "exact-hmc", breaks: "exact HMC reflects w by flipping w_j alone, not in the whitened coordinates" },
  "f-mean-only": { component: "exact-hmc", breaks: "exact HMC sets f to its conditional mean Sigma z without its noise" },
  "no-squeeze": { component: "holmes-held", breaks: "Holmes & Held take lambda's GIG proposal without its acceptance test" },
  "no-leave-one-out": { component: "holmes-held", breaks: "Holmes & Held draw z_i around the mean that still holds z_i's own contribution" },
  "stale-mean": { component: "holmes-held", breaks: "Holmes & Held draw each z_i given the others' old values (B not updated in the sweep)" },
  "skip-ratio": { component: "mh-componentwise", breaks: "component-wise Metropolis accepts every other proposal without the density ratio" },
  "lagrangian-no-jacobian": { component: "lagrangian", breaks: "Lagrangian Monte Carlo's accept step without the log-determinants (as if volume-preserving)" },
  "x1-variance": { component: "sv-prior", breaks: "the volatilities' x_1 with variance sigma^2 instead of sigma^2 / (1 - phi^2)" },
  "interweave-no-jacobian": { component: "sv-interweave", breaks: "the volatility model's interweaving step without log sigma + log(1 - phi^2)" },
  "gibbs-shape": { component: "hyper-scheme", breaks: "the signal variance's Gibbs draw with shape a + 1 instead of a" },
  "scheme-no-jacobian": { component: "hyper-scheme", breaks: "the theta target without the Jacobian of the log transforms" },
  "no-proposal-density": { component: "khr", breaks: "the KHR move's ratio without q" },
  "pm-first-draw": { component: "pseudo-marginal", breaks: "the pseudo-marginal chain's f is the first importance draw, not one drawn in proportion to the weights" },
  "pm-no-proposal-density": { component: "pseudo-marginal", breaks: "the pseudo-marginal independence move's ratio without the proposal's densities" },
  "unnormalised-q": { component: "ais", breaks: "AIS's weights with log q without its normalising constant" },
  "skip-first-increment": { component: "ais", breaks: "AIS's first increment with a temperature difference of 0" },
  "keep-nu": { component: "cox-hyper-gibbs", breaks: "the Cox field's theta update keeps nu instead of re-whitening w" },
  "non-centred-without-prior": { component: "cox-non-centred", breaks: "phi | nu, y without the prior p(phi)" },
} as const satisfies Readonly<Record<string, { readonly component: string; readonly breaks: string }>>;

/** A negative control, by name. */
export type Fault = keyof typeof FAULTS;

/** A component that has negative controls. */
export type FaultComponent = (typeof FAULTS)[Fault]["component"];

/** The faults of component C (or of any of a union of components). */
export type FaultOf<C extends FaultComponent> = { [F in Fault]: (typeof FAULTS)[F]["component"] extends C ? F : never }[Fault];

/** `broken` when it is one of `component`'s faults, else undefined: what a component passes on to a part it builds. */
export function faultOf<C extends FaultComponent>(component: C, broken: Fault | undefined): FaultOf<C> | undefined {
  return broken !== undefined && FAULTS[broken].component === component ? (broken as FaultOf<C>) : undefined;
}
