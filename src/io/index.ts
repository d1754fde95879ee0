/** Data sets in, draws and summaries out. */
export { DataError, OutputError } from "./errors.js";
export type { DataLocation } from "./errors.js";
export { readNumber, formatNumber } from "./numbers.js";
export type { NumberToken } from "./numbers.js";
export { readDataset, parseDataset, labelKindFor, labelCounts } from "./dataset.js";
export type { Dataset, ReadDatasetOptions, LabelKind, BinaryCoding } from "./dataset.js";
export {
  AtomicFile,
  writeFileAtomic,
  writeJsonAtomic,
  checkOutputDir,
  prepareOutputDir,
  OutputDir,
  OUTPUT_MARKER,
  readOutputMarker,
} from "./atomic.js";
export type { OutputDirCheck, OutputDirOptions, OutputMarker } from "./atomic.js";
export {
  SAMPLER_COLUMNS,
  CmdStanWriter,
  writeCmdStanCsv,
  readCmdStanCsv,
  parseCmdStanCsv,
  columnValues,
  configComments,
  drawStatsFrom,
  drawsFileName,
  findDrawsFiles,
  vectorNames,
} from "./cmdstan.js";
export type { CmdStanCsv, CmdStanRunInfo, ChainDraws, DrawStats, Timing } from "./cmdstan.js";
export { diagnoseRun, diagnoseDraws, formatRhat, RHAT_THRESHOLD, ESS_PER_CHAIN } from "./diagnosis.js";
export type { Diagnosis, DiagnosisRow, ChainFileInfo, DiagnoseOptions } from "./diagnosis.js";
export { AIS_TRACE_FILE, readAisTrace, parseAisTrace, checkAisTrace, writeAisTrace } from "./ais.js";
export type { AisTrace, AisRunTrace, AisTracePoint, AisReference } from "./ais.js";
