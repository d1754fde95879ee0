/**
 * Pieces of the report page: HTML escaping, the number formats of its tables, the register of
 * its charts (each a placeholder element plus its ECharts option, inlined as JSON), and the
 * grid and message boxes the sections lay charts out in.
 */
import type { EChartsOption } from "echarts";

interface Chart {
  id: string;
  title: string;
  option: EChartsOption;
  height: number;
  /** Describes the chart for screen readers. */
  label: string;
}

/** The charts of one page: `chart` returns a chart's placeholder and keeps its option for the page's JSON. */
export class Page {
  private readonly charts: Chart[] = [];
  chart(title: string, option: EChartsOption, label: string, height = 240): string {
    const id = `chart-${this.charts.length + 1}`;
    this.charts.push({ id, title, option, height, label });
    return `<figure><figcaption>${esc(title)}</figcaption><div class="chart" id="${id}" data-chart="${id}" role="img" aria-label="${esc(label)}" style="height:${height}px"></div></figure>`;
  }
  get chartData(): Record<string, EChartsOption> {
    return Object.fromEntries(this.charts.map((c) => [c.id, c.option]));
  }
}

/** Figures side by side, as many to a row as fit. */
export function grid(figures: string[]): string {
  return `<div class="charts">${figures.join("")}</div>`;
}

/** A figure's place holding a message instead of a chart. */
export function noChart(name: string, message: string): string {
  return `<figure><figcaption>${esc(name)}</figcaption><p class="warn">${esc(message)}</p></figure>`;
}

export function keyValueTable(rows: [string, string][]): string {
  if (rows.length === 0) return "<p>(none)</p>";
  return `<table class="kv"><tbody>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join("")}</tbody></table>`;
}

export function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Four significant digits, plain or exponent form. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "—" : x > 0 ? "∞" : "-∞";
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e6) return String(Number(x.toPrecision(4)));
  return x.toExponential(3).replace(/\.?0+e/, "e");
}

export function fmtFixed(x: number, digits: number): string {
  return Number.isFinite(x) ? x.toFixed(digits) : "—";
}

export function fmtEss(x: number): string {
  return Number.isFinite(x) ? String(Math.round(x)) : "—";
}

export function fmtRhat(x: number): string {
  return Number.isFinite(x) ? x.toFixed(3) : Number.isNaN(x) ? "undefined" : "∞";
}

/** JSON that cannot end the <script> element it sits in. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
