import AxeBuilder from '@axe-core/playwright';
import { expect, type Frame, type Page, test } from '@playwright/test';
import axeCore, { type AxeResults } from 'axe-core';

/** The rules the team holds every page to: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown }[];
}

/** The serious and critical violations, each as its rule, what it asks for and the elements it found. */
export const seriousOrWorse = (violations: Violation[]) =>
  violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

/**
 * "e2e runs axe on every page": runs axe on what the page shows in `scope` (its main landmark, or a dialog:
 * '[role="dialog"]') and fails on any serious or critical violation, naming the rule and the elements. Waits first for
 * nothing in the scope to be busy (a loading text, a grid fetching its rows), so axe sees the settled page.
 */
export async function expectAccessible(page: Page, scope = 'main') {
  await expect(page.locator(scope).first()).toBeVisible();
  await expect(page.locator(`${scope} [aria-busy="true"]`)).toHaveCount(0);
  const results = await axeAndReflow(page, scope, WCAG_TAGS);
  expect(seriousOrWorse(results.violations), `serious or critical axe violations in ${scope} of ${page.url()}`).toEqual([]);
}

/**
 * Where a journey runs axe itself (to hold a page to more than the serious violations, or to name its own tags):
 * axe's results on `scope` (every rule, or those of `tags`) for the caller to judge, after checking the same scope
 * for reflow (expectReflow), which axe cannot. Every page and dialog the journeys run axe on is so held to WCAG
 * 1.4.10 too.
 */
export async function axeAndReflow(page: Page, scope = 'body', tags?: string[]) {
  const results = await runAxe(page, scope, tags);
  await expectReflow(page, scope);
  return results;
}

/** axe-core's source and version, as @axe-core/playwright injects it. */
const AXE = axeCore as unknown as { source: string; version: string };
/**
 * @axe-core/playwright gives a frame 1 s to take axe in, and leaves a frame that takes longer out of the results without
 * a word: the gateway's card form went unchecked that way on a busy machine (CI, 3.9 s for the frame of another
 * origin in e2e/kit/axe.spec.ts). So runAxe puts axe in every frame itself first, with no time limit, and the library
 * is handed a source that does nothing where axe is already in (the blank page it gathers the results in still gets
 * all of axe).
 */
const AXE_UNLESS_PRESENT = `if (!(window.axe && window.axe.version === ${JSON.stringify(AXE.version)})) {\n${AXE.source}\n}`;
async function injectAxe(frame: Frame): Promise<void> {
  const present = await frame.evaluate((version) => (window as { axe?: { version?: string } }).axe?.version === version, AXE.version);
  if (!present) await frame.evaluate(AXE.source);
}

/** axe's answer in the page (axe.run resolves to its results; an error is handed back as its message). */
type InPage = { results: AxeResults; error: null } | { results: null; error: string };

/**
 * axe's results on `scope`. On a page of an http(s) origin whose frames are all of that origin (or have none of their
 * own: about:blank, srcdoc), axe runs in the page itself (`axe.run`, which reaches those frames), injected once per
 * document and frame and left there for the next check: a journey checks several screens of one single-page document.
 * A page holding a frame of another origin (the gateway's card form), or a page of no origin, is checked as
 * @axe-core/playwright checks it: axe run in each frame and the frames' results gathered in a blank page, which is how
 * axe reaches a frame of another origin. The same rules on the same elements either way. The first way took 1.0 s a
 * check on average in a whole e2e run against 2.6 s with every page checked the second way (docs/performance-log.md,
 * seventieth pass).
 */
