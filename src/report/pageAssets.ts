/**
 * What the report page carries besides its content: Apache ECharts' browser build, the script
 * that draws every chart from its inlined option, and the style sheet.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

let echartsText: string | undefined;

/**
 * The minified browser build of ECharts with its common charts (line, bar, scatter, pie) and
 * components, to inline in the page.
 */
export function echartsSource(): string {
  if (echartsText === undefined) {
    const path = createRequire(import.meta.url).resolve("echarts/dist/echarts.common.min.js");
    // "</script" inside a script element would end it early; "<\/script" means the same in JS.
    echartsText = readFileSync(path, "utf8").replace(/<\/script/gi, "<\\/script");
  }
  return echartsText;
}

export const INIT_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById("chart-data").textContent);
  var charts = [];
  document.querySelectorAll("[data-chart]").forEach(function (el) {
    try {
      var chart = echarts.init(el, null, { renderer: "canvas" });
      chart.setOption(data[el.getAttribute("data-chart")]);
      charts.push(chart);
    } catch (e) {
      el.classList.add("chart-failed");
      el.textContent = "This chart could not be drawn: " + e.message;
      console.error("chart " + el.id + ": " + (e && e.stack ? e.stack : e));
    }
  });
  window.addEventListener("resize", function () {
    charts.forEach(function (c) { c.resize(); });
  });
})();
`;

export const CSS = `
:root { --fg: #1f2328; --muted: #59636e; --line: #d8dee4; --bg: #f6f8fa; --warn: #b3261e; --warnbg: #fdecea; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
header { background: #24292f; color: #fff; padding: 14px 24px 0; position: sticky; top: 0; z-index: 10; }
header h1 { margin: 0; font-size: 18px; font-weight: 600; word-break: break-all; }
header .sub { margin: 4px 0 8px; color: #c9d1d9; font-size: 13px; }
nav { display: flex; flex-wrap: wrap; gap: 2px; }
nav a { color: #c9d1d9; text-decoration: none; padding: 6px 10px; font-size: 13px; border-radius: 6px 6px 0 0; }
nav a:hover { background: #32383f; color: #fff; }
main { padding: 8px 24px 24px; max-width: 1800px; margin: 0 auto; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 4px 18px 16px; margin: 16px 0; scroll-margin-top: 110px; }
h2 { font-size: 16px; margin: 12px 0 6px; }
p.note { color: var(--muted); margin: 4px 0 10px; max-width: 100ch; }
p.warn, span.warn { color: var(--warn); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 12px; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px 4px; min-width: 0; }
figcaption { font: 600 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: #333; }
.chart { width: 100%; }
.chart-failed { color: var(--warn); padding: 12px; }
table { border-collapse: collapse; font-size: 13px; }
table.kv th { text-align: left; font-weight: 500; color: var(--muted); padding: 2px 16px 2px 0; vertical-align: top; }
table.kv td { padding: 2px 0; word-break: break-all; }
table.diag { margin: 6px 0 8px; }
table.diag th, table.diag td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
table.diag thead th { font-weight: 600; border-bottom: 2px solid var(--line); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.warn { color: var(--warn); background: var(--warnbg); font-weight: 600; }
td.why { color: var(--muted); }
table.small th, table.small td { padding: 2px 8px; }
.scroll { overflow-x: auto; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
footer { color: var(--muted); font-size: 12px; padding: 0 24px 24px; max-width: 1800px; margin: 0 auto; }
`;
