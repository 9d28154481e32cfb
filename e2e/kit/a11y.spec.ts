import { axeAndReflow } from '../axe';
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
