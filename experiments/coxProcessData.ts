/**
 * The seeds of the Cox process experiments (experiments/coxProcess.ts, coxProcessHyper.ts): stable
 * hashes of a cell's identity (src/grid/identity.ts's seedOfIdentity), never a loop position; they
 * live with the grid job kind "lgcp-run" (src/grid/coxProcessRunJob.ts).
 */
export { lgcpChainSeed as chainSeedOf, lgcpDataSeed as dataSeed } from "../src/grid/coxProcessRunJob.js";
