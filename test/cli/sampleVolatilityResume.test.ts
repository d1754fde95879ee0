/**
 * Checkpoint and resume of `gpmcmc sample --model volatility` (the two-block Gibbs sampler, both
 * blocks' step sizes and adaptation in the checkpoint), on the real executable in child
 * processes: a run killed with SIGKILL at random moments, several times, and resumed each time
 * ends with the draws of the run never interrupted, bit for bit (resumeFixtures.ts).
 */
import { test } from "node:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { simulateVolatility } from "../../src/models/volatility/svSimulate.js";
import { scratchDir } from "../fixtures.js";
import { killedRunResumesToReference } from "./resumeFixtures.js";

test("volatility: a run killed with SIGKILL at random moments and resumed each time gives the draws of the run never interrupted", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "sv.csv");
    writeFileSync(data, "y\n" + Array.from(simulateVolatility(100, 0.65, 0.15, 0.98, 3).y, (v) => v.toPrecision(10)).join("\n") + "\n");
    const args = ["sample", "--model", "volatility", "--data", data, "--draws", "800", "--burn-in", "200", "--chains", "2", "--seed", "3"];
    await killedRunResumesToReference(args, s.dir, 2028, "50");
  } finally {
    s.cleanup();
  }
});
