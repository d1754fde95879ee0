/**
 * Sorting permutations and average ranks of Float64Arrays in O(S): an LSD radix sort on the
 * 64-bit patterns of the values, mapped so that unsigned order is numeric order (flip every
 * bit of a negative number, only the sign bit of a non-negative one). Rank normalisation
 * needs the rank of every draw of every variable -- hundreds of thousands per variable --
 * and comparison sorts of index arrays or binary searches into the sorted values are several
 * times slower in JavaScript (the latter from cache misses).
 */

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
// Which of the two 32-bit words holds the high half of a double on this platform.
f64[0] = 1; // 0x3FF00000_00000000
const HI = u32[1] === 0x3ff00000 ? 1 : 0;
const LO = 1 - HI;

/**
 * The permutation that sorts `values` ascending (stable; values must not be NaN; -0 sorts
 * before +0, which compare equal, so callers that detect ties must compare values, not keys).
 */
export function argsort(values: Float64Array): Uint32Array {
  const n = values.length;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    f64[0] = values[i];
    const h = u32[HI], l = u32[LO];
    if (h & 0x80000000) {
      hi[i] = ~h >>> 0;
      lo[i] = ~l >>> 0;
    } else {
      hi[i] = (h | 0x80000000) >>> 0;
      lo[i] = l;
    }
  }
  let order = new Uint32Array(n);
  let next = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const counts = new Uint32Array(65536);
  // Four stable counting-sort passes on 16-bit digits, least significant first.
  for (let pass = 0; pass < 4; pass++) {
    const words = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(words[i] >>> shift) & 0xffff]++;
    if (counts[(words[0] >>> shift) & 0xffff] === n) continue; // one digit value: nothing to do
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const k = order[i];
      next[counts[(words[k] >>> shift) & 0xffff]++] = k;
    }
    const t = order;
    order = next;
    next = t;
  }
  return order;
}

/**
 * Average ranks 1..S of `values` (ties share the mean of the ranks they span: R's
 * rank(ties.method = "average"), scipy's rankdata). Values must not be NaN.
 */
export function averageRanks(values: Float64Array): Float64Array {
  const n = values.length;
  const order = argsort(values);
  const ranks = new Float64Array(n);
  for (let i = 0; i < n; ) {
    const v = values[order[i]];
    let j = i + 1;
    while (j < n && values[order[j]] === v) j++;
    const r = (i + 1 + j) / 2; // mean of i+1 .. j
    for (let k = i; k < j; k++) ranks[order[k]] = r;
    i = j;
  }
  return ranks;
}
