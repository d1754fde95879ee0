import { test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { opCounts, Matrix, NotPositiveDefiniteError } from "../../src/linalg/index.js";
import { probit } from "../../src/likelihoods/probit.js";
import { Rng } from "../../src/random/rng.js";
import type { RandomSource } from "../../src/random/types.js";
import { annealedLatentTarget, type AnnealedLatentTarget } from "../../src/targets/annealedLatent.js";
import { IndefiniteMetricError, StaleGeometryError, TargetOptionError } from "../../src/targets/errors.js";
import type { LocalGeometry } from "../../src/targets/types.js";
import { add, type Dense, gaussianLogDensity, luInverseAndLogDet, matVec, maxAbs, maxAbsDiff, zeros } from "./dense.js";

// A small, well-conditioned GP classification problem.
const N = 7;
function problem(seed = 1) {
  const rng = new Rng(seed);
  const X = new Matrix(N, 2);
  for (let i = 0; i < 2 * N; i++) X.data[i] = 2 * rng.uniform() - 1;
  const K = seKernel({ lengthscale: 0.6, signalSd: 1.3 }).matrix(X);
  const y = Float64Array.from({ length: N }, () => (rng.uniform() < 0.5 ? -1 : 1));
  const x = Float64Array.from({ length: N }, () => 1.5 * rng.normal());
  const mu = Float64Array.from({ length: N }, () => 0.5 * rng.normal());
  const siteVariances = Float64Array.from({ length: N }, () => 0.5 + 2.5 * rng.uniform());
  const p = Float64Array.from({ length: N }, () => rng.normal());
  return { K, y, x, mu, siteVariances, p };
}

type Q = "prior" | "ep";
const P = problem();
function target(q: Q, beta: number, pr = P): AnnealedLatentTarget {
  return annealedLatentTarget({
    likelihood: probit, y: pr.y, kernelMatrix: pr.K, beta,
    q: q === "ep" ? { mean: pr.mu, siteVariances: pr.siteVariances } : undefined,
  });
}

function dense(K: Matrix): Dense {
  return K.toRows();
}

/** Sigma of q, densely: (K^-1 + Sigma-tilde^-1)^-1, or K. */
function sigmaQ(q: Q, pr = P): Dense {
  const K = dense(pr.K);
  if (q === "prior") return K;
  const prec = luInverseAndLogDet(K).inverse;
  for (let i = 0; i < N; i++) prec[i][i] += 1 / pr.siteVariances[i];
  return luInverseAndLogDet(prec).inverse;
}

/** G = Lambda + beta K^-1 + (1 - beta) Sigma^-1 (note eq. 16), densely. */
function denseMetric(q: Q, beta: number, x: Float64Array, pr = P): Dense {
  const d1 = new Float64Array(N), d2 = new Float64Array(N);
  probit.derivatives(pr.y, x, d1, d2);
  const Kinv = luInverseAndLogDet(dense(pr.K)).inverse;
  const Sinv = luInverseAndLogDet(sigmaQ(q, pr)).inverse;
  const G = add(Kinv, Sinv, beta, 1 - beta);
  for (let i = 0; i < N; i++) G[i][i] += -beta * d2[i];
  return G;
}

const BETAS = [0, 0.3, 1];
const QS: Q[] = ["prior", "ep"];

test("L_beta at beta = 0 is the normalised log q, at beta = 1 the log joint, in between their mixture", () => {
  const x = P.x;
  const ll = probit.logLikelihood(P.y, x);
  const zero = new Float64Array(N);
  for (const q of QS) {
    const lq = gaussianLogDensity(x, q === "ep" ? P.mu : zero, sigmaQ(q));
    const lp = gaussianLogDensity(x, zero, dense(P.K));
    const t0 = target(q, 0);
    assert.ok(Math.abs(t0.logDensity(x) - lq) < 1e-10 * Math.abs(lq), `${q} beta=0: ${t0.logDensity(x)} vs ${lq}`);
    const t1 = target(q, 1);
    assert.ok(Math.abs(t1.logDensity(x) - (ll + lp)) < 1e-10 * Math.abs(ll + lp), `${q} beta=1`);
    const b = 0.3;
    const want = b * (ll + lp) + (1 - b) * lq;
    assert.ok(Math.abs(target(q, b).logDensity(x) - want) < 1e-10 * Math.abs(want), `${q} beta=0.3`);
    const parts = t1.logDensityParts(x);
    assert.ok(Math.abs(parts.logLikelihood - ll) < 1e-12 && Math.abs(parts.logPrior - lp) < 1e-10 && Math.abs(parts.logQ - lq) < 1e-10);
    // withBeta shares the factorisation and gives the same values as a fresh target
    assert.equal(t1.withBeta(b).logDensity(x), target(q, b).logDensity(x));
  }
});

test("n = 1: exp(L_0) integrates to 1 and exp(L_1) to p(y) = Phi(0) = 1/2 (trapezoid quadrature)", () => {
  const K = Matrix.fromRows([[2.3]]);
  for (const q of [undefined, { mean: [0.7], siteVariances: [0.8] }]) {
    const t = annealedLatentTarget({ likelihood: probit, y: [1], kernelMatrix: K, beta: 0, q });
    const z = (beta: number) => {
      const tb = t.withBeta(beta);
      let s = 0;
      const h = 1e-3;
      for (let v = -30; v <= 30; v += h) s += Math.exp(tb.logDensity(Float64Array.of(v))) * h;
      return s;
    };
    assert.ok(Math.abs(z(0) - 1) < 1e-9, `beta=0: ${z(0)}`);
    assert.ok(Math.abs(z(1) - 0.5) < 1e-9, `beta=1: ${z(1)}`);
  }
});

function fdGradient(f: (x: Float64Array) => number, x: Float64Array, h = 1e-5): Float64Array {
  const g = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const a = x.slice(); a[i] += h;
    const b = x.slice(); b[i] -= h;
    g[i] = (f(a) - f(b)) / (2 * h);
  }
  return g;
}

