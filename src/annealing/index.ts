export type { AisEstimate } from "./estimate.js";
export { aisEstimate } from "./estimate.js";
export type { ScheduleName, ScheduleSpec } from "./schedule.js";
export { DEFAULT_BETA_MIN, DEFAULT_SIGMOID_DELTA, SCHEDULES, temperatureSchedule } from "./schedule.js";
export type { AisHooks, AisPoint, AisProgress, AisResult, AisRunResult, AisSpec, AisStart, AnnealOptions } from "./ais.js";
export { aisRun, aisRunOn, aisTarget, anneal, drawFromStart, eachRun, runAis } from "./ais.js";
