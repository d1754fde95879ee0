/** FNV-1a of a cell's identity: the seed does not depend on the order cells run in (src/grid/identity.ts). */
export { fnvSeed as cellSeed } from "../src/grid/identity.js";
