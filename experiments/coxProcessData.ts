/**
 * The seeds of the Cox process experiments (experiments/coxProcess.ts, coxProcessHyper.ts): stable
 * hashes of a cell's identity (experiments/table2.ts's seedOfIdentity), never a loop position.
 */
import { seedOfIdentity } from "./table2.js";

/** The covariance in a cell's identity: the separable runs came first and keep their identities. */
const covarianceTag = (covariance: string): string => (covariance === "separable" ? "" : ` covariance=${covariance}`);

/** The seed of the simulated data on an n x n grid (31 bits: simulateCoxProcess takes a number). */
export const dataSeed = (side: number, covariance = "separable"): number => Number(seedOfIdentity(`lgcp data grid=${side}${covarianceTag(covariance)}`) % 2147483647n);

/** The seed of one chain of Table 13. */
export const chainSeedOf = (side: number, sampler: string, run: number, covariance = "separable"): bigint => seedOfIdentity(`lgcp table13 grid=${side} sampler=${sampler} run=${run}${covarianceTag(covariance)}`);
