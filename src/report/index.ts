/**
 * Reports and figures: the HTML report of a run directory, and the options of line figures.
 * The SVG renderers (svgLineFigure, svgFigure) load ECharts' renderer, which takes a second or
 * more, so they are imported on their own: `import { svgLineFigure } from "gpmcmc/figures"`.
 */
export { buildReport, renderReport, chooseVariables, echartsSource, UnknownVariableError, DEFAULT_MAX_VARIABLES } from "./html.js";
export type { ReportOptions, VariableChoice, ChoiceReason } from "./html.js";
export { loadRun, SUMMARY_FILE } from "./run.js";
export type { RunData } from "./run.js";
export { lineFigureOption, FigureSpecError } from "./lineFigure.js";
export type { LineFigureSpec, FigureSeries, FigureReferenceLine } from "./lineFigure.js";
export { PALETTE } from "./charts.js";
