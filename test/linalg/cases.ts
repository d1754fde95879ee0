/**
 * Test cases for every backend routine in every variant: inputs with leading dimensions larger
 * than the matrices (so routines must honour lda), NaN in the parts a routine must not read
 * (padding, the other triangle, a unit diagonal) and SENTINEL in the parts of an output it must
 * not write; each case checks its result against naive loops written here with a rounding-error
 * bound entry by entry (|error| <= c * u * (sum of |terms|)), never against a backend.
 */
import type { Diag, LinalgBackend, Side, Trans, Uplo } from "../../src/linalg/index.js";
import { compare, EPS, makeMatrix, makeRng, opAt, paddingIntact, SENTINEL, spdEntries } from "./helpers.js";

export interface Case {
  label: string;
  /** Runs the routine on fresh copies of the inputs; returns the output array. */
  exec(be: LinalgBackend): Float64Array;
  /** "" when the output is right, else what is wrong. */
  verify(out: Float64Array): string;
}

const tolFor = (k: number) => 4 * (k + 3) * EPS;

/** A random triangular k x k matrix, diagonal in +-[1, 2]; NaN where it must not be read. */
function triangular(k: number, lda: number, uplo: Uplo, diag: Diag, seed: number): Float64Array {
  const rng = makeRng(seed);
  return makeMatrix(k, k, lda, (i, j) => {
    if (i === j) return diag === "U" ? NaN : (rng.uniform() < 0.5 ? -1 : 1) * (1 + rng.uniform());
    if ((uplo === "L") !== (i > j)) return NaN;
    return rng.normal() / Math.sqrt(k);
  });
}

/** Entry (i, j) of op(A) for a triangular A as the routine must see it. */
function triAt(a: Float64Array, lda: number, uplo: Uplo, trans: Trans, diag: Diag, i: number, j: number): number {
  const r = trans === "N" ? i : j;
  const c = trans === "N" ? j : i;
  if (r === c) return diag === "U" ? 1 : a[r + c * lda];
  if ((uplo === "L") !== (r > c)) return 0;
  return a[r + c * lda];
}

export function potrfCase(n: number, uplo: Uplo, entries = spdEntries(n, 1000 + n), ldExtra = 3): Case {
  const lda = n + ldExtra;
  // The referenced triangle holds A; the other one and the padding hold SENTINEL, which potrf must leave alone.
  const a0 = makeMatrix(n, n, lda, (i, j) => ((uplo === "L" ? i >= j : i <= j) ? entries(i, j) : SENTINEL), SENTINEL);
  return {
    label: `potrf ${uplo} n=${n} lda=${lda}`,
    exec(be) {
      const a = a0.slice();
      const info = be.potrf(uplo, n, a, lda);
      if (info !== 0) throw new Error(`potrf returned info ${info} for an SPD matrix`);
      return a;
    },
    verify(f) {
      if (!paddingIntact(f, n, n, lda)) return "padding was written";
      const t = (i: number, k: number) => (uplo === "L" ? f[i + k * lda] : f[k + i * lda]); // L[i, k] (= U[k, i])
      const want = new Float64Array(n * n);
      const got = new Float64Array(n * n);
      const bound = new Float64Array(n * n);
      let normErr = 0;
      let normA = 0;
      for (let j = 0; j < n; j++) {
        for (let i = 0; i < n; i++) {
          const inTri = uplo === "L" ? i >= j : i <= j;
          if (!inTri) {
            if (f[i + j * lda] !== SENTINEL) return `the other triangle was written at (${i}, ${j})`;
            continue;
          }
          const [r, c] = uplo === "L" ? [i, j] : [j, i]; // A[r, c], r >= c
          let s = 0;
          let b = 0;
          for (let k = 0; k <= c; k++) {
            s += t(r, k) * t(c, k);
            b += Math.abs(t(r, k) * t(c, k));
          }
          got[i + j * n] = s;
          want[i + j * n] = entries(r, c);
          bound[i + j * n] = b;
          normErr = Math.max(normErr, Math.abs(s - entries(r, c)));
          normA = Math.max(normA, Math.abs(entries(r, c)));
        }
      }
      // Componentwise backward error |L L' - A| <= c n u |L| |L'|, and the normwise 1e-12 asked for.
      const e = compare(got, want, bound, n, n, n, tolFor(n));
      if (e) return `L L' != A: ${e}`;
      if (n > 0 && !(normErr <= 1e-12 * normA)) return `max |L L' - A| / max |A| = ${normErr / normA}`;
      return "";
    },
  };
}