test("dL/dx agrees with finite differences for beta in {0, 0.3, 1}, prior and EP-style q", () => {
  for (const q of QS) for (const beta of BETAS) {
    const t = target(q, beta);
    const g = new Float64Array(N);
    const v = t.logDensityAndGradient(P.x, g);
    assert.equal(v, t.logDensity(P.x));
    const fd = fdGradient((x) => t.logDensity(x), P.x);
    assert.ok(maxAbsDiff(g, fd) < 1e-7 * Math.max(1, maxAbs(g)), `${q} beta=${beta}: ${g} vs ${fd}`);
    const geo = t.geometry(P.x);
    assert.equal(geo.logDensity, v);
    assert.ok(maxAbsDiff(geo.gradient, g) === 0);
  }
});

test("G^-1, diag(G^-1), G v and log|G| agree with a dense computation of eq. (16), fast and reference", () => {
  for (const q of QS) for (const beta of BETAS) {
    const t = target(q, beta);
    const G = denseMetric(q, beta, P.x);
    const { inverse, logAbsDet, sign } = luInverseAndLogDet(G);
    assert.equal(sign, 1);
    const scale = maxAbs(inverse.flat());
    for (const geo of [t.geometry(P.x), t.referenceGeometry(P.x)] as (LocalGeometry & { inverseMetricDiagonal: Float64Array })[]) {
      const what = `${q} beta=${beta} ${geo === undefined ? "" : geo.constructor.name}`;
      assert.ok(Math.abs(geo.logDetMetric - logAbsDet) < 1e-10 * Math.max(1, Math.abs(logAbsDet)), `${what}: log|G| ${geo.logDetMetric} vs ${logAbsDet}`);
      const Ginv = geo.inverseMetricMatrix!();
      assert.ok(maxAbsDiff(Ginv.data, Matrix.fromRows(inverse).data) < 1e-10 * scale, `${what}: G^-1`);
      assert.ok(maxAbsDiff(geo.inverseMetricDiagonal, inverse.map((r, i) => r[i])) < 1e-10 * scale, `${what}: diag`);
      const w = new Float64Array(N);
      geo.applyInverse(P.p, w);
      assert.ok(maxAbsDiff(w, matVec(inverse, P.p)) < 1e-10 * scale * maxAbs(P.p), `${what}: G^-1 p`);
    }
    const gv = new Float64Array(N);
    t.geometry(P.x).applyMetric(P.p, gv);
    assert.ok(maxAbsDiff(gv, matVec(G, P.p)) < 1e-10 * maxAbs(G.flat()) * maxAbs(P.p), `${q} beta=${beta}: G v`);
    // the inverse-metric-only object applies the same G^-1, bit for bit
    const w1 = new Float64Array(N), w2 = new Float64Array(N);
    t.inverseMetricAt(P.x).applyInverse(P.p, w1);
    t.geometry(P.x).applyInverse(P.p, w2);
    assert.deepEqual(w1, w2);
  }
});

