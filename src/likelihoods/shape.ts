/** Length checks shared by the vectorised likelihood methods. */

/** Throws a RangeError unless every array has the length of the first. */
export function assertLengths(likelihood: string, method: string, arrays: Record<string, ArrayLike<number> | undefined>): void {
  let n = -1;
  let first = "";
  for (const [name, a] of Object.entries(arrays)) {
    if (a === undefined) continue;
    if (n < 0) {
      n = a.length;
      first = name;
    } else if (a.length !== n) {
      throw new RangeError(`${likelihood} likelihood ${method}: ${name} has length ${a.length}, ${first} has length ${n}`);
    }
  }
}
