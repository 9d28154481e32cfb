import { expect, test } from '../test';
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

test('the windowed grid from the keyboard: Ctrl+End brings row 100,000 into view, moves up land below the sticky header, selection and search work on all rows', async ({
  page,
}) => {
  await openGallery(page, 'local');
  const grid = page.getByRole('grid', { name: 'Generated claims' });
  const rows = grid.locator('tbody tr[aria-rowindex]');
  const focused = grid.locator('[data-cell]:focus');
  // Where the focused cell sits: below the sticky head and above the bottom of the scroll area.
  const placement = () =>
    grid.evaluate((table) => {
      const cell = table.querySelector('[data-cell]:focus')?.getBoundingClientRect();
      const head = table.querySelector('thead')?.getBoundingClientRect();
      const view = table.parentElement?.getBoundingClientRect();
      return cell && head && view ? { belowHead: cell.top >= head.bottom - 1, aboveBottom: cell.bottom <= view.bottom + 1 } : null;
    });
  await expect(rows.first()).toBeVisible();

  await rows.first().locator('td').nth(2).click();
  await expect(focused).toHaveAttribute('data-cell', '1:2');
  await page.keyboard.press('Control+End');
  await expect(focused).toHaveAttribute('data-cell', '100000:5');
  await expect(focused.locator('xpath=..')).toHaveAttribute('aria-rowindex', '100001');
  await expect.poll(placement).toEqual({ belowHead: true, aboveBottom: true });
  expect(await rows.count()).toBeLessThan(100);

  // Two pages up leaves the rows in view: the row is scrolled in below the header, not under it.
  await page.keyboard.press('PageUp');
  await page.keyboard.press('PageUp');
  await expect(focused).toHaveAttribute('data-cell', '99980:5');
  await expect.poll(placement).toEqual({ belowHead: true, aboveBottom: true });
  await page.keyboard.press('ArrowUp');
  await expect(focused).toHaveAttribute('data-cell', '99979:5');
  await expect(focused.locator('xpath=..')).toHaveAttribute('aria-rowindex', '99980');
  await expect.poll(placement).toEqual({ belowHead: true, aboveBottom: true });

  // Back to the header, then down to the first row: the list scrolls back to the top.
  await page.keyboard.press('Control+Home');
  await expect(focused).toHaveAttribute('data-cell', '0:0');
  await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('data-cell', '1:0');
  await expect(rows.first()).toHaveAttribute('aria-rowindex', '2');
  await page.keyboard.press('Space');
  await expect(page.getByText('1 row selected')).toBeVisible();
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');

  // The header box selects "the page", which for a windowed list is every row, up to the cap.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Space');
  await expect(page.getByText(/^1,?000 rows selected$/)).toBeVisible();
  await expect(grid.getByLabel('Select all rows on this page')).toHaveJSProperty('indeterminate', true);
  await page.getByRole('button', { name: 'Clear selection' }).click();

  // Search runs over every row and the visible columns.
  await page.getByRole('region', { name: 'Claims (local grid)' }).getByLabel('Search', { exact: true }).fill('Kowalski');
  await expect.poll(async () => (await columnTexts(grid, 'Member')).every((name) => name.endsWith('Kowalski'))).toBe(true);
  const matches = Number(await grid.getAttribute('aria-rowcount')) - 1;
  expect(matches).toBeGreaterThan(1000);
  expect(matches).toBeLessThan(20_000);
  expect(await rows.count()).toBeLessThan(100);
});
