import { test } from "node:test";
import assert from "node:assert/strict";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { svgLineFigure } from "../../src/report/figures.js";
import { FigureSpecError, lineFigureOption, type LineFigureSpec } from "../../src/report/lineFigure.js";
import { figure2Spec } from "./fixtures.js";

function texts(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) texts(n, out);
  else if (typeof node === "object" && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "#text") out.push(String(v));
      else texts(v, out);
    }
  }
  return out;
}

test("svgLineFigure: a well-formed SVG document with every series, label and reference line", () => {
  const svg = svgLineFigure(figure2Spec());
  assert.equal(XMLValidator.validate(svg), true);
  assert.notEqual(XMLValidator.validate(svg.replace("</svg>", "")), true, "the validator rejects a truncated document");
  const doc = new XMLParser({ ignoreAttributes: false, preserveOrder: true }).parse(svg) as { svg?: unknown; ":@"?: Record<string, string> }[];
  const root = doc.find((n) => "svg" in n) as { ":@": Record<string, string> };
  assert.equal(root[":@"]["@_width"], "640");
  assert.equal(root[":@"]["@_height"], "400");
  assert.equal(root[":@"]["@_xmlns"], "http://www.w3.org/2000/svg");
  const words = texts(doc);
  for (const w of ["log Z against computing time", "seconds", "log Z", "AIS, RMHMC", "AIS, HMC", "AIS, elliptical slice", "EP", "corrected EP", "10", "100"]) {
    assert.ok(words.includes(w), `text "${w}" in ${JSON.stringify(words)}`);
  }
  // Each series is drawn in its colour; the lines of the reference values are dashed.
  for (const colour of ["#4e79a7", "#f28e2b", "#e15759"]) assert.ok(svg.includes(`stroke="${colour}"`), colour);
  assert.ok((svg.match(/stroke-dasharray/g) ?? []).length >= 3);
});

test("lineFigureOption: error bars as gapped segments with caps, log axes, the y range spans the references", () => {
  const spec = figure2Spec();
  const option = lineFigureOption(spec) as { series: { type: string; name: string; data: unknown[]; markLine?: { data: { yAxis: number; name: string }[] } }[]; xAxis: { type: string } };
  assert.equal(option.xAxis.type, "log");
  const rmhmc = option.series.filter((s) => s.name === "AIS, RMHMC");
  assert.deepEqual(rmhmc.map((s) => s.type), ["line", "line", "scatter"]);
  assert.deepEqual(rmhmc[1].data.slice(0, 3), [[1, -106.4], [1, -104.8], [1, null]]);
  assert.equal(rmhmc[2].data.length, 12);
  assert.equal(option.series.filter((s) => s.name === "AIS, elliptical slice").length, 1, "no error bars asked for, none drawn");
  const carrier = option.series.find((s) => s.name === "reference lines") as { data: [number, number][]; markLine: { data: { yAxis: number; name: string }[] } };
  assert.deepEqual(carrier.markLine.data.map((d) => [d.name, d.yAxis]), [["EP", -106.9], ["corrected EP", -106.4]]);
  // Invisible points just past the lowest and highest values (data, bars, references) set the y range.
  assert.ok(carrier.data[0][1] < -109 && carrier.data[1][1] > -104.8);
  // Plain JSON: it can travel in the HTML report.
  assert.deepEqual(JSON.parse(JSON.stringify(option)), option);
});

test("lineFigureOption refuses specs it cannot draw", () => {
  const bad: [Partial<LineFigureSpec>, RegExp][] = [
    [{ series: [] }, /at least one series or reference line/],
    [{ series: [{ name: "a", x: [1, 2], y: [1] }] }, /series "a": 2 x values but 1 y values/],
    [{ series: [{ name: "a", x: [1], y: [1], error: [1, 2] }] }, /series "a": 2 error bars for 1 points/],
    [{ xLog: true, series: [{ name: "a", x: [0, 1], y: [1, 2] }] }, /series "a": x\[0\] = 0 cannot be drawn on a log x axis/],
    [{ yLog: true, series: [{ name: "a", x: [1], y: [1], error: [2] }] }, /series "a": point 0 \(or its error bar\) reaches -1/],
    [{ series: [], references: [{ y: NaN, label: "EP" }] }, /reference line "EP": y = NaN is not a finite number/],
  ];
  for (const [patch, message] of bad) {
    assert.throws(() => lineFigureOption({ xLabel: "x", yLabel: "y", series: [], ...patch }), (e: unknown) => e instanceof FigureSpecError && message.test(e.message), String(message));
  }
});
