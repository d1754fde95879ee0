/**
 * Picks the linear-algebra backend once, at first use: the native OpenBLAS addon when it was
 * built, else the pure TypeScript one (saying so once on stderr). GPMCMC_BACKEND=js|native
 * forces a choice; forcing native when the addon is missing is an error.
 */
import { createRequire } from "node:module";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BackendError, DimensionError } from "./errors.js";
import { jsBackend } from "./js.js";
import type { LinalgBackend } from "./types.js";

let chosen: LinalgBackend | undefined;
let nativeLoadError: string | undefined;

/**
 * Where the addon is: build/Release under the package root, or GPMCMC_NATIVE_ADDON (a path,
 * relative to the working directory) for an addon built elsewhere; pointing it at a missing
 * file also shows how gpmcmc behaves on a machine without OpenBLAS.
 */
function addonPath(): string {
  const override = process.env.GPMCMC_NATIVE_ADDON;
  if (override !== undefined && override !== "") return isAbsolute(override) ? override : resolve(override);
  // dist/src/linalg/backend.js -> <package root>/build/Release
  return fileURLToPath(new URL("../../../build/Release/gpmcmc_native.node", import.meta.url));
}

/** Loads the native addon, or returns undefined (with the reason kept for `nativeUnavailableReason`). */
export function loadNativeBackend(): LinalgBackend | undefined {
  try {
    const require = createRequire(import.meta.url);
    const mod = require(addonPath()) as { createBackend?: (dimensionError: typeof DimensionError) => LinalgBackend };
    if (typeof mod.createBackend !== "function") throw new Error("addon has no createBackend");
    // The addon raises our DimensionError for size errors, like the js backend.
    return mod.createBackend(DimensionError);
  } catch (e) {
    nativeLoadError = (e as Error).message.split("\n")[0];
    return undefined;
  }
}

export function nativeUnavailableReason(): string | undefined {
  return nativeLoadError;
}

export function getBackend(): LinalgBackend {
  if (chosen) return chosen;
  const forced = process.env.GPMCMC_BACKEND;
  if (forced !== undefined && forced !== "" && forced !== "js" && forced !== "native") {
    throw new BackendError(`GPMCMC_BACKEND must be "js" or "native", not "${forced}"`);
  }
  if (forced === "js") return (chosen = jsBackend);
  const native = loadNativeBackend();
  if (native) return (chosen = native);
  if (forced === "native") {
    throw new BackendError(`GPMCMC_BACKEND=native, but the native addon is not available (${nativeLoadError}). ` +
      "Install OpenBLAS (apt-get install libopenblas-dev) and run `npm rebuild gpmcmc` (or `npm ci`).");
  }
  process.stderr.write("gpmcmc: using the pure TypeScript linear-algebra backend (slow). For the fast one, " +
    "install OpenBLAS (apt-get install libopenblas-dev) and run `npm ci` again.\n");
  return (chosen = jsBackend);
}

/** Replaces the backend in use (tests and benchmarks compare the two in one process). */
export function setBackend(b: LinalgBackend): void {
  chosen = b;
}
