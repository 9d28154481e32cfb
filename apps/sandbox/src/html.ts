/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/g;
// Punctuation that ends a sentence rather than the address ("see http://x/a." or "(http://x/a)").
const TRAILING = /[.,;:!?)\]}]+$/;

/**
 * Escapes plain text and turns http(s) addresses in it into anchors. Only http and https addresses
 * become links; the address is escaped both as the href and as the visible text.
 */
export function linkify(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const start = m.index ?? 0;
    let url = m[0];
    const trail = TRAILING.exec(url)?.[0] ?? '';
    if (trail) url = url.slice(0, url.length - trail.length);
    if (!url.includes('://') || url.endsWith('://')) continue;
    out += escapeHtml(text.slice(last, start));
    out += `<a href="${escapeHtml(url)}" rel="noopener noreferrer">${escapeHtml(url)}</a>`;
    last = start + url.length;
  }
  return out + escapeHtml(text.slice(last));
}

/** The policy of the sandbox's own HTML pages: no script, inline styles, forms to this origin only. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'";

/** A wide table's frame: on a phone the table scrolls sideways inside it, not the page (its rows hold links or buttons). */
export const scrollFrame = (table: string): string => `<div class="scroll">${table}</div>`;

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:64rem;padding:0 1rem;color:#1d2433}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #d7dbe3;padding:.35rem .6rem;text-align:left;vertical-align:top}
th{background:#f3f5f9}pre{white-space:pre-wrap;word-break:break-word;background:#f7f8fb;border:1px solid #d7dbe3;padding:1rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}
.brand{display:inline-block;padding:0 .4rem;border-radius:.3rem;background:#e6ebf5;font-size:.85em}
.mail-html{display:block;width:100%;height:44rem;border:1px solid #d7dbe3;border-radius:.3rem;background:#fff}
details{margin-top:1rem}summary{cursor:pointer}
.scroll{overflow-x:auto;max-width:100%}
</style></head><body>${body}</body></html>`;
}
