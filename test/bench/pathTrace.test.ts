// bench/pathTrace.ts's instrumentation: the instrumented code computes what the original does,
// and every synchronous function's entry is matched by its exit (the recorder's stack ends empty).
import { test } from "node:test";
import assert from "node:assert/strict";
import { instrument } from "../../bench/pathTrace.js";

const SOURCE = `
function add(a, b) { return a + b; }
const twice = (f) => (x) => f(f(x));
const obj = { get v() { return 3; }, m(x) { return x * this.v; } };
class C extends Object { constructor() { super(); this.k = 2; } times(x) { return x * this.k; } }
const thrower = () => { throw new Error("no"); };
let caught = false;
try { thrower(); } catch { caught = true; }
result = [add(1, 2), twice((x) => x + 1)(5), obj.m(2), new C().times(4), caught, [1, 2].map((v) => ({ v }))[1].v];
`;

function run(code: string) {
  const calls: number[] = [];
  let depth = 0;
  const scope = {
    result: undefined as unknown,
    __gpmcmcEnter: (id: number, push: boolean) => { calls.push(id); if (push) depth++; },
    __gpmcmcExit: () => { depth--; },
  };
  new Function("scope", `with (scope) { ${code} }`)(scope);
  return { result: scope.result, calls: calls.length, depth };
}

test("instrumented code computes the same, with every entry matched by an exit", () => {
  const plain = run(SOURCE);
  const traced = run(instrument(SOURCE, 7));
  assert.deepEqual(traced.result, [3, 7, 6, 8, true, 2]);
  assert.deepEqual(traced.result, plain.result);
  assert.equal(plain.calls, 0);
  // add, twice, its inner arrow (once), the two x + 1 calls, get v, m, times, thrower, two map callbacks
  assert.equal(traced.calls, 11);
  assert.equal(traced.depth, 0);
});

test("negative control: an exit left out is seen as an unbalanced stack", () => {
  const broken = instrument(SOURCE, 7).replace("}finally{__gpmcmcExit()}", "}finally{}");
  assert.notEqual(run(broken).depth, 0);
});
