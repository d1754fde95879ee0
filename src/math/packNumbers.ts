/**
 * Numbers of several arrays laid end to end in one Float64Array, as the checkpoints of chains
 * keep their states. Copied piece by piece, never spread into a call's arguments: a state may
 * hold n x n factors, more numbers than a call takes (a spread of them overflows the stack).
 */
export function packNumbers(pieces: readonly ArrayLike<number>[]): Float64Array {
  let length = 0;
  for (const p of pieces) length += p.length;
  const out = new Float64Array(length);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