test("dg = dG_nn/dx_n and log|G| agree with finite differences (d log|G|/dx_n = diag(G^-1)_n dg_n)", () => {
  for (const q of QS) for (const beta of BETAS) {
    const t = target(q, beta);
    const geo = t.geometry(P.x);
    const dg = geo.metricDerivativeDiagonal;
    const h = 1e-5;
    const fdDg = new Float64Array(N);
    for (let i = 0; i < N; i++) {
      const a = P.x.slice(); a[i] += h;
      const b = P.x.slice(); b[i] -= h;
      fdDg[i] = (t.geometry(a).metricDiagonalPart[i] - t.geometry(b).metricDiagonalPart[i]) / (2 * h);
    }
    assert.ok(maxAbsDiff(dg, fdDg) < 1e-8 * Math.max(1e-3, maxAbs(dg)), `${q} beta=${beta}: dg ${dg} vs ${fdDg}`);
    if (beta > 0) assert.ok(maxAbs(dg) > 1e-3, "dg is not trivially zero");
    const fdLogDet = fdGradient((x) => t.geometry(x).logDetMetric, P.x);
    const want = geo.inverseMetricDiagonal.map((v, i) => v * dg[i]);
    assert.ok(maxAbsDiff(fdLogDet, want) < 1e-8 * Math.max(1e-3, maxAbs(want)), `${q} beta=${beta}: dlog|G| ${fdLogDet} vs ${want}`);
    // ... and the same from the dense metric (independent of the geometry's own log|G|)
    const fdDense = fdGradient((x) => luInverseAndLogDet(denseMetric(q, beta, x)).logAbsDet, P.x);
    assert.ok(maxAbsDiff(fdDense, want) < 1e-7 * Math.max(1e-3, maxAbs(want)), `${q} beta=${beta}: dense dlog|G|`);
  }
});

test("dH/dx (Algorithm 2) agrees with finite differences of H = -L + 1/2 log|G| + 1/2 p'G^-1 p", () => {
  const H = (t: AnnealedLatentTarget, x: Float64Array, p: Float64Array) => {
    const g = t.geometry(x);
    const w = new Float64Array(N);
    g.applyInverse(p, w);
    let pw = 0;
    for (let i = 0; i < N; i++) pw += p[i] * w[i];
    return -g.logDensity + 0.5 * g.logDetMetric + 0.5 * pw;
  };
  for (const q of QS) for (const beta of BETAS) {
    const t = target(q, beta);
    const fd = fdGradient((x) => H(t, x, P.p), P.x);
    const fast = new Float64Array(N);
    t.geometry(P.x).hamiltonianGradient(P.p, fast);
    const ref = new Float64Array(N);
    t.referenceGeometry(P.x).hamiltonianGradient(P.p, ref);
    const tol = 1e-7 * Math.max(1, maxAbs(fd));
    assert.ok(maxAbsDiff(fast, fd) < tol, `${q} beta=${beta}: fast ${fast} vs fd ${fd}`);
    assert.ok(maxAbsDiff(ref, fd) < tol, `${q} beta=${beta}: reference ${ref} vs fd ${fd}`);
    // out may alias p
    const pp = P.p.slice();
    t.geometry(P.x).hamiltonianGradient(pp, pp);
    assert.deepEqual(pp, fast);
  }
});

