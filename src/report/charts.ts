/**
 * The report's charts as Apache ECharts options. Every option is plain JSON (no functions), so
 * the page can carry it in a <script type="application/json"> block and the same option can be
 * rendered to SVG in Node (figures.ts).
 */
import type { EChartsOption, LineSeriesOption, ScatterSeriesOption, BarSeriesOption } from "echarts";
import { forPlot, type Point } from "./curves.js";

/**
 * Colours for chains and runs: Tableau 10, whose neighbours stay distinguishable with the
 * common forms of colour blindness and in greyscale print.
 */
export const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

/** The colour of chain or run k (0-based). */
export function colourOf(k: number): string {
  return PALETTE[k % PALETTE.length];
}

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** Settings every chart shares: no animation (a screenshot shows the final state), one font. */
export function baseOption(): EChartsOption {
  return {
    animation: false,
    color: PALETTE,
    textStyle: { fontFamily: FONT, fontSize: 11 },
    grid: { left: 56, right: 18, top: 32, bottom: 40 },
  };
}

function chainLegend(count: number): EChartsOption["legend"] {
  return count > 1 ? { top: 0, itemWidth: 14, itemHeight: 8, textStyle: { fontSize: 11 } } : { show: false };
}

function axisName(name: string, gap = 26): { name: string; nameLocation: "middle"; nameGap: number } {
  return { name, nameLocation: "middle", nameGap: gap };
}

const thinLine = (k: number): Partial<LineSeriesOption> => ({
  showSymbol: false,
  lineStyle: { width: 1 },
  color: colourOf(k),
  emphasis: { disabled: true },
});

/** Trace plot: one line per chain against the draw number, divergent draws marked in red. */
export function traceChart(traces: Point[][], divergent: Point[], draws: number): EChartsOption {
  const series: (LineSeriesOption | ScatterSeriesOption)[] = traces.map((points, c) => ({
    type: "line",
    name: `chain ${c + 1}`,
    data: points,
    ...thinLine(c),
  }));
  if (divergent.length > 0) {
    series.push({ type: "scatter", name: "divergent", data: divergent, symbolSize: 5, color: "#d62728", z: 5 });
  }
  return {
    ...baseOption(),
    legend: chainLegend(traces.length + (divergent.length > 0 ? 1 : 0)),
    tooltip: { trigger: "axis" },
    xAxis: { type: "value", min: 1, max: Math.max(draws, 2), ...axisName("draw") },
    yAxis: { type: "value", scale: true },
    dataZoom: [{ type: "inside", xAxisIndex: 0 }],
    series,
  };
}

/**
 * Rank plot (Vehtari et al. 2021, sec. 4.2): one histogram of pooled ranks per chain, stacked
 * vertically, with the count every bin would hold if the chains mixed (dashed).
 */
export function rankChart(counts: Float64Array[], expected: number[]): EChartsOption {
  const chains = counts.length;
  const bins = chains > 0 ? counts[0].length : 0;
  const top = 8;
  const rowHeight = RANK_ROW_HEIGHT;
  const categories = Array.from({ length: bins }, (_, k) => String(k + 1));
  // One scale for all chains, so that a chain's excess or shortfall compares with the others'.
  let highest = 0;
  counts.forEach((k, c) => (highest = Math.max(highest, expected[c], ...k)));
  return {
    ...baseOption(),
    tooltip: { trigger: "axis" },
    grid: counts.map((_, c) => ({ left: 56, right: 18, top: top + c * rowHeight, height: rowHeight - 8 })),
    xAxis: counts.map((_, c) => ({
      type: "category",
      gridIndex: c,
      data: categories,
      axisLabel: { show: c === chains - 1 },
      axisTick: { show: c === chains - 1 },
      ...(c === chains - 1 ? axisName(`rank bin (of ${bins})`, 22) : {}),
    })),
    yAxis: counts.map((_, c) => ({
      type: "value",
      gridIndex: c,
      min: 0,
      max: Math.ceil(highest * 1.05),
      splitNumber: 2,
      axisLabel: { show: false },
      splitLine: { show: false },
      name: `chain ${c + 1}`,
      nameLocation: "middle",
      nameGap: 8,
      nameRotate: 0,
      nameTextStyle: { align: "right" },
    })),
    series: counts.map(
      (k, c): BarSeriesOption => ({
        type: "bar",
        name: `chain ${c + 1}`,
        xAxisIndex: c,
        yAxisIndex: c,
        data: Array.from(k),
        barCategoryGap: "8%",
        color: colourOf(c),
        markLine: {
          silent: true,
          symbol: "none",
          label: { show: false },
          lineStyle: { type: "dashed", color: "#333", width: 1 },
          data: [{ yAxis: expected[c] }],
        },
      }),
    ),
  };
}

/** Pixel height of one chain's row in a rank plot. */
export const RANK_ROW_HEIGHT = 46;

/** Height in pixels a rank chart of `chains` chains needs. */
export function rankChartHeight(chains: number): number {
  return 8 + chains * RANK_ROW_HEIGHT + 34;
}

