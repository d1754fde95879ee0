/**
 * What Figure 9 (experiments/coxProcessHyper.ts) writes: a Gaussian kernel density estimate of each
 * hyperparameter's draws with its true value, side by side, as an SVG, and the draws' mean and sd.
 */
/** Gaussian kernel density estimate on a grid, Silverman's bandwidth. */
function kde(v: number[], lo: number, hi: number, points = 100): { x: number[]; y: number[] } {
  const m = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1));
  const h = 1.06 * sd * Math.pow(v.length, -0.2);
  const x = Array.from({ length: points }, (_, i) => lo + ((hi - lo) * i) / (points - 1));
  const y = x.map((t) => v.reduce((a, u) => a + Math.exp(-0.5 * ((t - u) / h) ** 2), 0) / (v.length * h * Math.sqrt(2 * Math.PI)));
  return { x, y };
}

export function densitySvg(panels: { label: string; draws: number[]; truth: number }[]): string {
  const w = 320;
  const h = 220;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${w * panels.length}" height="${h}" font-family="sans-serif" font-size="12">`];
  panels.forEach((p, k) => {
    const lo = Math.min(...p.draws, p.truth);
    const hi = Math.max(...p.draws, p.truth);
    const pad = 0.15 * (hi - lo);
    const d = kde(p.draws, lo - pad, hi + pad);
    const ymax = Math.max(...d.y);
    const sx = (t: number) => k * w + 30 + ((t - (lo - pad)) / (hi - lo + 2 * pad)) * (w - 50);
    const sy = (t: number) => h - 30 - (t / ymax) * (h - 60);
    parts.push(`<polyline fill="none" stroke="#3b518b" stroke-width="2" points="${d.x.map((t, i) => `${sx(t).toFixed(1)},${sy(d.y[i]).toFixed(1)}`).join(" ")}"/>`);
    parts.push(`<line x1="${sx(p.truth).toFixed(1)}" x2="${sx(p.truth).toFixed(1)}" y1="${sy(0)}" y2="${sy(ymax)}" stroke="#c0392b" stroke-dasharray="4 3"/>`);
    parts.push(`<line x1="${k * w + 30}" x2="${k * w + w - 20}" y1="${sy(0)}" y2="${sy(0)}" stroke="black"/>`);
    parts.push(`<text x="${k * w + 30}" y="18">${p.label}: density of the draws (line), true value (dashed)</text>`);
    parts.push(`<text x="${k * w + 30}" y="${h - 10}">${(lo - pad).toPrecision(3)}</text><text x="${k * w + w - 60}" y="${h - 10}">${(hi + pad).toPrecision(3)}</text>`);
  });
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}

/** The mean and sd (n - 1) of draws. */
export function meanSd(v: number[]): { mean: number; sd: number } {
  const m = v.reduce((a, b) => a + b, 0) / v.length;
  return { mean: m, sd: Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1)) };
}
