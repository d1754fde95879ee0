/**
 * The report and an SVG figure opened in headless Chromium (Debian's `chromium` package, driven
 * by playwright-core; no browser is downloaded). Skipped, with a message saying why, where no
 * Chromium is installed. Screenshots are written to GPMCMC_TEST_ARTIFACTS (default
 * $TMPDIR/gpmcmc-test-artifacts) and their paths printed as test diagnostics.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { accessSync, constants, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Page } from "playwright-core";
import { buildReport, echartsSource, PALETTE } from "../../src/report/index.js";
import { svgLineFigure } from "../../src/report/figures.js";
import { scratchDir, skipUnlessAvailable } from "../fixtures.js";
import { figure2Spec, writeSyntheticAis, writeSyntheticRun } from "./fixtures.js";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

function findChromium(): string | undefined {
  const given = process.env.GPMCMC_CHROMIUM;
  for (const p of given ? [given] : CANDIDATES) {
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not there: try the next
    }
  }
  return undefined;
}

const executablePath = findChromium();
const skip = skipUnlessAvailable(
  executablePath === undefined
    ? `no Chromium found (${process.env.GPMCMC_CHROMIUM ? `GPMCMC_CHROMIUM=${process.env.GPMCMC_CHROMIUM} is not executable` : `looked for ${CANDIDATES.join(", ")}`}): ` +
      "install Debian's chromium package (apt-get install chromium), or set GPMCMC_CHROMIUM to a Chromium or Chrome executable, to run this test"
    : false,
);

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

function artifactsDir(): string {
  const dir = process.env.GPMCMC_TEST_ARTIFACTS ?? join(tmpdir(), "gpmcmc-test-artifacts");
  mkdirSync(dir, { recursive: true });
  return dir;
}

interface ChartState {
  id: string;
  width: number;
  height: number;
  canvases: number;
  series: number;
  /** Share of the chart's canvas pixels in the colours of chains and runs (not axes, grid or text). */
  ink: number;
  failed: boolean;
}

/** Opens a page, and lists what went wrong: console errors, page errors, requests that left the file. */
async function open(page: Page, url: string): Promise<string[]> {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => {
    if (r.url() !== url) problems.push(`request: ${r.url()}`);
  });
  await page.goto(url, { waitUntil: "load" });
  return problems;
}

/** Every chart's size, canvas, series count and how much of it is drawn in series colours. */
function chartStates(page: Page): Promise<ChartState[]> {
  return page.evaluate((palette: string[]) => {
    const rgb = palette.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));
    const lib = (window as unknown as { echarts?: { getInstanceByDom(el: Element): { getOption(): { series?: unknown[] } } | undefined } }).echarts;
    return Array.from(document.querySelectorAll("[data-chart]"), (el) => {
      const box = el.getBoundingClientRect();
      const canvases = el.querySelectorAll("canvas");
      let ink = 0;
      const canvas = canvases[0];
      if (canvas !== undefined && canvas.width > 0 && canvas.height > 0) {
        const px = (canvas.getContext("2d") as CanvasRenderingContext2D).getImageData(0, 0, canvas.width, canvas.height).data;
        let drawn = 0;
        for (let i = 0; i < px.length; i += 4) {
          if (px[i + 3] === 0) continue;
          if (rgb.some((c) => Math.abs(px[i] - c[0]) + Math.abs(px[i + 1] - c[1]) + Math.abs(px[i + 2] - c[2]) < 40)) drawn++;
        }
        ink = drawn / (canvas.width * canvas.height);
      }
      const chart = lib?.getInstanceByDom(el);
      return {
        id: el.id,
        width: box.width,
        height: box.height,
        canvases: canvases.length,
        series: chart?.getOption().series?.length ?? 0,
        ink,
        failed: el.classList.contains("chart-failed"),
      };
    });
  }, PALETTE);
}

/** The page with every chart's data removed: axes, legends and grids only. */
function withoutData(html: string): string {
  const block = /(<script type="application\/json" id="chart-data">)([\s\S]*?)(<\/script>)/;
  const m = block.exec(html) as RegExpExecArray;
  const data = JSON.parse(m[2]) as Record<string, { series?: Record<string, unknown>[] }>;
  for (const option of Object.values(data)) {
    option.series = (option.series ?? []).map(({ markLine: _l, markArea: _a, ...rest }) => ({ ...rest, data: [] }));
  }
  return html.replace(block, (_all, open: string, _json: string, close: string) => open + JSON.stringify(data).replace(/</g, "\\u003c") + close);
}

