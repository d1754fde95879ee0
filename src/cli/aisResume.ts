/**
 * What `gpmcmc ais` adds to the checkpoint and resume machinery of sampleResume.ts: the spec its
 * run record holds (the AisSpec with the --from it came from), the option behind each of its
 * fields (named when a resume gives another), and the files a run may leave in its directory.
 */
import type { AisSpec } from "../annealing/index.js";
import { AIS_TRACE_FILE } from "../io/ais.js";
import { checkpointFileName } from "../run/checkpoint.js";
import { MODEL_FIELD_OPTIONS, RUN_RECORD, type ResumeFields } from "./sampleResume.js";

/** The spec in an AIS run's record: what determines its weights, with --from before the start it gives. */
export interface AisRecordSpec extends AisSpec {
  from: "prior" | "ep";
}

/** The record's spec, fields in the order a resume compares them (the options first, EP's q last). */
export function aisRecordSpec(from: "prior" | "ep", spec: AisSpec): AisRecordSpec {
  const { model, schedule, transition, transitionsPerTemperature, runs, seed, start } = spec;
  return { model, from, schedule, transition, transitionsPerTemperature, runs, seed, start };
}

export const AIS_RESUME_FIELDS: ResumeFields = {
  options: {
    ...MODEL_FIELD_OPTIONS,
    from: "--from", start: "--from",
    "schedule.kind": "--schedule", "schedule.temperatures": "--temperatures", "schedule.betaMin": "--beta-min",
    "transition.sampler": "--transition", "transition.stepSize": "--step-size", "transition.leapfrogSteps": "--leapfrog-steps",
    "transition.fixedPoint": "--fixed-point-tolerance or --fixed-point-iterations", "transition.reversibilityTolerance": "--reversibility-tolerance",
    "transition.mass": "--mass", transitionsPerTemperature: "--transitions-per-temperature", runs: "--runs", seed: "--seed",
  },
  nested: ["model", "schedule", "transition"],
};

/** The files an AIS run of `runs` runs may write, so that --overwrite can remove them whenever it was stopped. */
export function aisRunFileNames(runs: number): string[] {
  return [RUN_RECORD, "summary.json", AIS_TRACE_FILE, ...Array.from({ length: runs }, (_, r) => checkpointFileName(r))];
}
