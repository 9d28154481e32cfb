import { axeAndReflow } from '../axe';
import { signIn } from '../support';
import { expect, test } from '../test';
import { type GalleryTab, openGallery, remoteGrid } from './gallery';

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

for (const tab of ['form', 'remote', 'local'] as GalleryTab[]) {
  test(`the kit gallery's ${tab} tab has no serious or critical axe violations`, async ({ page }) => {
    await openGallery(page, tab);
    if (tab === 'form') {
      // Scan with the errors showing too: invalid fields must stay labelled and described.
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByText('Please confirm the details.')).toBeVisible();
    }
    if (tab === 'remote') {
      await expect(remoteGrid(page).locator('tbody tr[aria-rowindex]')).toHaveCount(20);
      await remoteGrid(page)
        .getByRole('button', { name: /^Show details for row/ })
        .first()
        .click();
    }
    if (tab === 'local') await expect(page.getByRole('grid', { name: 'Generated claims' }).locator('tbody tr[aria-rowindex]').first()).toBeVisible();
    const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
    expect(seriousOrWorse(results.violations)).toEqual([]);
  });
}

/** WCAG's contrast ratio of two computed CSS colours (`rgb(r, g, b)`). */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

test("keyboard focus on the toolbar shows against the bar's colour (3:1), on a brand whose accent is the bar's", async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  const toolbar = page.getByTestId('toolbar');
  await expect(toolbar.getByRole('link').first()).toBeVisible();
  // Tab from the top of the page to the toolbar's first link, as a keyboard user does.
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  let onLink = false;
  for (let i = 0; i < 12 && !onLink; i++) {
    await page.keyboard.press('Tab');
    onLink = await page.evaluate(() => document.activeElement?.tagName === 'A' && !!document.activeElement.closest('[data-testid="toolbar"]'));
  }
  expect(onLink).toBe(true);
  const { ring, style, bar } = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const s = getComputedStyle(el);
    return { ring: s.outlineColor, style: s.outlineStyle, bar: getComputedStyle(el.closest('[data-testid="toolbar"]') as HTMLElement).backgroundColor };
  });
  expect(style).not.toBe('none');
  expect(contrast(ring, bar), `focus ring ${ring} on the bar ${bar}`).toBeGreaterThanOrEqual(3);
});

test('the option the arrow keys reach in a select reads on its highlight (4.5:1)', async ({ page }) => {
  await openGallery(page, 'form');
  await page
    .getByRole('button', { name: /State\(required\)$/ })
    .first()
    .focus();
  await page.keyboard.press('ArrowDown');
  const option = page.locator('[role="option"][data-focused]');
  await expect(option).toHaveCount(1);
  const { text, background } = await option.evaluate((el) => ({ text: getComputedStyle(el).color, background: getComputedStyle(el).backgroundColor }));
  expect(contrast(text, background), `${text} on ${background}`).toBeGreaterThanOrEqual(4.5);
});
