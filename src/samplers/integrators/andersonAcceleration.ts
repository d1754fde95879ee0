/**
 * Anderson acceleration (Walker & Ni 2011) of a fixed-point iteration x <- g(x) on n-vectors, as
 * the generalised leapfrog uses it for its implicit equations (generalisedLeapfrog.ts): the caller
 * evaluates g at `point`, hands g(point) to `extrapolate`, and evaluates next at the new `point`.
 * Preallocated: no allocation per call.
 */

/** History kept: the last ANDERSON_MEMORY differences of residuals. */
const ANDERSON_MEMORY = 3;

export class AndersonAcceleration {
  /** The point x_k at which g was last evaluated (set by the caller at the start, then by `extrapolate`). */
  readonly point: Float64Array;
  /** Residuals f_j = g(x_j) - x_j and values g(x_j), oldest first (m + 1 slots). */
  readonly f: Float64Array[];
  readonly g: Float64Array[];
  /** Residuals stored so far (0: no history; the caller sets it to 0 to start again). */
  count = 0;
  readonly normal: Float64Array;
  readonly rhs: Float64Array;
  readonly gamma: Float64Array;

  constructor(private readonly n: number) {
    const m = ANDERSON_MEMORY;
    this.point = new Float64Array(n);
    this.f = Array.from({ length: m + 1 }, () => new Float64Array(n));
    this.g = Array.from({ length: m + 1 }, () => new Float64Array(n));
    this.normal = new Float64Array(m * m);
    this.rhs = new Float64Array(m);
    this.gamma = new Float64Array(m);
  }

  /**
   * Anderson acceleration (Walker & Ni 2011) of x <- g(x), memory ANDERSON_MEMORY: given g(x_k) in
   * `gk` and x_k in `point`, sets `point` to x_{k+1} = g_k - sum_j gamma_j (g_{j+1} - g_j) with
   * gamma minimising |f_k - sum_j gamma_j (f_{j+1} - f_j)|, f = g(x) - x (normal equations of at
   * most ANDERSON_MEMORY unknowns, lightly regularised). Returns false (point unchanged) while
   * there is no history yet.
   */
  extrapolate(gk: Float64Array): boolean {
    const n = this.n;
    const m = ANDERSON_MEMORY;
    // shift the history: slot m holds the newest (f_k, g_k)
    const slot = this.count <= m ? this.count : m;
    if (this.count > m) {
      const f0 = this.f.shift()!, g0 = this.g.shift()!;
      this.f.push(f0);
      this.g.push(g0);
    }
    const fk = this.f[slot], gSlot = this.g[slot];
    for (let i = 0; i < n; i++) {
      fk[i] = gk[i] - this.point[i];
      gSlot[i] = gk[i];
    }
    this.count++;
    const k = slot; // differences available
    if (k === 0) return false;
    const a = this.normal;
    const b = this.rhs;
    for (let r = 0; r < k; r++) {
      const fr1 = this.f[r + 1], fr = this.f[r];
      let br = 0;
      for (let i = 0; i < n; i++) br += (fr1[i] - fr[i]) * fk[i];
      b[r] = br;
      for (let c = 0; c <= r; c++) {
        const fc1 = this.f[c + 1], fc = this.f[c];
        let s = 0;
        for (let i = 0; i < n; i++) s += (fr1[i] - fr[i]) * (fc1[i] - fc[i]);
        a[r * m + c] = s;
        a[c * m + r] = s;
      }
    }
    let trace = 0;
    for (let r = 0; r < k; r++) trace += a[r * m + r];
    if (!(trace > 0)) return false;
    for (let r = 0; r < k; r++) a[r * m + r] += 1e-10 * trace;
    // Gaussian elimination without pivoting on the regularised SPD system
    for (let c = 0; c < k; c++) {
      for (let r = c + 1; r < k; r++) {
        const f = a[r * m + c] / a[c * m + c];
        for (let j = c; j < k; j++) a[r * m + j] -= f * a[c * m + j];
        b[r] -= f * b[c];
      }
    }
    const gamma = this.gamma;
    for (let r = k - 1; r >= 0; r--) {
      let s = b[r];
      for (let j = r + 1; j < k; j++) s -= a[r * m + j] * gamma[j];
      gamma[r] = s / a[r * m + r];
    }
    const pt = this.point;
    pt.set(gk);
    for (let r = 0; r < k; r++) {
      const gr1 = this.g[r + 1], gr = this.g[r], gm = gamma[r];
      if (!Number.isFinite(gm)) {
        pt.set(gk);
        return false;
      }
      for (let i = 0; i < n; i++) pt[i] -= gm * (gr1[i] - gr[i]);
    }
    return true;
  }

}
