/**
 * Checkpoint and resume of `gpmcmc sample --model logistic-regression`, on the real executable in
 * child processes: a run killed with SIGKILL at random moments, several times, and resumed each
 * time ends with the draws of the run never interrupted, bit for bit, and a finished run is left as
 * it is (resumeFixtures.ts). sampleModelResumeOptions.test.ts has SIGTERM, the lock and the options.
 */
import { test } from "node:test";
import { scratchDir } from "../fixtures.js";
import { killedRunResumesToReference, LOGISTIC_RUN } from "./resumeFixtures.js";

test("logistic regression: a run killed with SIGKILL at random moments and resumed each time gives the draws of the run never interrupted", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    await killedRunResumesToReference(LOGISTIC_RUN, s.dir, 2027, "200");
  } finally {
    s.cleanup();
  }
});

