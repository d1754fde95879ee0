import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// dist/src/version.js -> package root
export const VERSION: string = (require("../../package.json") as { version: string }).version;
