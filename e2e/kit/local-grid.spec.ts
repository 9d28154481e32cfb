import { expect, test } from '@playwright/test';
import { columnTexts, openGallery } from './gallery';

test('the 100,000-row local grid keeps only the rows in view in the page while scrolling to the end', async ({ page }) => {
  await openGallery(page, 'local');
  const grid = page.getByRole('grid', { name: 'Generated claims' });
  const rows = grid.locator('tbody tr[aria-rowindex]');
  await expect(rows.first()).toBeVisible();
  await expect(grid).toHaveAttribute('aria-rowcount', '100001');
  expect(await rows.count()).toBeLessThan(100);

  const scroller = grid.locator('xpath=..');
  await scroller.evaluate((el) => {
    el.scrollTop = el.scrollHeight / 2;
  });
  await expect.poll(async () => Number((await columnTexts(grid, 'Id'))[0])).toBeGreaterThan(40_000);
  expect(await rows.count()).toBeLessThan(100);
  await scroller.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(rows.last()).toHaveAttribute('aria-rowindex', '100001');
  await expect.poll(async () => (await columnTexts(grid, 'Id')).at(-1)).toBe('100000');
  expect(await rows.count()).toBeLessThan(100);

  // Local sort and filter run over all 100,000 rows.
  await grid.getByLabel('Filter Plan').fill('Premier');
  await expect.poll(async () => new Set(await columnTexts(grid, 'Plan'))).toEqual(new Set(['Premier']));
  await grid.getByRole('button', { name: /^Amount/ }).click();
  await grid.getByRole('button', { name: /^Amount/ }).click();
  await scroller.evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect.poll(async () => (await columnTexts(grid, 'Amount'))[0]).toMatch(/^\$4,9\d\d\.\d\d$/);
});
