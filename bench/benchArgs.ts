// What the hyperparameter benchmarks share: an option's value from the command line, and a seed
// from a cell's identity (FNV-1a of its name), never from a loop position.

/** The value after `name` on the command line, or `fallback`. */
export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : fallback;
}

/** A seed in [0, 2^31) from a cell's identity (FNV-1a, 32 bits). */
export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h % 2 ** 31;
}
