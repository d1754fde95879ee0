import { test } from "node:test";
import assert from "node:assert/strict";
import { gaussHermite, normalExpectation } from "../../src/math/gaussHermite.js";

/** E[X^k] for X ~ N(0, 1): (k - 1)!! for even k, 0 for odd k. */
function normalMoment(k: number): number {
  if (k % 2 === 1) return 0;
  let m = 1;
  for (let j = k - 1; j > 1; j -= 2) m *= j;
  return m;
}

test("Gauss-Hermite: weights sum to 1, nodes symmetric and increasing", () => {
  for (const n of [1, 2, 5, 20, 32, 64, 100]) {
    const { nodes, weights } = gaussHermite(n);
    const sum = weights.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-13, `n = ${n}: sum ${sum}`);
    for (let k = 0; k < n; k++) {
      assert.ok(Math.abs(nodes[k]! + nodes[n - 1 - k]!) < 1e-12 * (1 + Math.abs(nodes[k]!)));
      if (k > 0) assert.ok(nodes[k]! > nodes[k - 1]!);
      assert.ok(weights[k]! > 0);
    }
  }
});

test("Gauss-Hermite: the N-point rule integrates the normal moments up to degree 2N - 1 exactly, and not degree 2N", () => {
  for (const n of [1, 2, 3, 6, 10]) {
    const { nodes, weights } = gaussHermite(n);
    for (let k = 0; k <= 2 * n; k++) {
      let e = 0;
      let scale = 0;
      for (let j = 0; j < n; j++) {
        e += weights[j]! * nodes[j]! ** k;
        scale += weights[j]! * Math.abs(nodes[j]!) ** k;
      }
      const want = normalMoment(k);
      if (k < 2 * n) assert.ok(Math.abs(e - want) <= 1e-13 * scale, `n = ${n}, k = ${k}: ${e} vs ${want}`);
      else assert.ok(Math.abs(e - want) > 1e-3 * want, `n = ${n}: degree 2N is integrated exactly, which no N-point rule does`);
    }
  }
});

test("Gauss-Hermite: known nodes and expectations of smooth functions", () => {
  // He_2 = z^2 - 1: nodes -1, 1 with weights 1/2.
  const two = gaussHermite(2);
  assert.ok(Math.abs(two.nodes[1]! - 1) < 1e-15 && Math.abs(two.weights[0]! - 0.5) < 1e-15);
  // He_3 = z^3 - 3z: nodes 0, +-sqrt(3), weights 2/3, 1/6.
  const three = gaussHermite(3);
  assert.ok(Math.abs(three.nodes[2]! - Math.sqrt(3)) < 1e-14 && Math.abs(three.weights[1]! - 2 / 3) < 1e-14);
  // E[exp(X)] = exp(m + v/2); E[cos X] = exp(-v/2) cos m.
  assert.ok(Math.abs(normalExpectation(Math.exp, 0.3, 1.7) - Math.exp(0.3 + 0.85)) < 1e-12);
  assert.ok(Math.abs(normalExpectation(Math.cos, 0.4, 2) - Math.exp(-1) * Math.cos(0.4)) < 1e-12);
  assert.throws(() => gaussHermite(0), RangeError);
});
