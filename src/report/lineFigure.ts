/**
 * A line figure of several series against a common x, with error bars, horizontal reference
 * lines (optionally with a shaded band) and log scales: the shape of the papers' figures, such
 * as log Z estimates against computation time for several AIS variants beside the EP and
 * corrected-EP values. `lineFigureOption` gives the ECharts option (plain JSON, usable in the
 * HTML report); figures.ts renders it to a static SVG.
 */
import type { EChartsOption, LineSeriesOption, ScatterSeriesOption } from "echarts";
import { baseOption, colourOf } from "./charts.js";
import { forPlot } from "./curves.js";

export interface FigureSeries {
  name: string;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  /** Half-widths of error bars (y - e to y + e), one per point; NaN for none. */
  error?: ArrayLike<number>;
  /** A CSS colour; by default the palette's next. */
  colour?: string;
  /** Join the points by a line (default true). */
  line?: boolean;
  /** Mark each point (default true). */
  markers?: boolean;
  dashed?: boolean;
}

export interface FigureReferenceLine {
  /** The y value, e.g. the EP estimate of log Z. */
  y: number;
  label: string;
  colour?: string;
  /** Dashed (default) or solid. */
  dashed?: boolean;
  /** Shade y - band .. y + band (e.g. one standard error). */
  band?: number;
}

export interface LineFigureSpec {
  title?: string;
  xLabel: string;
  yLabel: string;
  /** Base-10 logarithmic x axis (x must be positive). */
  xLog?: boolean;
  /** Base-10 logarithmic y axis (y, bars and references must be positive). */
  yLog?: boolean;
  series: FigureSeries[];
  references?: FigureReferenceLine[];
  /** Pixel size of the figure (default 640 x 400). */
  width?: number;
  height?: number;
}

/** A figure specification that cannot be drawn (lengths that differ, non-positive values on a log axis). */
export class FigureSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FigureSpecError";
  }
}

const REFERENCE_COLOURS = ["#222222", "#7f3c8d", "#11a579", "#e73f74"];

/** The ECharts option of a line figure (plain JSON). Throws FigureSpecError for a bad spec. */
export function lineFigureOption(spec: LineFigureSpec): EChartsOption {
  checkSpec(spec);
  const series: (LineSeriesOption | ScatterSeriesOption)[] = [];
  let xMin = Infinity;
  let yLo = Infinity;
  let yHi = -Infinity;
  const see = (x: number, y: number) => {
    if (Number.isFinite(x) && x < xMin) xMin = x;
    if (Number.isFinite(y)) {
      yLo = Math.min(yLo, y);
      yHi = Math.max(yHi, y);
    }
  };
  spec.series.forEach((s, k) => {
    const colour = s.colour ?? colourOf(k);
    const points = Array.from({ length: s.x.length }, (_, i) => [forPlot(s.x[i]), forPlot(s.y[i])] as [number | null, number | null]);
    for (let i = 0; i < s.x.length; i++) see(s.x[i], s.y[i]);
    const markers = s.markers ?? true;
    series.push({
      type: "line",
      name: s.name,
      data: points,
      color: colour,
      showSymbol: markers,
      symbol: "circle",
      symbolSize: 6,
      lineStyle: s.line === false ? { width: 0, opacity: 0 } : { width: 1.8, type: s.dashed ? "dashed" : "solid" },
      connectNulls: false,
      z: 3,
    });
    if (s.error !== undefined) {
      // A vertical segment per point, separated by gaps (null y), and a short cap at each end.
      const bars: (number | null)[][] = [];
      const caps: (number | null)[][] = [];
      for (let i = 0; i < s.x.length; i++) {
        const e = s.error[i];
        if (!(e >= 0) || !Number.isFinite(s.y[i])) continue;
        const lo = s.y[i] - e;
        const hi = s.y[i] + e;
        see(s.x[i], lo);
        see(s.x[i], hi);
        bars.push([forPlot(s.x[i]), forPlot(lo)], [forPlot(s.x[i]), forPlot(hi)], [forPlot(s.x[i]), null]);
        caps.push([forPlot(s.x[i]), forPlot(lo)], [forPlot(s.x[i]), forPlot(hi)]);
      }
      series.push(
        { type: "line", name: s.name, data: bars, color: colour, showSymbol: false, connectNulls: false, lineStyle: { width: 1.2 }, silent: true, tooltip: { show: false }, z: 2 },
        { type: "scatter", name: s.name, data: caps, color: colour, symbol: "rect", symbolSize: [8, 1.5], silent: true, tooltip: { show: false }, z: 2 },
      );
    }
  });
  const references = spec.references ?? [];
  if (references.length > 0) {
    for (const r of references) {
      see(NaN, r.y - (r.band ?? 0));
      see(NaN, r.y + (r.band ?? 0));
    }
    // Lines close together (EP and its correction) keep their labels apart: by height, alternately above and below.
    const byHeight = references.map((r, k) => ({ y: r.y, k })).sort((a, b) => b.y - a.y);
    const labelAbove = new Array<boolean>(references.length);
    byHeight.forEach(({ k }, rank) => (labelAbove[k] = rank % 2 === 0));
    const colourOfRef = (r: FigureReferenceLine, k: number) => r.colour ?? REFERENCE_COLOURS[k % REFERENCE_COLOURS.length];
    const bands = references
      .map((r, k) => ({ r, k }))
      .filter(({ r }) => r.band !== undefined && r.band > 0)
      .map(({ r, k }) => [
        { yAxis: forPlot(r.y - (r.band as number)) as number, itemStyle: { color: colourOfRef(r, k), opacity: 0.12 } },
        { yAxis: forPlot(r.y + (r.band as number)) as number },
      ]);
    // A series with invisible points just beyond the extremes of data and references, so that
    // the y axis's range includes the lines with a margin (ECharts does not widen an axis for
    // mark lines), carrying the lines.
    const margin = spec.yLog ? 0 : 0.04 * (yHi - yLo || Math.abs(yHi) || 1);
    series.push({
      type: "line",
      name: "reference lines",
      data: Number.isFinite(xMin) ? [[forPlot(xMin), forPlot(yLo - margin)], [forPlot(xMin), forPlot(yHi + margin)]] : [],
      showSymbol: false,
      lineStyle: { opacity: 0 },
      silent: true,
      tooltip: { show: false },
      markLine: {
        silent: true,
        symbol: "none",
        data: references.map((r, k) => ({
          yAxis: forPlot(r.y) as number,
          name: r.label,
          lineStyle: { color: colourOfRef(r, k), type: r.dashed === false ? "solid" : "dashed", width: 1.4 },
          // inside the plot at the right end: above the line for the highest, below for the next, ...
          label: { formatter: "{b}", position: labelAbove[k] ? "insideEndTop" : "insideEndBottom", color: colourOfRef(r, k), fontSize: 12 },
        })),
      },
      ...(bands.length > 0 ? { markArea: { silent: true, data: bands as never } } : {}),
    });
  }
  const names = spec.series.map((s) => s.name);
  const width = spec.width ?? 640;
  const base = baseOption();
  return {
    ...base,
    backgroundColor: "#ffffff",
    textStyle: { ...(base.textStyle as object), fontSize: 12 },
    title: spec.title !== undefined ? { text: spec.title, left: "center", top: 6, textStyle: { fontSize: 14, fontWeight: "bold" } } : undefined,
    // One legend per row, rows broken here: the renderer's own measure of text on the server (no
    // fonts) can fall short of what a browser draws, so entries get a wide gap and never wrap on
    // their own.
    legend: legendRowsOf(names, width - 94).map((row, r, rows) => ({
      data: row, bottom: 4 + 20 * (rows.length - 1 - r), left: 70, itemWidth: 18, itemHeight: 10, itemGap: LEGEND_GAP, textStyle: { fontSize: 12 },
    })),
    tooltip: { trigger: "item" },
    // The legend wraps below the axis: room for as many rows as its entries need.
    grid: { left: 70, right: 24, top: spec.title !== undefined ? 40 : 20, bottom: 56 + 20 * legendRowsOf(names, width - 94).length },
    xAxis: axisOption(spec.xLog, spec.xLabel, 28),
    yAxis: axisOption(spec.yLog, spec.yLabel, 52),
    series,
  };
}