test("negative control: a sign error in dg is caught by the dH/dx finite-difference check", () => {
  const t = target("prior", 1);
  const g = t.geometry(P.x);
  const fd = fdGradient((x) => {
    const gx = t.geometry(x);
    const w = new Float64Array(N);
    gx.applyInverse(P.p, w);
    return -gx.logDensity + 0.5 * gx.logDetMetric + 0.5 * w.reduce((s, v, i) => s + v * P.p[i], 0);
  }, P.x);
  const broken = new Float64Array(N);
  const w = new Float64Array(N);
  g.applyInverse(P.p, w);
  const diag = g.inverseMetricDiagonal;
  const dg = g.metricDerivativeDiagonal;
  for (let i = 0; i < N; i++) broken[i] = -0.5 * dg[i] * (diag[i] - w[i] * w[i]) - g.gradient[i];
  assert.ok(maxAbsDiff(broken, fd) > 1e-3, "the check would not notice a flipped dg");
});

/** A RandomSource whose normals are the entries of a fixed vector (then 0). */
function scripted(values: Float64Array): RandomSource {
  let k = 0;
  const next = () => (k < values.length ? values[k++] : 0);
  return {
    normal: next,
    fillNormal: (out) => {
      for (let i = 0; i < out.length; i++) out[i] = next();
      return out;
    },
    uniform: () => 0.5, exponential: () => 1, gamma: () => 1, studentT: () => 0, truncatedNormal: () => 0, integer: () => 0,
  };
}

test("sampleMomentum is a linear map A of standard normals with A A' = G (fast and reference)", () => {
  for (const q of QS) for (const beta of BETAS) {
    const t = target(q, beta);
    const G = denseMetric(q, beta, P.x);
    for (const [geo, m] of [[t.geometry(P.x), 2 * N], [t.referenceGeometry(P.x), N]] as [LocalGeometry, number][]) {
      // column k of A: the draw when the k-th standard normal is 1 and the others 0
      const A = zeros(N, m);
      for (let k = 0; k < m; k++) {
        const e = new Float64Array(m);
        e[k] = 1;
        const out = new Float64Array(N);
        geo.sampleMomentum(scripted(e), out);
        for (let i = 0; i < N; i++) A[i][k] = out[i];
      }
      const AAt = A.map((ri) => A.map((rj) => ri.reduce((s, v, k) => s + v * rj[k], 0)));
      assert.ok(maxAbsDiff(AAt.flat(), G.flat()) < 1e-10 * maxAbs(G.flat()), `${q} beta=${beta} ${geo.constructor.name}`);
    }
  }
});

test("sampleMomentum: Monte Carlo covariance matches G within its standard error", () => {
  const beta = 0.3;
  const t = target("ep", beta);
  const geo = t.geometry(P.x);
  const G = denseMetric("ep", beta, P.x);
  const Ginv = luInverseAndLogDet(G).inverse;
  const rng = new Rng(5);
  const m = 40000;
  const C = zeros(N);
  const p = new Float64Array(N);
  let sq = 0;
  let sq2 = 0;
  for (let r = 0; r < m; r++) {
    geo.sampleMomentum(rng, p);
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) C[i][j] += (p[i] * p[j]) / m;
    // p' G^-1 p ~ chi^2_N
    const v = matVec(Ginv, p).reduce((s, a, i) => s + a * p[i], 0);
    sq += v / m;
    sq2 += (v * v) / m;
  }
  let worst = 0;
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) {
    const se = Math.sqrt((G[i][i] * G[j][j] + G[i][j] * G[i][j]) / m);
    worst = Math.max(worst, Math.abs(C[i][j] - G[i][j]) / se);
  }
  assert.ok(worst < 4.5, `largest z-score of a covariance entry: ${worst}`);
  const se = Math.sqrt((sq2 - sq * sq) / m);
  assert.ok(Math.abs(sq - N) < 4 * se, `E[p'G^-1 p] = ${sq}, expected ${N} (se ${se})`);
});