export function trsmCase(side: Side, uplo: Uplo, trans: Trans, diag: Diag, m: number, n: number): Case {
  const k = side === "L" ? m : n;
  const lda = k + 2;
  const ldb = m + 1;
  const seed = 7 * m + 13 * n + (side === "L" ? 1 : 0) + (uplo === "L" ? 2 : 0) + (trans === "N" ? 4 : 0) + (diag === "N" ? 8 : 0);
  const a = triangular(k, lda, uplo, diag, seed);
  const rng = makeRng(seed + 1);
  const b0 = makeMatrix(m, n, ldb, () => rng.normal(), SENTINEL);
  const alpha = 0.75;
  return {
    label: `trsm side=${side} uplo=${uplo} trans=${trans} diag=${diag} m=${m} n=${n}`,
    exec(be) {
      const b = b0.slice();
      be.trsm(side, uplo, trans, diag, m, n, alpha, a.slice(), lda, b, ldb);
      return b;
    },
    verify(x) {
      if (!paddingIntact(x, m, n, ldb)) return "padding of B was written";
      // Residual: op(A) X = alpha B (side L) or X op(A) = alpha B (side R), with the
      // componentwise backward-error bound of a triangular solve, c k u |op(A)| |X|.
      const got = new Float64Array(m * n);
      const want = new Float64Array(m * n);
      const bound = new Float64Array(m * n);
      for (let j = 0; j < n; j++) {
        for (let i = 0; i < m; i++) {
          let s = 0;
          let bd = 0;
          for (let l = 0; l < k; l++) {
            const t = side === "L" ? triAt(a, lda, uplo, trans, diag, i, l) * x[l + j * ldb] : x[i + l * ldb] * triAt(a, lda, uplo, trans, diag, l, j);
            s += t;
            bd += Math.abs(t);
          }
          got[i + j * m] = s;
          want[i + j * m] = alpha * b0[i + j * ldb];
          bound[i + j * m] = bd + Math.abs(want[i + j * m]);
        }
      }
      return compare(got, want, bound, m, n, m, tolFor(k));
    },
  };
}

export function trsvCase(uplo: Uplo, trans: Trans, diag: Diag, n: number): Case {
  const lda = n + 2;
  const seed = 31 * n + (uplo === "L" ? 2 : 0) + (trans === "N" ? 4 : 0) + (diag === "N" ? 8 : 0);
  const a = triangular(n, lda, uplo, diag, seed);
  const rng = makeRng(seed + 1);
  const x0 = Float64Array.from({ length: n }, () => rng.normal());
  return {
    label: `trsv uplo=${uplo} trans=${trans} diag=${diag} n=${n}`,
    exec(be) {
      // The vector is a view into a larger buffer: the routine must touch only its n entries.
      const buf = new Float64Array(n + 4).fill(SENTINEL);
      buf.set(x0, 2);
      be.trsv(uplo, trans, diag, n, a.slice(), lda, buf.subarray(2, 2 + n));
      return buf;
    },
    verify(buf) {
      if (buf[0] !== SENTINEL || buf[1] !== SENTINEL || buf[n + 2] !== SENTINEL || buf[n + 3] !== SENTINEL) return "wrote outside the vector view";
      const x = buf.subarray(2, 2 + n);
      const got = new Float64Array(n);
      const bound = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        for (let l = 0; l < n; l++) {
          const t = triAt(a, lda, uplo, trans, diag, i, l) * x[l];
          got[i] += t;
          bound[i] += Math.abs(t);
        }
        bound[i] += Math.abs(x0[i]);
      }
      return compare(got, x0, bound, n, 1, n, tolFor(n));
    },
  };
}

