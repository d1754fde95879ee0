export type { RandomSource } from "./types.js";
export { Rng } from "./rng.js";
