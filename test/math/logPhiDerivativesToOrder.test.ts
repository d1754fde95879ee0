import { test } from "node:test";
import assert from "node:assert/strict";
import { logPhiDerivativesToOrder } from "../../src/math/index.js";
import { logPhiDerivatives as probitLogPhiDerivatives } from "../../src/likelihoods/probit.js";

// d^k/dz^k log Phi(z), k = 1..8, computed with mpmath at 50 significant digits
// (mp.diff of log(ncdf)).
const reference: [number, number[]][] = [
  [-40, [40.024968847207264, -0.99937733162140861, 3.1017440396486248e-5, 2.3147700438918067e-6, 2.3004367877629597e-7, 2.854201104982973e-8, 4.2442555804601313e-9, 7.3540405950039517e-10]],
  [-10, [10.098093233962512, -0.99055462217434374, 0.0017864003921165069, 0.00049785382237944016, 0.00018175140969087902, 8.1477327701031097e-5, 4.3044589687382493e-5, 2.6040701330637789e-5]],
  [-3, [3.2830986549304365, -0.92944081321473188, 0.031470672830842488, 0.018930547102077378, 0.013578681847727706, 0.010669718169548384, 0.0083469404303393051, 0.0052300929729917598]],
  [-1.500001, [1.9386780170759911, -0.85045348960169338, 0.083151867740715206, 0.056683191879462459, 0.040089101733349874, 0.02212715269433325, -0.0063767073604780625, -0.056050043523257028]],
  [-1.499999, [1.9386763161691784, -0.85045332329784455, 0.083151981107179134, 0.056683272057710174, 0.040089145987642506, 0.02212713994080643, -0.0063768194608338568, -0.056050312280425308]],
  [-1, [1.5251352761609812, -0.80090233442965121, 0.11693119540604883, 0.07917498368074563, 0.0487790804707741, 0.0085437603306302679, -0.055900138122990318, -0.15102699032076424]],
  [0, [0.79788456080286536, -0.63661977236758134, 0.21801361414499016, 0.11477068205421886, -0.004437688462617821, -0.15265853384165693, -0.26288640927240763, -0.065189969492542858]],
  [1.5, [0.13878975045885076, -0.2274472205207062, 0.26551576627946457, -0.12054541851260882, -0.21992329569269708, 0.23077932029262306, 0.82931264950210629, -0.76779459504289833]],
  [6, [6.0758828558176764e-9, -3.6455297171822411e-8, 2.1265590061811302e-7, -1.2030248146071554e-6, 6.5801812469220731e-6, -3.4668988925252848e-5, 0.00017511303525362729, -0.00084266436618940391]],
];

test("logPhiDerivativesToOrder matches 50-digit values to 1e-10 relative, both regimes, orders 1..8", () => {
  for (const [z, ref] of reference) {
    const d = logPhiDerivativesToOrder(z, 8);
    for (let k = 0; k < 8; k++) {
      const err = Math.abs(d[k] - ref[k]) / Math.abs(ref[k]);
      assert.ok(err < 1e-10, `z = ${z}, order ${k + 1}: ${d[k]} vs ${ref[k]} (relative error ${err.toExponential(2)})`);
    }
  }
});

test("logPhiDerivativesToOrder: high orders stay finite and smooth across the regime switch at z = -1.5", () => {
  const a = logPhiDerivativesToOrder(-1.5 - 1e-9, 14);
  const b = logPhiDerivativesToOrder(-1.5 + 1e-9, 14);
  for (let k = 0; k < 14; k++) {
    assert.ok(Number.isFinite(a[k]) && Number.isFinite(b[k]));
    assert.ok(Math.abs(a[k] - b[k]) <= 1e-7 * Math.max(1, Math.abs(a[k])), `order ${k + 1}: ${a[k]} vs ${b[k]}`);
  }
});

test("logPhiDerivativesToOrder agrees with the probit likelihood's independent first three derivatives", () => {
  const scratch = { d1: 0, d2: 0, d3: 0 };
  for (const z of [-35, -12, -4, -2.2, -1.6, -1.2, -0.3, 0, 0.8, 2.5, 7]) {
    const d = logPhiDerivativesToOrder(z, 3);
    probitLogPhiDerivatives(z, scratch);
    const ref = [scratch.d1, scratch.d2, scratch.d3];
    for (let k = 0; k < 3; k++) {
      assert.ok(Math.abs(d[k] - ref[k]) <= 1e-12 * Math.abs(ref[k]) + 1e-300, `z = ${z}, order ${k + 1}: ${d[k]} vs ${ref[k]}`);
    }
  }
});