test("geometry(x) takes over the factorisation of the last inverseMetricAt(x); stale objects throw", () => {
  const t = target("ep", 0.3);
  const x2 = P.x.map((v) => v + 0.1);
  const im = t.inverseMetricAt(P.x);
  const before = opCounts.cholesky;
  const g = t.geometry(P.x);
  assert.equal(opCounts.cholesky, before, "no new Cholesky");
  const fresh = t.geometry(P.x);
  assert.equal(opCounts.cholesky, before + 1);
  assert.equal(g.logDetMetric, fresh.logDetMetric);
  assert.deepEqual(g.inverseMetricDiagonal, fresh.inverseMetricDiagonal);
  const a = new Float64Array(N), b = new Float64Array(N);
  g.hamiltonianGradient(P.p, a);
  fresh.hamiltonianGradient(P.p, b);
  assert.deepEqual(a, b);
  // the inverse metric stays usable while the geometry that took its factor lives
  im.applyInverse(P.p, a);
  // a later inverseMetricAt does not touch the promoted factor
  const im2 = t.inverseMetricAt(x2);
  g.applyInverse(P.p, b);
  fresh.applyInverse(P.p, a);
  assert.deepEqual(a, b);
  // a non-promoted inverse metric is recycled by the next call
  t.inverseMetricAt(x2);
  assert.throws(() => im2.applyInverse(P.p, a), StaleGeometryError);
  // geometry at another position does not take the scratch factor
  const im3 = t.inverseMetricAt(x2);
  const c0 = opCounts.cholesky;
  t.geometry(P.x);
  assert.equal(opCounts.cholesky, c0 + 1);
  im3.applyInverse(P.p, a);
  // released geometries throw, and their workspace is reused
  fresh.release();
  assert.throws(() => fresh.applyInverse(P.p, a), StaleGeometryError);
  assert.throws(() => fresh.logDetMetric, StaleGeometryError);
  g.release();
  assert.throws(() => im.applyInverse(P.p, a), StaleGeometryError);
  const g3 = t.geometry(x2);
  assert.ok(Number.isFinite(g3.logDetMetric));
});

test("a non-finite position gives NaN energies, not an exception", () => {
  const t = target("prior", 1);
  const x = P.x.slice();
  x[2] = NaN;
  const g = t.geometry(x);
  assert.ok(Number.isNaN(g.logDetMetric));
  const out = new Float64Array(N);
  g.applyInverse(P.p, out);
  assert.ok(out.every(Number.isNaN));
  g.hamiltonianGradient(P.p, out);
  assert.ok(out.some(Number.isNaN));
  const x2 = P.x.slice();
  x2[0] = Infinity;
  assert.ok(!Number.isFinite(t.geometry(x2).logDetMetric));
});

