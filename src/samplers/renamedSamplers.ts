/**
 * Names a sampler had before its present one, and the one place that knows them. SMMALA
 * (kernels/smmala.ts) was "simplified-mmala" in the parametric registry while the latent registry
 * and the theta samplers called it "smmala"; it is "smmala" everywhere now. The old name lives on
 * only where it was recorded:
 *
 * - in seeds: a parametric experiment's run hashes its sampler's name into its seed (the FNV-1a of
 *   data set, sampler, run in grid/parametricChainJob.ts; "fitzhugh-nagumo sampler=S run=R" in
 *   grid/fitzhughNagumoRunJob.ts; experiments/smmalaAcceptance.ts), and the result files committed
 *   under experiments/results were drawn under the old name. `parametricSeedName` gives the word a
 *   seed hashes, so that those runs draw again bit for bit under the new name. Only the parametric
 *   runs: the latent runs' "smmala" (Table 2's identities) always was "smmala".
 * - in records: result files and run directories (run.json) written before the rename say
 *   "simplified-mmala"; `currentSamplerName` reads them as "smmala".
 * - on the command line: the old name is refused with a line naming the new one (`renamedSampler`).
 */

/** The former name of each renamed sampler, by its present name. */
export const FORMER_SAMPLER_NAMES: { readonly [current: string]: string } = { smmala: "simplified-mmala" };

/** The word a parametric run's seed hashes for sampler `name`: the name its committed runs were made under. */
export function parametricSeedName(name: string): string {
  return FORMER_SAMPLER_NAMES[name] ?? name;
}

/** The present name of a sampler name read from a record (a result file, a run.json); other names as they are. */
export function currentSamplerName(recorded: string): string {
  for (const [current, former] of Object.entries(FORMER_SAMPLER_NAMES)) if (former === recorded) return current;
  return recorded;
}

/** Where `name` is a former name: the message that names the present one (undefined otherwise). */
export function renamedSampler(name: string): string | undefined {
  const current = currentSamplerName(name.trim());
  return current === name.trim() ? undefined : `${JSON.stringify(name.trim())} is now named ${JSON.stringify(current)}`;
}
