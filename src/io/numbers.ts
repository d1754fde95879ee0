/**
 * Reading and writing numbers in text files. Reading is strict (Number("0x10") is 16 and
 * Number("") is 0, neither of which a data file means); writing gives the shortest decimal
 * that reads back to the same double, with CmdStan's spellings of the non-finite values.
 */

/** What a text cell holds. */
export type NumberToken =
  | { kind: "number"; value: number }
  | { kind: "nan" }
  | { kind: "infinite"; value: number }
  | { kind: "empty" }
  | { kind: "invalid" };

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const NAN = /^[+-]?(?:nan|na)$/i;
const INF = /^([+-]?)inf(?:inity)?$/i;

/** Classifies a cell (surrounding white space ignored). A decimal beyond the double range is infinite. */
export function readNumber(cell: string): NumberToken {
  const s = cell.trim();
  if (s === "") return { kind: "empty" };
  if (DECIMAL.test(s)) {
    const value = Number(s);
    if (!Number.isFinite(value)) return { kind: "infinite", value };
    return { kind: "number", value };
  }
  if (NAN.test(s)) return { kind: "nan" };
  const m = INF.exec(s);
  if (m) return { kind: "infinite", value: m[1] === "-" ? -Infinity : Infinity };
  return { kind: "invalid" };
}

/**
 * The shortest decimal that reads back as exactly x (ECMAScript's Number-to-String is
 * shortest round-trip), with -0 kept and non-finite values spelt as CmdStan writes them
 * (nan, inf, -inf), which numpy, R's data.table and our reader all accept.
 */
export function formatNumber(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0 && Object.is(x, -0)) return "-0";
  return String(x);
}
