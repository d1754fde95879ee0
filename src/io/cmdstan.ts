/**
 * Draws files in CmdStan's layout (CmdStan guide, "Stan CSV File Format"), one file per chain,
 * so that ArviZ's `from_cmdstan` and R's `cmdstanr::read_cmdstan_csv` (posterior draws
 * objects) read them without changes:
 *
 *   # key = value              configuration comments, CmdStan's indented tree
 *   lp__,accept_stat__,stepsize__,n_leapfrog__,divergent__,energy__,f.1,...,f.n
 *   # Adaptation terminated    after burn-in, before the first draw
 *   # Step size = 0.1
 *   -12.3,0.98,0.1,10,0,14.2,0.31,...      one row per kept draw
 *   #
 *   #  Elapsed Time: 1.2 seconds (Warm-up)
 *   #                3.4 seconds (Sampling)
 *   #                4.6 seconds (Total)
 *   #
 *
 * What the two readers need, and why each line looks as it does:
 * - cmdstanr requires `method = sample`, `save_warmup`, `thin`, `num_warmup`, `num_samples`
 *   and `id` among the comments (it splits each on "=" and trims; it errors without them);
 * - ArviZ takes `Step size = x`, the line after "inverse mass matrix" as comma-separated
 *   numbers, and the three "seconds (Warm-up|Sampling|Total)" lines as floats; so no other
 *   comment may contain those phrases;
 * - both split the header on "," (no trailing comma) and treat names ending in "__" as sampler
 *   columns, the rest as variables; `f.1` is element 1 of `f` (cmdstanr shows it as `f[1]`);
 * - numbers are plain decimals, and nan / inf / -inf as CmdStan spells them.
 * We write all digits needed to read the same double back (CmdStan's default is 6).
 */
export {
  SAMPLER_COLUMNS,
  CmdStanWriter,
  configComments,
  drawStatsFrom,
  drawsFileName,
  vectorNames,
  writeCmdStanCsv,
} from "./cmdstanWriter.js";
export type { ChainDraws, CmdStanRunInfo, DrawStats, Timing } from "./cmdstanWriter.js";
export { columnValues, findDrawsFiles, parseCmdStanCsv, readCmdStanCsv } from "./cmdstanReader.js";
export type { CmdStanCsv } from "./cmdstanReader.js";
