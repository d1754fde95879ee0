/**
 * The Fitzhugh-Nagumo equations (Girolami & Calderhead 2011, eq. 32; Ramsay et al. 2007),
 *
 *   V' = c (V - V^3/3 + R),   R' = -(V - a + b R) / c,   theta = (a, b, c),
 *
 * with the partial derivatives that the sensitivity equations need (the paper's Appendix C,
 * plus d2V'/dV2 = -2 c V, which the second-order sensitivities also use; every other second
 * derivative is zero).
 */
import type { OdeSystem } from "../ode/sensitivities.js";

/** The paper's values (Section 10.1.1). */
export const FN_TRUE_PARAMETERS = [0.2, 0.2, 3] as const;
export const FN_INITIAL_STATE = [-1, 1] as const;
export const FN_PARAMETER_NAMES = ["a", "b", "c"] as const;

export const fitzhughNagumoSystem: OdeSystem = {
  states: 2,
  params: 3,

  rhs(x, theta, out) {
    const v = x[0], r = x[1];
    const a = theta[0], b = theta[1], c = theta[2];
    out[0] = c * (v - (v * v * v) / 3 + r);
    out[1] = -(v - a + b * r) / c;
  },

  // fx: [dV'/dV, dV'/dR, dR'/dV, dR'/dR]; ft: [dV'/da, dV'/db, dV'/dc, dR'/da, dR'/db, dR'/dc]
  firstDerivatives(x, theta, fx, ft) {
    const v = x[0], r = x[1];
    const a = theta[0], b = theta[1], c = theta[2];
    fx[0] = c * (1 - v * v);
    fx[1] = c;
    fx[2] = -1 / c;
    fx[3] = -b / c;
    ft[0] = 0;
    ft[1] = 0;
    ft[2] = v - (v * v * v) / 3 + r;
    ft[3] = 1 / c;
    ft[4] = -r / c;
    ft[5] = (v - a + b * r) / (c * c);
  },

  secondDerivatives(x, theta, fxx, fxt, ftt) {
    const v = x[0], r = x[1];
    const a = theta[0], b = theta[1], c = theta[2];
    const c2 = c * c;
    fxx.fill(0);
    fxt.fill(0);
    ftt.fill(0);
    // fxx[(n N + l) N + m]: only d2V'/dV2
    fxx[0] = -2 * c * v;
    // fxt[(n N + l) P + k]
    fxt[0 * 3 + 2] = 1 - v * v; // d2V'/dV dc
    fxt[1 * 3 + 2] = 1; // d2V'/dR dc
    fxt[2 * 3 + 2] = 1 / c2; // d2R'/dV dc
    fxt[3 * 3 + 1] = -1 / c; // d2R'/dR db
    fxt[3 * 3 + 2] = b / c2; // d2R'/dR dc
    // ftt[(n P + i) P + k], n = 1 (R')
    const base = 9;
    ftt[base + 0 * 3 + 2] = ftt[base + 2 * 3 + 0] = -1 / c2; // d2R'/da dc
    ftt[base + 1 * 3 + 2] = ftt[base + 2 * 3 + 1] = r / c2; // d2R'/db dc
    ftt[base + 2 * 3 + 2] = (2 * (-v + a - b * r)) / (c2 * c); // d2R'/dc2
  },
};
