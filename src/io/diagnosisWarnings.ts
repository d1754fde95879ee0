/**
 * What a diagnosis read back from files warns of besides the verdict on the draws
 * (diagnostics/verdict.ts): a chain's file that says the run stopped early, chains cut to the
 * shortest, fewer files than the run had chains.
 */

/** One line per problem with the files themselves. */
export function runFileWarnings(
  files: readonly { path: string; draws: number; expectedDraws: number | null; incomplete: boolean }[],
  run: { draws: number; truncated: boolean; lengths: readonly number[]; declaredChains: number | null },
): string[] {
  const out: string[] = [];
  for (const f of files) {
    if (f.incomplete) {
      out.push(`${f.path}: the run stopped early: ${f.draws}${f.expectedDraws !== null ? ` of ${f.expectedDraws}` : ""} draws`);
    }
  }
  if (run.truncated) {
    out.push(`chains cut to their first ${run.draws} draws (the files hold ${run.lengths.join(", ")})`);
  }
  if (run.declaredChains !== null && run.declaredChains > files.length) {
    out.push(`the files say the run had ${run.declaredChains} chains, but ${files.length} ${files.length === 1 ? "file was" : "were"} given`);
  }
  return out;
}
