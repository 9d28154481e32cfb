import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

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
  const results = await new AxeBuilder({ page }).include(scope).withTags(WCAG_TAGS).analyze();
  expect(seriousOrWorse(results.violations), `serious or critical axe violations in ${scope} of ${page.url()}`).toEqual([]);
}
