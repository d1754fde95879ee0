/**
 * A block of draws of many variables from several chains, in one Float64Array.
 *
 * Layout (row-major, variables fastest): the value of variable v at draw d of chain c is
 *   data[(c * draws + d) * variables + v].
 * One draw of one chain is a contiguous row, as samplers produce it and as CmdStan's CSV
 * stores it; a chain is a contiguous block of `draws` rows.
 */
import { DiagnosticsInputError } from "./errors.js";

export interface DrawsArray {
  readonly chains: number;
  readonly draws: number;
  readonly variables: number;
  readonly data: Float64Array;
}

/** Wraps (and checks) a Float64Array holding chains x draws x variables in the layout above. */
export function drawsArray(data: Float64Array, chains: number, draws: number, variables: number): DrawsArray {
  for (const [name, v] of [["chains", chains], ["draws", draws], ["variables", variables]] as const) {
    if (!(Number.isInteger(v) && v >= 1)) throw new DiagnosticsInputError("bad-layout", `drawsArray: ${name} must be a positive integer, got ${v}`);
  }
  if (!(data instanceof Float64Array)) throw new DiagnosticsInputError("not-float64", "drawsArray: data must be a Float64Array");
  if (data.length !== chains * draws * variables) {
    throw new DiagnosticsInputError(
      "bad-layout",
      `drawsArray: data has ${data.length} values, but ${chains} chains x ${draws} draws x ${variables} variables need ${chains * draws * variables}`,
    );
  }
  return { chains, draws, variables, data };
}

/**
 * The chains of variable v (copies), optionally only their first `length` draws, written into
 * `out` when given (reused buffers of the right length).
 */
export function variableChains(d: DrawsArray, v: number, length = d.draws, out?: Float64Array[]): Float64Array[] {
  if (!(Number.isInteger(v) && v >= 0 && v < d.variables)) {
    throw new DiagnosticsInputError("bad-argument", `variableChains: variable index ${v} is outside 0..${d.variables - 1}`);
  }
  if (!(Number.isInteger(length) && length >= 1 && length <= d.draws)) {
    throw new DiagnosticsInputError("bad-argument", `variableChains: length ${length} is outside 1..${d.draws}`);
  }
  const chains = out ?? Array.from({ length: d.chains }, () => new Float64Array(length));
  const { data, draws, variables } = d;
  for (let c = 0; c < d.chains; c++) {
    const x = chains[c];
    let k = c * draws * variables + v;
    for (let i = 0; i < length; i++, k += variables) x[i] = data[k];
  }
  return chains;
}

/** Builds a DrawsArray from per-variable chains: chainsByVariable[v][c] is a Float64Array. */
export function drawsFromChains(chainsByVariable: readonly (readonly Float64Array[])[]): DrawsArray {
  const variables = chainsByVariable.length;
  if (variables === 0) throw new DiagnosticsInputError("no-chains", "drawsFromChains: no variables given");
  const chains = chainsByVariable[0].length;
  const draws = chains > 0 ? chainsByVariable[0][0].length : 0;
  if (chains === 0 || draws === 0) throw new DiagnosticsInputError("no-chains", "drawsFromChains: no chains or no draws");
  const data = new Float64Array(chains * draws * variables);
  chainsByVariable.forEach((vc, v) => {
    if (vc.length !== chains) throw new DiagnosticsInputError("ragged-chains", `drawsFromChains: variable ${v} has ${vc.length} chains, variable 0 has ${chains}`);
    vc.forEach((x, c) => {
      if (x.length !== draws) throw new DiagnosticsInputError("ragged-chains", `drawsFromChains: variable ${v}, chain ${c} has ${x.length} draws, expected ${draws}`);
      for (let i = 0; i < draws; i++) data[(c * draws + i) * variables + v] = x[i];
    });
  });
  return { chains, draws, variables, data };
}