/** Autocorrelation against lag, one line per chain, with a zero line. */
export function autocorrelationChart(acf: (Float64Array | null)[], maxLag: number): EChartsOption {
  let lowest = 0;
  for (const r of acf) if (r !== null) for (let t = 0; t <= maxLag && t < r.length; t++) if (r[t] < lowest) lowest = r[t];
  return {
    ...baseOption(),
    legend: chainLegend(acf.length),
    tooltip: { trigger: "axis" },
    xAxis: { type: "value", min: 0, max: maxLag, ...axisName("lag") },
    // Ticks every 0.2 from a multiple of 0.2, so that 0 and 1 are ticks.
    yAxis: { type: "value", max: 1, min: Math.min(-0.2, Math.floor(lowest * 5) / 5), interval: 0.2 },
    series: acf.map(
      (r, c): LineSeriesOption => ({
        type: "line",
        name: `chain ${c + 1}`,
        data: r === null ? [] : Array.from(r.subarray(0, maxLag + 1), (v, t) => [t, forPlot(v)]),
        ...thinLine(c),
        ...(c === 0 ? { markLine: { silent: true, symbol: "none", label: { show: false }, lineStyle: { color: "#555", type: "solid", width: 1 }, data: [{ yAxis: 0 }] } } : {}),
      }),
    ),
  };
}

/** Kernel density estimate per chain. */
export function densityChart(grid: Float64Array, densities: (Float64Array | null)[]): EChartsOption {
  return {
    ...baseOption(),
    legend: chainLegend(densities.length),
    tooltip: { trigger: "axis" },
    xAxis: { type: "value", scale: true },
    // The y axis at the left edge, not where x = 0.
    yAxis: { type: "value", min: 0, axisLine: { onZero: false }, ...axisName("density", 40) },
    series: densities.map(
      (d, c): LineSeriesOption => ({
        type: "line",
        name: `chain ${c + 1}`,
        data: d === null ? [] : Array.from(d, (v, g) => [forPlot(grid[g]), forPlot(v)]),
        ...thinLine(c),
        lineStyle: { width: 1.5 },
      }),
    ),
  };
}

/**
 * The energy plot of Betancourt (2016, fig. 23) as ArviZ's plot_energy draws it: the density
 * of the energies less their mean beside that of the energy transitions E_t - E_{t-1}. When
 * the transitions' distribution is much narrower, momentum resampling moves slowly across
 * energy levels (low E-BFMI).
 */
export function energyChart(centres: Float64Array, width: number, marginal: Float64Array, transition: Float64Array): EChartsOption {
  const total = (c: Float64Array) => c.reduce((a, b) => a + b, 0);
  const density = (c: Float64Array): Point[] => {
    const n = total(c);
    return Array.from(c, (v, k) => [forPlot(centres[k]) as number, n > 0 ? forPlot(v / (n * width)) : null]);
  };
  const area = (name: string, data: Point[], colour: string): LineSeriesOption => ({
    type: "line",
    name,
    data,
    step: "middle",
    showSymbol: false,
    color: colour,
    lineStyle: { width: 1.5 },
    areaStyle: { opacity: 0.3 },
  });
  return {
    ...baseOption(),
    legend: { top: 0, textStyle: { fontSize: 11 } },
    tooltip: { trigger: "axis" },
    xAxis: { type: "value", scale: true, ...axisName("energy") },
    yAxis: { type: "value", min: 0, axisLine: { onZero: false }, ...axisName("density", 40) },
    series: [area("marginal energy E - mean(E)", density(marginal), "#4e79a7"), area("energy transition E(t) - E(t-1)", density(transition), "#f28e2b")],
  };
}

/** Running mean of the acceptance statistic, one line per chain. */
export function acceptanceChart(running: Point[][]): EChartsOption {
  return {
    ...baseOption(),
    legend: chainLegend(running.length),
    tooltip: { trigger: "axis" },
    xAxis: { type: "value", min: 1, ...axisName("draw") },
    yAxis: { type: "value", min: 0, max: 1, ...axisName("mean acceptance so far", 36) },
    series: running.map((points, c): LineSeriesOption => ({ type: "line", name: `chain ${c + 1}`, data: points, ...thinLine(c), lineStyle: { width: 1.5 } })),
  };
}

/** Divergent transitions per chain. */
export function divergenceChart(counts: number[]): EChartsOption {
  return {
    ...baseOption(),
    tooltip: { trigger: "axis" },
    xAxis: { type: "category", data: counts.map((_, c) => `chain ${c + 1}`) },
    yAxis: { type: "value", min: 0, minInterval: 1, ...(counts.every((v) => v === 0) ? { max: 1 } : {}), ...axisName("divergent transitions", 36) },
    series: [
      {
        type: "bar",
        name: "divergent",
        data: counts.map((v, c) => ({ value: v, itemStyle: { color: colourOf(c) } })),
        barMaxWidth: 48,
        label: { show: true, position: "top" },
      },
    ],
  };
}