test("options are checked: beta, responses, q, a K that is not positive definite, jitter", () => {
  const base = { likelihood: probit, y: P.y, kernelMatrix: P.K };
  assert.throws(() => annealedLatentTarget({ ...base, beta: 1.5 }), TargetOptionError);
  assert.throws(() => target("prior", 1).withBeta(-0.1), TargetOptionError);
  assert.throws(() => annealedLatentTarget({ ...base, y: P.y.map((v, i) => (i === 3 ? 0 : v)) }), /response 4/);
  assert.throws(() => annealedLatentTarget({ ...base, q: { mean: P.mu, siteVariances: P.siteVariances.map((v, i) => (i === 1 ? -1 : v)) } }), TargetOptionError);
  assert.throws(() => annealedLatentTarget({ ...base, q: { mean: P.mu } }), TargetOptionError);
  // site variance Infinity = no site = site precision 0
  const inf = annealedLatentTarget({ ...base, beta: 0.4, q: { mean: P.mu, siteVariances: new Float64Array(N).fill(Infinity) } });
  const zero = annealedLatentTarget({ ...base, beta: 0.4, q: { mean: P.mu, sitePrecisions: new Float64Array(N) } });
  assert.equal(inf.logDensity(P.x), zero.logDensity(P.x));
  // a rank-one K: not positive definite; the error says how to add jitter
  const ones = Matrix.fromRows(Array.from({ length: N }, () => new Array(N).fill(1)));
  assert.throws(() => annealedLatentTarget({ ...base, kernelMatrix: ones }),
    (e: unknown) => e instanceof NotPositiveDefiniteError && /jitter/.test(e.message));
  const said: string[] = [];
  const auto = annealedLatentTarget({ ...base, kernelMatrix: ones, jitter: "auto", onJitter: (m) => said.push(m) });
  assert.ok(auto.jitter > 0 && said.length === 1 && /jitter/.test(said[0]), said.join());
  assert.equal(auto.kernelMatrix.get(0, 0), 1 + auto.jitter);
  assert.ok(Number.isFinite(auto.geometry(P.x).logDetMetric));
  // a positive definite K gets no jitter from "auto", and says nothing
  const quiet: string[] = [];
  assert.equal(annealedLatentTarget({ ...base, jitter: "auto", onJitter: (m) => quiet.push(m) }).jitter, 0);
  assert.equal(quiet.length, 0);
  const fixed = annealedLatentTarget({ ...base, jitter: 1e-6, onJitter: (m) => quiet.push(m) });
  assert.equal(fixed.jitter, 1e-6);
  assert.equal(quiet.length, 1);
  assert.throws(() => annealedLatentTarget({ ...base, jitter: -1 }), TargetOptionError);
});

test("a likelihood that is not log-concave at x raises IndefiniteMetricError", () => {
  const bad = { ...probit, name: "convex", derivatives: (y: Float64Array, f: Float64Array, d1: Float64Array, d2: Float64Array, d3?: Float64Array) => {
    d1.fill(0); d2.fill(0.5); d3?.fill(0);
    return 0;
  } };
  const t = annealedLatentTarget({ likelihood: bad, y: P.y, kernelMatrix: P.K });
  assert.throws(() => t.geometry(P.x), IndefiniteMetricError);
});

test("flop counts: inverseMetricAt n^3/3, geometry with dH/dx 2 n^3/3 (n^3/3 after inverseMetricAt at the same x), momentum without O(n^3)", () => {
  const pr = problem(9);
  const t = target("ep", 0.3, pr);
  const n3 = N ** 3;
  const flops = (f: () => void) => {
    const before = opCounts.flops;
    f();
    return opCounts.flops - before;
  };
  const out = new Float64Array(N);
  const near = (a: number, b: number, msg?: string) => assert.ok(Math.abs(a - b) < 1e-9 * n3, msg ?? `${a} flops, expected ${b}`);
  near(flops(() => t.inverseMetricAt(pr.x).applyInverse(pr.p, out)), n3 / 3);
  // dH/dx needs diag(G^-1) only through the trace term, from L^-1 (n^3/3), not V = L^-1 S K (n^3)
  near(flops(() => t.geometry(pr.x).hamiltonianGradient(pr.p, out)), n3 / 3);
  const g = t.geometry(pr.x);
  near(flops(() => g.hamiltonianGradient(pr.p, out)), n3 / 3);
  near(flops(() => g.hamiltonianGradient(pr.p, out)), 0, "the trace term is computed once");
  near(flops(() => {
    const h = t.geometry(pr.x.map((v) => v + 1));
    h.sampleMomentum(new Rng(1), out);
    h.hamiltonianGradient(out, out);
  }), n3 / 3 + n3 / 3);
  // diag(G^-1) itself costs n^3 (V), and once known it gives the trace term for free
  const h = t.geometry(pr.x.map((v) => v - 1));
  near(flops(() => h.inverseMetricDiagonal), n3);
  near(flops(() => h.hamiltonianGradient(pr.p, out)), 0);
  // the reference (Algorithm 3 as written): potrf + trsm + syrk per Woodbury step, two steps for an EP-style q
  near(flops(() => t.referenceGeometry(pr.x)), 2 * (n3 / 3 + n3 + n3));
  near(flops(() => target("prior", 0.3, pr).referenceGeometry(pr.x)), n3 / 3 + n3 + n3 + n3 / 3 /* K's factor at set-up */);
});

