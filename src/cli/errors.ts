/**
 * How the `gpmcmc` command reports failure: one line on stderr beginning `gpmcmc: `, and an
 * exit code — 2 for a problem with the user's input (data, options, output path, a kernel
 * matrix that is not positive definite), 1 for anything else, which is a bug and says so.
 * A stack trace only with GPMCMC_DEBUG=1.
 */
import { Command, CommanderError } from "commander";
import { DataError, OutputError } from "../io/errors.js";
import { BackendError, NotPositiveDefiniteError } from "../linalg/errors.js";
import { LikelihoodDataError } from "../likelihoods/types.js";
import { OptionError } from "./options.js";

/** Exit code for bad input (data, options, output path). */
export const EXIT_BAD_INPUT = 2;
/** Exit code for an unexpected failure (a bug). */
export const EXIT_INTERNAL = 1;

const userErrorTypes: (abstract new (...args: never[]) => Error)[] = [
  DataError,
  OptionError,
  OutputError,
  NotPositiveDefiniteError,
  LikelihoodDataError,
  BackendError, // GPMCMC_BACKEND names a backend that cannot be used
];
// Errors raised by modules this file does not import, recognised by name.
const userErrorNames = new Set<string>(["KernelParameterError", "GridJobError", "MarginalEstimateError", "ThetaModeError"]);

/**
 * Marks an error class (or its `name`) as the user's input being at fault: reported as one
 * line with exit code 2.
 */
export function registerUserError(type: (abstract new (...args: never[]) => Error) | string): void {
  if (typeof type === "string") userErrorNames.add(type);
  else userErrorTypes.push(type);
}

/** Whether an error is about the user's input rather than a bug. */
export function isUserError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  return userErrorTypes.some((t) => e instanceof t) || userErrorNames.has(e.name);
}

export interface ReportIO {
  stderr?: (text: string) => void;
  env?: Record<string, string | undefined>;
}

/**
 * Writes the one-line report of `e` to stderr and returns the exit code. Commander's own
 * errors were already printed by the output hook of `configureErrorOutput` and are not
 * repeated; its help and version exits return 0.
 */
export function reportError(e: unknown, io: ReportIO = {}): number {
  const write = io.stderr ?? ((s: string) => void process.stderr.write(s));
  const debug = (io.env ?? process.env).GPMCMC_DEBUG === "1";
  if (e instanceof CommanderError) {
    if (e.exitCode === 0) return 0; // --help, --version
    if (debug && e.stack) write(e.stack + "\n");
    return EXIT_BAD_INPUT;
  }
  const message = oneLine(e instanceof Error ? e.message : String(e));
  let code: number;
  if (isUserError(e)) {
    write(`gpmcmc: ${message}\n`);
    code = EXIT_BAD_INPUT;
  } else {
    const what = e instanceof Error && e.name !== "Error" ? `${e.name}: ` : "";
    write(
      `gpmcmc: internal error: ${what}${message} -- this is a bug; please report it with the command you ran` +
        (debug ? "" : " (GPMCMC_DEBUG=1 shows the stack trace)") +
        "\n",
    );
    code = EXIT_INTERNAL;
  }
  if (debug && e instanceof Error && e.stack) write(e.stack + "\n");
  return code;
}

function oneLine(s: string): string {
  return s.replace(/\s*(\r\n|\r|\n)\s*/g, " ").trim();
}

/**
 * Makes Commander throw instead of exiting (so reportError decides the exit code), and print
 * its own usage errors as one `gpmcmc: ...` line. Call on the program before adding commands:
 * subcommands inherit the settings when created.
 */
export function configureErrorOutput(program: Command): Command {
  return program.exitOverride().configureOutput({
    outputError: (text, write) => write(`gpmcmc: ${oneLine(text.replace(/^error: /, ""))} (see --help)\n`),
  });
}

/**
 * Runs the program on argv and exits with the code of the outcome: 0 on success, else as
 * reportError says. For the CLI's entry point.
 */
export async function runAndExit(program: Command, argv: string[] = process.argv): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (e) {
    process.exit(reportError(e));
  }
}
