/**
 * Static SVG figures for papers and docs, drawn by Apache ECharts' server-side renderer (no
 * DOM, no browser): the same library and the same options as the HTML report's charts.
 *
 *   import { svgLineFigure, writeFileAtomic } from "gpmcmc";
 *   writeFileAtomic("docs/figure2.svg", svgLineFigure({
 *     xLabel: "seconds", yLabel: "log Z", xLog: true,
 *     series: [{ name: "AIS, RMHMC", x: seconds, y: logZ, error: standardErrors }],
 *     references: [{ y: logZEP, label: "EP" }, { y: logZCorrected, label: "corrected EP" }],
 *   }));
 */
import * as echarts from "echarts/core";
import { BarChart, LineChart, ScatterChart } from "echarts/charts";
import { GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, TitleComponent } from "echarts/components";
import { SVGRenderer } from "echarts/renderers";
import type { EChartsOption } from "echarts";
import { lineFigureOption, type LineFigureSpec } from "./lineFigure.js";

echarts.use([LineChart, ScatterChart, BarChart, GridComponent, LegendComponent, MarkLineComponent, MarkAreaComponent, TitleComponent, SVGRenderer]);

/** Renders any ECharts option (line, scatter and bar series) to an SVG document string. */
export function svgFigure(option: EChartsOption, size: { width: number; height: number }): string {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: size.width, height: size.height });
  try {
    // A static image has no tooltip.
    const { tooltip: _tooltip, ...rest } = option;
    chart.setOption({ ...rest, animation: false });
    return chart.renderToSVGString();
  } finally {
    // The renderer keeps a frame timer alive until disposed.
    chart.dispose();
  }
}

/** A line figure (see LineFigureSpec) as an SVG document string, 640 x 400 unless given. */
export function svgLineFigure(spec: LineFigureSpec): string {
  return svgFigure(lineFigureOption(spec), { width: spec.width ?? 640, height: spec.height ?? 400 });
}