export function syrkCase(uplo: Uplo, trans: Trans, n: number, k: number, alpha = -0.6, beta = 0.4): Case {
  const rows = trans === "N" ? n : k;
  const cols = trans === "N" ? k : n;
  const lda = rows + 2;
  const ldc = n + 1;
  const rng = makeRng(97 * n + 5 * k + (uplo === "L" ? 1 : 0) + (trans === "N" ? 2 : 0));
  const a = makeMatrix(rows, cols, lda, () => rng.normal());
  const inTri = (i: number, j: number) => (uplo === "L" ? i >= j : i <= j);
  // beta = 0 must overwrite C: start from NaN then.
  const c0 = makeMatrix(n, n, ldc, (i, j) => (inTri(i, j) ? (beta === 0 ? NaN : rng.normal()) : SENTINEL), SENTINEL);
  return {
    label: `syrk uplo=${uplo} trans=${trans} n=${n} k=${k} alpha=${alpha} beta=${beta}`,
    exec(be) {
      const c = c0.slice();
      be.syrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
      return c;
    },
    verify(c) {
      if (!paddingIntact(c, n, n, ldc)) return "padding of C was written";
      const want = new Float64Array(n * ldc);
      const bound = new Float64Array(n * ldc);
      for (let j = 0; j < n; j++) {
        for (let i = 0; i < n; i++) {
          const p = i + j * ldc;
          if (!inTri(i, j)) {
            if (c[p] !== SENTINEL) return `the other triangle was written at (${i}, ${j})`;
            want[p] = SENTINEL;
            continue;
          }
          let s = 0;
          let b = 0;
          for (let l = 0; l < k; l++) {
            const t = opAt(a, lda, trans, i, l) * opAt(a, lda, trans, j, l);
            s += t;
            b += Math.abs(t);
          }
          const cb = beta === 0 ? 0 : beta * c0[p];
          want[p] = alpha * s + cb;
          bound[p] = Math.abs(alpha) * b + Math.abs(cb);
        }
      }
      return compare(c, want, bound, n, n, ldc, tolFor(k));
    },
  };
}

export function gemmCase(tA: Trans, tB: Trans, m: number, n: number, k: number, alpha = 1.3, beta = -0.5): Case {
  const [ar, ac] = tA === "N" ? [m, k] : [k, m];
  const [br, bc] = tB === "N" ? [k, n] : [n, k];
  const lda = ar + 1;
  const ldb = br + 3;
  const ldc = m + 2;
  const rng = makeRng(11 * m + 17 * n + 23 * k + (tA === "N" ? 1 : 0) + (tB === "N" ? 2 : 0));
  const a = makeMatrix(ar, ac, lda, () => rng.normal());
  const b = makeMatrix(br, bc, ldb, () => rng.normal());
  const c0 = makeMatrix(m, n, ldc, () => (beta === 0 ? NaN : rng.normal()), SENTINEL);
  return {
    label: `gemm transA=${tA} transB=${tB} m=${m} n=${n} k=${k} alpha=${alpha} beta=${beta}`,
    exec(be) {
      const c = c0.slice();
      be.gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      return c;
    },
    verify(c) {
      if (!paddingIntact(c, m, n, ldc)) return "padding of C was written";
      const want = new Float64Array(c.length);
      const bound = new Float64Array(c.length);
      for (let j = 0; j < n; j++) {
        for (let i = 0; i < m; i++) {
          let s = 0;
          let bd = 0;
          for (let l = 0; l < k; l++) {
            const t = opAt(a, lda, tA, i, l) * opAt(b, ldb, tB, l, j);
            s += t;
            bd += Math.abs(t);
          }
          const p = i + j * ldc;
          const cb = beta === 0 ? 0 : beta * c0[p];
          want[p] = alpha * s + cb;
          bound[p] = Math.abs(alpha) * bd + Math.abs(cb);
        }
      }
      return compare(c, want, bound, m, n, ldc, tolFor(k));
    },
  };
}

export function gemvCase(trans: Trans, m: number, n: number, alpha = 0.9, beta = 0.3): Case {
  const lda = m + 2;
  const rng = makeRng(41 * m + 43 * n + (trans === "N" ? 1 : 0));
  const a = makeMatrix(m, n, lda, () => rng.normal());
  const [lx, ly] = trans === "N" ? [n, m] : [m, n];
  const x = Float64Array.from({ length: lx }, () => rng.normal());
  const y0 = Float64Array.from({ length: ly }, () => (beta === 0 ? NaN : rng.normal()));
  return {
    label: `gemv trans=${trans} m=${m} n=${n} alpha=${alpha} beta=${beta}`,
    exec(be) {
      const y = y0.slice();
      be.gemv(trans, m, n, alpha, a, lda, x, beta, y);
      return y;
    },
    verify(y) {
      const want = new Float64Array(ly);
      const bound = new Float64Array(ly);
      for (let i = 0; i < ly; i++) {
        let s = 0;
        let b = 0;
        for (let l = 0; l < lx; l++) {
          const t = opAt(a, lda, trans, i, l) * x[l];
          s += t;
          b += Math.abs(t);
        }
        const yb = beta === 0 ? 0 : beta * y0[i];
        want[i] = alpha * s + yb;
        bound[i] = Math.abs(alpha) * b + Math.abs(yb);
      }
      return compare(y, want, bound, ly, 1, ly, tolFor(lx));
    },
  };
}