/** A value axis, linear or base-10 logarithmic; `nameGap` leaves room for the tick labels. */
function axisOption(log: boolean | undefined, name: string, nameGap: number) {
  return {
    type: log ? ("log" as const) : ("value" as const),
    ...(log ? { logBase: 10 } : { scale: true }),
    name,
    nameLocation: "middle" as const,
    nameGap,
    nameTextStyle: { fontSize: 13 },
    splitLine: { show: true, lineStyle: { color: "#eeeeee" } },
    axisLine: { onZero: false },
  };
}

const LEGEND_GAP = 36;

/** The legend's entries in rows across `width` pixels (an entry: an 18 px mark, 5 px, about 7 px a character at 12 px, the gap). */
function legendRowsOf(names: string[], width: number): string[][] {
  const rows: string[][] = [];
  let used = 0;
  for (const name of names) {
    const w = 18 + 5 + 7 * name.length + LEGEND_GAP;
    if (rows.length === 0 || (used > 0 && used + w > width)) {
      rows.push([]);
      used = 0;
    }
    rows[rows.length - 1].push(name);
    used += w;
  }
  return rows;
}

function checkSpec(spec: LineFigureSpec): void {
  if (spec.series.length === 0 && (spec.references ?? []).length === 0) throw new FigureSpecError("a figure needs at least one series or reference line");
  for (const s of spec.series) {
    const what = `series ${JSON.stringify(s.name)}`;
    if (s.x.length !== s.y.length) throw new FigureSpecError(`${what}: ${s.x.length} x values but ${s.y.length} y values`);
    if (s.error !== undefined && s.error.length !== s.x.length) throw new FigureSpecError(`${what}: ${s.error.length} error bars for ${s.x.length} points`);
    for (let i = 0; i < s.x.length; i++) {
      if (spec.xLog && !(s.x[i] > 0)) throw new FigureSpecError(`${what}: x[${i}] = ${s.x[i]} cannot be drawn on a log x axis (values must be positive)`);
      if (spec.yLog && Number.isFinite(s.y[i])) {
        const lo = s.y[i] - (s.error !== undefined && s.error[i] >= 0 ? s.error[i] : 0);
        if (!(lo > 0)) throw new FigureSpecError(`${what}: point ${i} (or its error bar) reaches ${lo}, which cannot be drawn on a log y axis`);
      }
    }
  }
  for (const r of spec.references ?? []) {
    if (!Number.isFinite(r.y)) throw new FigureSpecError(`reference line ${JSON.stringify(r.label)}: y = ${r.y} is not a finite number`);
    if (spec.yLog && !(r.y - (r.band ?? 0) > 0)) throw new FigureSpecError(`reference line ${JSON.stringify(r.label)} cannot be drawn on a log y axis (values must be positive)`);
  }
}
