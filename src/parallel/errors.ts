/**
 * Errors across threads. Structured cloning keeps only built-in error types, so a worker sends
 * an error as {name, message, stack, own properties} and the main thread rebuilds it with the
 * original class where that class was registered (`registerErrorType`), so `instanceof` and
 * fields such as NotPositiveDefiniteError's pivot survive; otherwise an Error with the same
 * name and message.
 */

/** An error as a worker sends it. */
export interface SerialisedError {
  name: string;
  message: string;
  stack?: string;
  /** Own enumerable properties that survive structured cloning. */
  props: Record<string, unknown>;
}

type ErrorClass = abstract new (...args: never[]) => Error;

const BUILT_IN: ErrorClass[] = [Error, RangeError, TypeError, SyntaxError, ReferenceError, EvalError, URIError];
const classes = new Map<string, ErrorClass>(BUILT_IN.map((c) => [c.name, c]));

/**
 * Lets errors of class `type` thrown in a worker be rethrown as that class. `name` is the
 * error's `name` property (default: the class name).
 */
export function registerErrorType(type: ErrorClass, name: string = type.name): void {
  classes.set(name, type);
}

function cloneable(v: unknown): boolean {
  try {
    structuredClone(v);
    return true;
  } catch {
    return false;
  }
}

export function serialiseError(e: unknown): SerialisedError {
  if (!(e instanceof Error)) return { name: "Error", message: String(e), props: {} };
  const props: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (k !== "name" && k !== "message" && k !== "stack" && cloneable(v)) props[k] = v;
  }
  return { name: e.name, message: e.message, stack: e.stack, props };
}

export function reviveError(s: SerialisedError): Error {
  const type = classes.get(s.name);
  // Object.create: custom constructors take other arguments than a message.
  const e: Error = type !== undefined ? (Object.create(type.prototype) as Error) : new Error(s.message);
  Object.defineProperty(e, "message", { value: s.message, writable: true, configurable: true, enumerable: false });
  if (e.name !== s.name) Object.defineProperty(e, "name", { value: s.name, writable: true, configurable: true, enumerable: false });
  Object.assign(e, s.props);
  if (s.stack !== undefined) Object.defineProperty(e, "stack", { value: s.stack, writable: true, configurable: true, enumerable: false });
  return e;
}