/** What is wrong with the rendered charts (none when all drew). */
function chartProblems(states: ChartState[]): string[] {
  return states.flatMap((c) => {
    const p: string[] = [];
    if (c.failed) p.push(`${c.id}: failed`);
    if (c.canvases !== 1) p.push(`${c.id}: ${c.canvases} canvases`);
    if (!(c.width > 200 && c.height > 150)) p.push(`${c.id}: ${c.width} x ${c.height} px`);
    if (c.series === 0) p.push(`${c.id}: no series`);
    return p;
  });
}

test("the report opens in headless Chromium without errors, and its charts draw", { skip, timeout: 90_000 }, async (t) => {
  const out = artifactsDir();
  const s = scratchDir();
  const browser = await chromium.launch({ executablePath, args: FLAGS, headless: true });
  try {
    writeSyntheticRun(s.dir, { variables: 8, draws: 500, shift: { variable: 6, chain: 2, by: 1.5 }, divergentEvery: 41 });
    writeSyntheticAis(s.dir);
    const html = buildReport(s.dir);
    const reportPath = join(out, "report.html");
    writeFileSync(reportPath, html);

    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const url = pathToFileURL(reportPath).href;
    const problems = await open(page, url);
    const states = await chartStates(page);
    const expected = (html.match(/data-chart="/g) ?? []).length;
    assert.ok(expected >= 35, `${expected} charts in the page`);
    assert.equal(states.length, expected);
    assert.deepEqual(chartProblems(states), []);
    assert.deepEqual(problems, []);
    const shot = join(out, "report.png");
    await page.screenshot({ path: shot, fullPage: true });
    t.diagnostic(`report: ${reportPath}`);
    t.diagnostic(`screenshot: ${shot}`);

    // Every chart draws its data: more of it is in the series' colours than when the same
    // chart is drawn without data (the legend's swatches alone). A negative control too.
    const page0 = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const emptyPath = join(s.dir, "empty.html");
    writeFileSync(emptyPath, withoutData(html));
    assert.deepEqual(await open(page0, pathToFileURL(emptyPath).href), []);
    const empty = await chartStates(page0);
    assert.deepEqual(chartProblems(empty), [], "without data the charts still draw (axes, legends)");
    const faint = states.flatMap((c, i) => (c.ink > empty[i].ink + 0.003 ? [] : [`${c.id}: ${(100 * c.ink).toFixed(2)}% vs ${(100 * empty[i].ink).toFixed(2)}% without data`]));
    assert.deepEqual(faint, []);

    // Negative control: without the inlined library the same checks fail.
    const broken = html.replace(`<script>${echartsSource()}</script>`, "<script></script>");
    assert.notEqual(broken, html);
    const brokenPath = join(s.dir, "broken.html");
    writeFileSync(brokenPath, broken);
    const page2 = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const brokenProblems = await open(page2, pathToFileURL(brokenPath).href);
    assert.ok(brokenProblems.some((p) => /echarts is not defined/.test(p)), brokenProblems.join("\n"));
    assert.equal(chartProblems(await chartStates(page2)).length >= expected, true);
  } finally {
    await browser.close();
    s.cleanup();
  }
});

test("an SVG figure parses and renders in headless Chromium", { skip, timeout: 60_000 }, async (t) => {
  const out = artifactsDir();
  const browser = await chromium.launch({ executablePath, args: FLAGS, headless: true });
  try {
    const svgPath = join(out, "figure2.svg");
    writeFileSync(svgPath, svgLineFigure(figure2Spec()));
    const page = await browser.newPage({ viewport: { width: 640, height: 400 } });
    const url = pathToFileURL(svgPath).href;
    const problems = await open(page, url);
    const info = await page.evaluate(() => {
      const root = document.documentElement;
      const box = (root as unknown as SVGGraphicsElement).getBBox();
      return {
        tag: root.tagName,
        namespace: root.namespaceURI,
        parseErrors: document.getElementsByTagName("parsererror").length,
        paths: document.getElementsByTagName("path").length,
        texts: Array.from(document.getElementsByTagName("text"), (e) => e.textContent),
        width: box.width,
        height: box.height,
      };
    });
    assert.deepEqual(problems, []);
    assert.equal(info.tag, "svg");
    assert.equal(info.namespace, "http://www.w3.org/2000/svg");
    assert.equal(info.parseErrors, 0);
    assert.ok(info.paths > 20, `${info.paths} paths`);
    for (const w of ["AIS, RMHMC", "AIS, HMC", "AIS, elliptical slice", "EP", "corrected EP"]) assert.ok(info.texts.includes(w), w);
    assert.ok(info.width > 500 && info.height > 300, `drawing spans ${info.width} x ${info.height}`);
    const png = join(out, "figure2.png");
    await page.screenshot({ path: png });
    t.diagnostic(`figure: ${svgPath}`);
    t.diagnostic(`figure rendered: ${png}`);
  } finally {
    await browser.close();
  }
});
