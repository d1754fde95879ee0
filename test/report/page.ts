/** Reading a report page back in tests: its sections, charts and outside references. */

/** The inner HTML of each <section id="...">, by id. */
export function sections(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(/<section id="([^"]+)">([\s\S]*?)<\/section>/g)) out.set(m[1], m[2]);
  return out;
}

/** The chart ids placed in a piece of HTML. */
export function chartIds(fragment: string): string[] {
  return [...fragment.matchAll(/data-chart="([^"]+)"/g)].map((m) => m[1]);
}

/** The chart options carried by the page, by id. */
export function chartData(html: string): Record<string, { series?: unknown[] }> {
  const m = /<script type="application\/json" id="chart-data">([\s\S]*?)<\/script>/.exec(html);
  if (m === null) throw new Error("the page has no chart-data block");
  return JSON.parse(m[1]) as Record<string, { series?: unknown[] }>;
}

/**
 * Everything in the page that would make a browser fetch something: script, link, img, iframe,
 * object, embed, source, audio or video elements with a source; other src or href attributes
 * that are not in-page anchors; CSS url(...) and @import. The page must have none.
 */
export function externalReferences(html: string): string[] {
  const found: string[] = [];
  // Only the markup: the contents of <script> elements are code and data, not references.
  const markup = html.replace(/(<script\b[^>]*>)[\s\S]*?(<\/script>)/gi, "$1$2");
  for (const m of markup.matchAll(/<(script|link|img|iframe|object|embed|source|audio|video)\b[^>]*>/gi)) {
    if (/\b(src|href|data)\s*=/i.test(m[0])) found.push(m[0]);
  }
  for (const m of markup.matchAll(/\b(src|href|action|poster|srcset)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi)) {
    const value = m[2].replace(/^["']|["']$/g, "");
    if (!value.startsWith("#")) found.push(m[0]);
  }
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]).join("\n");
  for (const m of styles.matchAll(/url\s*\(|@import/gi)) found.push(m[0]);
  return found;
}
