/**
 * Checking a committed Table 2 run: recompute some of its cells and compare them with the file,
 * bit for bit or to a tolerance (`node dist/experiments/table2.js --check FILE [filters]`).
 */
import { sameFigures } from "./experimentScript.js";
import type { Table2Cell, Table2Config, Table2Result } from "./table2Types.js";

/** A cell's reproducible content: everything but its timing, as JSON stores it (Infinity and NaN become null). */
function cellNumbers(c: Table2Cell): unknown {
  const { seconds: _seconds, ...rest } = c;
  return JSON.parse(JSON.stringify(rest));
}

/**
 * Compares recomputed cells with committed ones, field by field, bit for bit (JSON numbers
 * round-trip exactly) at tolerance 0, else to `tolerance` (sameFigures); orderings are compared
 * where the recomputation has the whole row of the committed file's samplers. Returns one line
 * per difference (empty: the same figures).
 */
export function compareTable2(committed: Table2Result, recomputed: Table2Result, tolerance = 0): string[] {
  const diffs: string[] = [];
  for (const c of recomputed.cells) {
    const name = `${c.likelihood} n=${c.n} d=${c.d} ${c.sampler}`;
    const k = committed.cells.find((x) => x.likelihood === c.likelihood && x.sampler === c.sampler && x.n === c.n && x.d === c.d);
    if (!k) {
      diffs.push(`${name}: not in the committed file`);
      continue;
    }
    const a = cellNumbers(k) as Record<string, unknown>;
    const b = cellNumbers(c) as Record<string, unknown>;
    for (const key of Object.keys(a)) {
      if (!sameFigures(a[key], b[key], tolerance)) diffs.push(`${name}: ${key} committed ${JSON.stringify(a[key])}, recomputed ${JSON.stringify(b[key])}`);
    }
  }
  const sameSamplers = JSON.stringify(recomputed.config.samplers) === JSON.stringify(committed.config.samplers);
  if (sameSamplers) {
    for (const o of recomputed.orderings) {
      const k = committed.orderings.find((x) => x.likelihood === o.likelihood && x.n === o.n && x.d === o.d);
      if (k && k.text !== o.text) diffs.push(`ordering ${o.likelihood} n=${o.n} d=${o.d}: committed ${k.text}, recomputed ${o.text}`);
    }
  }
  return diffs;
}

/**
 * The configuration of a committed run narrowed to the likelihoods, samplers and settings that
 * `args` name (`asked` is what parseTable2Args made of them); everything else (draws, chains, seed, ...)
 * is the committed run's. Asking for a cell the file does not hold is an error.
 */
export function narrowConfig(committed: Table2Config, args: string[], asked: Table2Config): Table2Config {
  const pick = <T>(name: string, given: boolean, wanted: T[], have: T[], key: (x: T) => string): T[] => {
    if (!given) return have;
    for (const w of wanted) if (!have.some((h) => key(h) === key(w))) throw new Error(`${name}: ${key(w)} is not in the committed run (it has ${have.map(key).join(", ")})`);
    return have.filter((h) => wanted.some((w) => key(w) === key(h)));
  };
  const has = (name: string) => args.includes(name);
  return {
    ...committed,
    likelihoods: pick("--likelihoods", has("--likelihoods"), asked.likelihoods, committed.likelihoods, String),
    samplers: pick("--samplers", has("--samplers"), asked.samplers, committed.samplers, String),
    settings: committed.settings.filter((s) => (!has("--n") || asked.settings.some((a) => a.n === s.n)) && (!has("--d") || asked.settings.some((a) => a.d === s.d))),
  };
}

