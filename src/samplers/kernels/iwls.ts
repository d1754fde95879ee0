/**
 * Iterated weighted least squares as a Metropolis-Hastings proposal (Gamerman 1997; Girolami &
 * Calderhead 2011, Section 7.1.5): at beta, one Fisher-scoring step of the weighted least-squares
 * problem with working response z = X beta + Lambda^-1 (y - s) and the prior's precision,
 *
 *   beta' ~ N(m, C),  C = (X' Lambda X + I/alpha)^-1 = G(beta)^-1,  m = C X' Lambda z = beta + G^-1 dL/dbeta,
 *
 * accepted with the reverse density at beta'. In terms of the metric that is the manifold
 * Langevin proposal of smmala.ts with drift coefficient 1 and covariance G^-1 (stepSize 1), so it
 * runs as that kernel. Nothing to tune: the kernel offers no tunable.
 */
import type { Target } from "../../targets/types.js";
import { smmala } from "./smmala.js";
import type { Kernel } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** `broken`: the negative controls of smmala.ts, for tests. */
export function iwls(target: Target, broken?: FaultOf<"smmala">): Kernel {
  const k = smmala(target, { stepSize: 1, newtonDrift: true, broken });
  return { name: "iwls", init: k.init, step: k.step };
}