test("the note's Algorithm 4 line 18 as printed (+beta K^-1 x) fails the finite-difference check; -beta K^-1 x passes", () => {
  const beta = 0.3;
  const t = target("ep", beta);
  const fd = fdGradient((x) => t.logDensity(x), P.x);
  const d1 = new Float64Array(N), d2 = new Float64Array(N);
  probit.derivatives(P.y, P.x, d1, d2);
  const Kinv = luInverseAndLogDet(dense(P.K)).inverse;
  const Sinv = luInverseAndLogDet(sigmaQ("ep")).inverse;
  const kx = matVec(Kinv, P.x);
  const sr = matVec(Sinv, P.x.map((v, i) => v - P.mu[i]));
  const printed = d1.map((v, i) => beta * v + beta * kx[i] - (1 - beta) * sr[i]);
  const corrected = d1.map((v, i) => beta * v - beta * kx[i] - (1 - beta) * sr[i]);
  assert.ok(maxAbsDiff(corrected, fd) < 1e-7 * maxAbs(fd));
  assert.ok(maxAbsDiff(printed, fd) > 0.1 * maxAbs(fd));
});

test("dH/dx: the trace term from L^-1 ((1 - (B^-1)_nn) / D_nn) matches 1/2 dg o diag(G^-1) from V, with margins from -5 to 35 and a zero D_nn", () => {
  // a prior scale like the USPS setting (K_nn = 2.7e4) makes D_nn K_nn span 1e-200 .. 1e4
  const K = seKernel({ lengthscale: 0.6, signalSd: 164 }).matrix(new Matrix(N, 2, P.K.data.slice(0, 2 * N)));
  const margins = [-5, -1, 0, 2, 8, 20, 35];
  const x = Float64Array.from(margins, (m, i) => m * P.y[i]);
  // probit, except that point 0 has d2 = 0 and d3 != 0 (D_00 = 0: the direct branch)
  const flat = { ...probit, name: "flat-at-0", derivatives: (y: Float64Array, f: Float64Array, d1: Float64Array, d2: Float64Array, d3?: Float64Array) => {
    const ll = probit.derivatives(y, f, d1, d2, d3);
    d2[0] = 0;
    if (d3) d3[0] = 0.7;
    return ll;
  } };
  for (const [likelihood, beta, q] of [[probit, 1, "prior"], [probit, 0.3, "ep"], [flat, 1, "prior"], [flat, 0.6, "prior"]] as const) {
    const t = annealedLatentTarget({
      likelihood, y: P.y, kernelMatrix: K, beta,
      q: q === "ep" ? { mean: P.mu, siteVariances: P.siteVariances } : undefined,
    });
    const fromLinv = new Float64Array(N);
    t.geometry(x).hamiltonianGradient(P.p, fromLinv);
    const g = t.geometry(x);
    const diag = g.inverseMetricDiagonal; // V = L^-1 S K, then K_nn - |V e_n|^2
    const fromV = new Float64Array(N);
    g.hamiltonianGradient(P.p, fromV);
    const dg = g.metricDerivativeDiagonal;
    const what = `${likelihood.name}, beta ${beta}, ${q}`;
    if (likelihood === flat) assert.ok(g.metricDiagonalPart[0] === 0 && dg[0] !== 0, `${what}: the zero-D branch is exercised`);
    for (let i = 0; i < N; i++) {
      const scale = Math.abs(0.5 * dg[i] * diag[i]) + Math.abs(fromV[i]) + 1e-300;
      assert.ok(Math.abs(fromLinv[i] - fromV[i]) <= 1e-9 * scale + 1e-12, `${what}, margin ${margins[i]}: ${fromLinv[i]} vs ${fromV[i]}`);
    }
  }
});