export function symvCase(uplo: Uplo, n: number, alpha = -1.1, beta = 0.7): Case {
  const lda = n + 1;
  const rng = makeRng(53 * n + (uplo === "L" ? 1 : 0));
  const full = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i <= j; i++) full[i + j * n] = full[j + i * n] = rng.normal();
  // Only the uplo triangle is stored; the other holds NaN, which symv must not read.
  const a = makeMatrix(n, n, lda, (i, j) => ((uplo === "L" ? i >= j : i <= j) ? full[i + j * n] : NaN));
  const x = Float64Array.from({ length: n }, () => rng.normal());
  const y0 = Float64Array.from({ length: n }, () => rng.normal());
  return {
    label: `symv uplo=${uplo} n=${n} alpha=${alpha} beta=${beta}`,
    exec(be) {
      const y = y0.slice();
      be.symv(uplo, n, alpha, a, lda, x, beta, y);
      return y;
    },
    verify(y) {
      const want = new Float64Array(n);
      const bound = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let s = 0;
        let b = 0;
        for (let l = 0; l < n; l++) {
          s += full[i + l * n] * x[l];
          b += Math.abs(full[i + l * n] * x[l]);
        }
        want[i] = alpha * s + beta * y0[i];
        bound[i] = Math.abs(alpha) * b + Math.abs(beta * y0[i]);
      }
      return compare(y, want, bound, n, 1, n, tolFor(n));
    },
  };
}

const UPLOS: Uplo[] = ["L", "U"];
const TRANS: Trans[] = ["N", "T"];
const SIDES: Side[] = ["L", "R"];
const DIAGS: Diag[] = ["N", "U"];

/** Every routine in every variant at one size: square and rectangular shapes. */
export function casesAt(s: number): Case[] {
  const out: Case[] = [];
  for (const uplo of UPLOS) out.push(potrfCase(s, uplo));
  for (const side of SIDES) for (const uplo of UPLOS) for (const trans of TRANS) for (const diag of DIAGS) {
    out.push(trsmCase(side, uplo, trans, diag, s, s));
    // A rectangular right-hand side, wider or taller than the triangle.
    out.push(side === "L" ? trsmCase(side, uplo, trans, diag, s, Math.max(1, (s >> 1) + 3)) : trsmCase(side, uplo, trans, diag, Math.max(1, (s >> 1) + 3), s));
  }
  for (const uplo of UPLOS) for (const trans of TRANS) for (const diag of DIAGS) out.push(trsvCase(uplo, trans, diag, s));
  for (const uplo of UPLOS) for (const trans of TRANS) {
    out.push(syrkCase(uplo, trans, s, s));
    out.push(syrkCase(uplo, trans, s, s + 5, 1, 0));
  }
  for (const tA of TRANS) for (const tB of TRANS) {
    out.push(gemmCase(tA, tB, s, s, s));
    out.push(gemmCase(tA, tB, s, s + 3, (s >> 1) + 1, -0.4, 0));
  }
  for (const trans of TRANS) {
    out.push(gemvCase(trans, s, s));
    out.push(gemvCase(trans, s, s + 2, 1, 0));
  }
  for (const uplo of UPLOS) out.push(symvCase(uplo, s));
  return out;
}

/** Empty shapes (n, m or k = 0): nothing read, outputs scaled by beta where the definition says so. */
export function degenerateCases(): Case[] {
  return [
    potrfCase(0, "L"), potrfCase(0, "U"),
    trsmCase("L", "L", "N", "N", 0, 3), trsmCase("R", "U", "T", "N", 3, 0),
    trsvCase("L", "N", "N", 0),
    syrkCase("L", "N", 3, 0), syrkCase("U", "T", 3, 0, 1, 0), syrkCase("L", "T", 0, 4),
    gemmCase("N", "N", 3, 4, 0), gemmCase("T", "N", 3, 4, 0, 1, 0), gemmCase("N", "T", 0, 4, 2),
    gemvCase("N", 3, 0), gemvCase("T", 0, 3), gemvCase("N", 3, 0, 1, 0),
    symvCase("L", 0),
  ];
}
