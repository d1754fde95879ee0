// faultOf passes a component's own faults on and drops the others, so a kernel that takes the
// faults of several parts hands each part only its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { FAULTS, faultOf, type Fault } from "../../src/math/negativeControl.js";

test("faultOf keeps a fault of the component and drops another component's", () => {
  assert.equal(faultOf("nuts", "last-state"), "last-state");
  assert.equal(faultOf("laplace-dynamics", "kick-before"), "kick-before");
  assert.equal(faultOf("nuts", "drop-w"), undefined);
  assert.equal(faultOf("hmc", undefined), undefined);
  // every fault is passed on to its own component and to no other
  for (const name of Object.keys(FAULTS) as Fault[]) {
    const own = FAULTS[name].component;
    assert.equal(faultOf(own, name), name);
    const other = own === "hmc" ? "nuts" : "hmc";
    assert.equal(faultOf(other, name), undefined, `${name} passed on to ${other}`);
  }
});