async function runAxe(page: Page, scope: string, tags?: string[]): Promise<AxeResults> {
  // axe in every frame first, however long a frame takes to take it in.
  for (const frame of page.frames()) await injectAxe(frame);
  if (!onlySameOriginFrames(page)) {
    const builder = new AxeBuilder({ page, axeSource: AXE_UNLESS_PRESENT }).include(scope);
    return (tags ? builder.withTags(tags) : builder).analyze();
  }
  // Only the violations are read: axe still runs every rule on every element, but keeps one node of each other result.
  const options = { resultTypes: ['violations'], ...(tags ? { runOnly: { type: 'tag' as const, values: tags } } : {}) };
  const answer = await page.evaluate(
    ({ include, options }) =>
      (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<AxeResults> } }).axe
        .run({ include: [include] }, options)
        .then((results): InPage => ({ results, error: null }))
        .catch((e: unknown): InPage => ({ results: null, error: String(e) })),
    { include: scope, options },
  );
  if (answer.error !== null) throw new Error(`axe could not check ${scope} of ${page.url()}: ${answer.error}`);
  return answer.results;
}

/**
 * Whether the page has an origin (http or https; a page of about:blank has none, and axe in it does not reach its
 * frames) and every frame of it is of that origin or has none of its own (about:blank, srcdoc).
 */
function onlySameOriginFrames(page: Page): boolean {
  const origin = new URL(page.url()).origin;
  if (origin === 'null') return false;
  return page.frames().every((f) => {
    const url = f.url();
    return url === '' || url.startsWith('about:') || new URL(url).origin === origin;
  });
}

/** WCAG 2.1's Reflow (1.4.10, level AA) width: 1280 CSS px at 400% zoom. */
export const REFLOW_WIDTH = 320;

/**
 * WCAG 1.4.10 Reflow, which axe cannot check: at REFLOW_WIDTH CSS px wide, the page does not scroll sideways and
 * nothing in `scope` reaches past the screen's right edge, except inside a box that scrolls sideways (a data table
 * or grid may scroll in two dimensions, in its own frame). The window is narrowed for the check and
 * given its width back after it.
 */
export async function expectReflow(page: Page, scope = 'main') {
  const size = page.viewportSize();
  if (!size) return;
  await page.setViewportSize({ width: REFLOW_WIDTH, height: size.height });
  try {
    const wide = await page.evaluate(
      async ({ scope, width }) => {
        // Two frames: the resize's layout, and what the page's resize observers and media listeners changed after it.
        for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
        // Inside a frame that scrolls sideways, or text kept for screen readers only (a 1 px box that clips it). A box
        // that clips what it cannot show (a panel's rounded corners) loses that content at this width: not excused.
        const clipped = (el: Element) => {
          for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
            const overflow = getComputedStyle(p).overflowX;
            if (overflow === 'auto' || overflow === 'scroll') return true;
            if ((overflow === 'hidden' || overflow === 'clip') && p.getBoundingClientRect().width <= 1) return true;
          }
          return false;
        };
        const out: string[] = [];
        const root = document.documentElement;
        if (root.scrollWidth > width + 1) out.push(`the page is ${root.scrollWidth} px wide`);
        for (const el of document.querySelectorAll(`${scope} *`)) {
          const box = el.getBoundingClientRect();
          if (box.width === 0 || box.height === 0 || box.right <= width + 1 || clipped(el)) continue;
          const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
          out.push(`<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}> "${text}" ends at ${Math.round(box.right)} px`);
          if (out.length >= 8) break;
        }
        return out;
      },
      { scope, width: REFLOW_WIDTH },
    );
    // What the narrow page looked like, beside the failure (the failure's own screenshot is taken after the width is back).
    if (wide.length) {
      const path = test.info().outputPath(`reflow-${REFLOW_WIDTH}px.png`);
      await page.screenshot({ path, fullPage: true });
      await test.info().attach(`reflow-${REFLOW_WIDTH}px`, { path, contentType: 'image/png' });
    }
    expect(wide, `${scope} of ${page.url()} at ${REFLOW_WIDTH} CSS px wide (WCAG 1.4.10 Reflow)`).toEqual([]);
  } finally {
    await page.setViewportSize(size);
  }
}
