import { test } from "node:test";
import assert from "node:assert/strict";
import { formatProgress, ProgressDisplay } from "../../src/cli/progress.js";
import type { Progress } from "../../src/samplers/chain/driver.js";

const p = (chain: number, iteration: number, elapsedSeconds: number): Progress => ({
  chain, iteration, iterations: 200, phase: iteration > 100 ? "sampling" : "burn-in", acceptanceRate: 0.8125, divergences: 0, stepSize: 0.1, elapsedSeconds,
});

test("formatProgress: draws done, phase, acceptance so far, time elapsed and left", () => {
  assert.equal(formatProgress(p(1, 50, 5)), "chain 2: 50/200 (25%) burn-in, acceptance 0.81, 5.0 s elapsed, ~15 s left");
  assert.equal(formatProgress({ ...p(0, 200, 90), divergences: 3 }), "chain 1: 200/200 (100%) sampling, acceptance 0.81, 3 divergent, 1 min 30 s elapsed, done");
});

test("ProgressDisplay on a terminal: one line per chain, rewritten in place", () => {
  let out = "";
  let t = 0;
  const d = new ProgressDisplay({ chains: 2, tty: true, write: (s) => (out += s), now: () => t });
  d.update(p(0, 10, 1));
  assert.equal(out, "\r\x1b[2Kchain 1: 10/200 (5%) burn-in, acceptance 0.81, 1.0 s elapsed, ~19 s left\n\r\x1b[2Kchain 2: waiting\n");
  out = "";
  t = 50;
  d.update(p(1, 10, 1)); // within 100 ms of the last redraw: not drawn
  assert.equal(out, "");
  t = 200;
  d.update(p(1, 20, 2));
  assert.ok(out.startsWith("\x1b[2A\r\x1b[2Kchain 1: 10/200"), JSON.stringify(out));
  assert.match(out, /chain 2: 20\/200/);
});

test("ProgressDisplay elsewhere: a chain's first line at once, then one every interval, and its last", () => {
  const lines: string[] = [];
  let t = 0;
  const d = new ProgressDisplay({ chains: 1, tty: false, write: (s) => lines.push(s), now: () => t, intervalSeconds: 10 });
  d.update(p(0, 10, 1));
  t = 5000;
  d.update(p(0, 20, 2));
  t = 10_001;
  d.update(p(0, 30, 3));
  t = 10_002;
  d.update(p(0, 200, 20));
  assert.deepEqual(lines.map((l) => l.split(":")[0] + " " + l.split(" ")[2]), ["chain 1 10/200", "chain 1 30/200", "chain 1 200/200"]);
  assert.ok(lines.every((l) => l.endsWith("\n") && !l.includes("\x1b")));
});
