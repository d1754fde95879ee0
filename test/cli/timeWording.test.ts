// What the times in `gpmcmc sample` and `gpmcmc diagnose` are: the sampling seconds summed over
// the chains (chain-seconds, the basis of ESS per second) and the wall-clock seconds, each named
// in the text, and the basis stated in --json. The figures are recomputed here from the per-chain
// times and the draws files' timing blocks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runDiagnose } from "../../src/cli/diagnose.js";
import { runSampleCommand } from "../../src/cli/sample.js";
import { readCmdStanCsv } from "../../src/io/cmdstan.js";
import { scratchDir } from "../fixtures.js";

function writeData(path: string): void {
  const rows = ["y,x"];
  for (let i = 0; i < 16; i++) rows.push(`${Math.sin(i / 2) > 0 ? 1 : -1},${(i / 4).toFixed(3)}`);
  writeFileSync(path, rows.join("\n") + "\n");
}

/** x as the sample command's summary prints it (3 significant digits below 100). */
const shown = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));

test("sample: the time line names the summed sampling seconds and the wall-clock seconds, and ESS per second is per chain-second", async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "d.csv");
    writeData(data);
    let stdout = "";
    const report = await runSampleCommand(
      { data, lengthscale: "1", signalSd: "1.5", sampler: "hmc", draws: "40", burnIn: "20", chains: "2", seed: "3", parallel: "1", out: join(s.dir, "run") },
      { stdout: (t) => (stdout += t), stderr: () => {}, stderrIsTTY: false },
    );
    const summed = report.perChain.reduce((t, c) => t + c.samplingSeconds, 0);
    assert.ok(Math.abs(report.samplingSeconds - summed) < 1e-12);
    assert.ok(Math.abs(report.essPerSecond! - report.minEss! / summed) < 1e-9 * report.essPerSecond!);
    const line = stdout.split("\n").find((l) => l.startsWith("time: "));
    assert.equal(
      line,
      `time: ${shown(summed)} s of sampling summed over 2 chains, ${shown(report.seconds)} s wall-clock with burn-in; ` +
        `min ESS per second of sampling (per chain-second) ${shown(report.essPerSecond!)}`,
    );
    assert.match(report.essPerSecondBasis, /summed over chains/);

    // diagnose reads the same run back: its time is the files' sampling seconds added up
    const files = [1, 2].map((c) => readCmdStanCsv(join(s.dir, "run", `draws_${c}.csv`)));
    const fromFiles = files.reduce((t, f) => t + f.timing!.samplingSeconds!, 0);
    const text = runDiagnose([join(s.dir, "run")], {});
    assert.match(text, new RegExp(`^Sampling took ${fromFiles.toPrecision(3).replace(".", "\\.")} s summed over 2 chains \\(not wall-clock\\): \\S+ min-ESS per second \\(per chain-second\\)$`, "m"));
    const json = JSON.parse(runDiagnose([join(s.dir, "run")], { json: true })) as { samplingSeconds: number; essPerSecondBasis: string };
    assert.equal(json.essPerSecondBasis, report.essPerSecondBasis);
    assert.ok(Math.abs(json.samplingSeconds - fromFiles) < 1e-9);
  } finally {
    s.cleanup();
  }
});
