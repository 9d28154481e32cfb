import { readFileSync } from 'node:fs';
import { expect, test } from '../test';
import { columnTexts, dataRows, gridTotal, money, openGallery, remoteGrid, unzip } from './gallery';

test.describe('kit gallery: remote grid', () => {
  test.beforeEach(async ({ page }) => {
    await openGallery(page, 'remote');
    await expect(dataRows(remoteGrid(page))).toHaveCount(20);
  });

  test('sorts by a column both ways and pages through the server rows', async ({ page }) => {
    const grid = remoteGrid(page);
    // Default: newest first, 20 per page (spec 02: support transactions).
    await expect(grid.locator('th[aria-sort="descending"]')).toContainText('Date');
    expect(await gridTotal(page)).toBe(12000);

    await grid.getByRole('button', { name: /^Amount/ }).click();
    await expect(grid.locator('th[aria-sort="ascending"]')).toContainText('Amount');
    await expect(page).toHaveURL(/rows\.sort=Amount/);
    // The rows of the new order replace the old ones when the server answers: poll until the page shown is in
    // ascending order (what it is compared with is read in each poll, never once before the answer).
    await expect
      .poll(async () => {
        const amounts = (await columnTexts(grid, 'Amount')).map(money);
        return amounts.length > 0 && amounts.every((a, i) => i === 0 || (amounts[i - 1] ?? a) <= a);
      })
      .toBe(true);
    const lowest = money((await columnTexts(grid, 'Amount'))[0] ?? '');

    await grid.getByRole('button', { name: /^Amount/ }).click();
    await expect(grid.locator('th[aria-sort="descending"]')).toContainText('Amount');
    await expect.poll(async () => money((await columnTexts(grid, 'Amount'))[0] ?? '')).toBeGreaterThan(lowest);
    const amounts = (await columnTexts(grid, 'Amount')).map(money);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));

    const pager = page.getByRole('navigation', { name: 'Pagination' });
    const firstPageIds = await columnTexts(grid, 'Id');
    await pager.getByRole('button', { name: 'Next page' }).click();
    await expect(pager.getByText('Page 2 of 600')).toBeVisible();
    await expect(pager.getByText('21–40 of 12000')).toBeVisible();
    await expect.poll(() => columnTexts(grid, 'Id')).not.toEqual(firstPageIds);
    const secondPage = (await columnTexts(grid, 'Amount')).map(money);
    expect(secondPage[0]).toBeLessThanOrEqual(amounts.at(-1) ?? 0);

    await pager.getByLabel('Rows per page').selectOption('50');
    await expect(dataRows(grid)).toHaveCount(50);
    await expect(pager.getByText('Page 1 of 240')).toBeVisible();
    await pager.getByRole('button', { name: 'Last page' }).click();
    await expect(pager.getByText('11951–12000 of 12000')).toBeVisible();

    // From the keyboard: the press that reaches an end disables its own button, and focus stays in the pager on the
    // nearest button still enabled (not dropped to the page's start).
    await pager.getByRole('button', { name: 'Previous page' }).focus();
    await page.keyboard.press('Enter');
    await expect(pager.getByText('Page 239 of 240')).toBeVisible();
    await pager.getByRole('button', { name: 'Next page' }).focus();
    await page.keyboard.press('Enter');
    await expect(pager.getByText('Page 240 of 240')).toBeVisible();
    await expect(pager.getByRole('button', { name: 'Previous page' })).toBeFocused();
    await pager.getByRole('button', { name: 'First page' }).focus();
    await page.keyboard.press('Enter');
    await expect(pager.getByText('Page 1 of 240')).toBeVisible();
    await expect(pager.getByRole('button', { name: 'Next page' })).toBeFocused();
  });

  test('the default sort column (Date, newest first) goes oldest first in one click, then off, then back', async ({ page }) => {
    const grid = remoteGrid(page);
    const dateHeader = grid.locator('th', { has: page.getByRole('button', { name: /^Date/ }) });
    await expect(dateHeader).toHaveAttribute('aria-sort', 'descending');
    await grid.getByRole('button', { name: /^Date/ }).click();
    await expect(dateHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/rows\.order=asc/);
    await grid.getByRole('button', { name: /^Date/ }).click();
    await expect(grid.locator('th[aria-sort="ascending"], th[aria-sort="descending"]')).toHaveCount(0);
    await grid.getByRole('button', { name: /^Date/ }).click();
    await expect(dateHeader).toHaveAttribute('aria-sort', 'descending');
  });

  test('filters a column and searches across columns', async ({ page }) => {
    const grid = remoteGrid(page);
    await grid.getByLabel('Filter Status').fill('Declined');
    await expect.poll(() => gridTotal(page)).toBeLessThan(12000);
    const declined = await gridTotal(page);
    expect(declined).toBeGreaterThan(1000);
    expect(new Set(await columnTexts(grid, 'Status'))).toEqual(new Set(['Declined']));
    await expect(page).toHaveURL(/rows\.f\.Status=Declined/);

    await page.getByRole('searchbox', { name: 'Search' }).fill('Springfield');
    await expect.poll(() => gridTotal(page)).toBeLessThan(declined);
    expect(new Set(await columnTexts(grid, 'City'))).toEqual(new Set(['Springfield']));
    expect(new Set(await columnTexts(grid, 'Status'))).toEqual(new Set(['Declined']));

    await page.getByRole('searchbox', { name: 'Search' }).fill('no such payee anywhere');
    await expect(grid.getByText('No records found.')).toBeVisible();
  });

  test('selects rows, the page, and all rows across pages up to the cap', async ({ page }) => {
    const grid = remoteGrid(page);
    const rows = dataRows(grid);
    await rows.nth(0).getByRole('checkbox').check();
    await expect(page.getByText('1 row selected')).toBeVisible();
    await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');

    await grid.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    await expect(page.getByText('20 rows selected')).toBeVisible();
    await page.getByRole('button', { name: 'Select the first 1000 rows' }).click();
    await expect(page.getByText('1000 rows selected')).toBeVisible();
    await expect(page.getByTestId('remote-selected')).toHaveText('1000 transactions selected');

    // The selection survives paging (ids, not positions).
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(grid.getByRole('checkbox', { name: 'Select all rows on this page' })).toBeChecked();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await expect(page.getByTestId('remote-selected')).toHaveText('0 transactions selected');
  });

  test('expands a row and shows or hides columns', async ({ page }) => {
    const grid = remoteGrid(page);
    const id = (await columnTexts(grid, 'Id'))[0] ?? '';
    const expander = dataRows(grid)
      .nth(0)
      .getByRole('button', { name: /^Show details for row/ });
    await expander.click();
    const details = grid.getByRole('definition').first();
    await expect(details).toBeVisible();
    await expect(grid.getByLabel(`Transaction ${id}`)).toContainText('Category');
    await expect(
      dataRows(grid)
        .nth(0)
        .getByRole('button', { name: /^Hide details for row/ }),
    ).toHaveAttribute('aria-expanded', 'true');

    await expect(grid.locator('thead th', { hasText: 'Category' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Show or hide columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: /Category/ }).click();
    await page.keyboard.press('Escape');
    await expect(grid.locator('thead th', { hasText: 'Category' })).toHaveCount(1);
    await page.getByRole('button', { name: 'Show or hide columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: /City/ }).click();
    await page.keyboard.press('Escape');
    await expect(grid.locator('thead th', { hasText: 'City' })).toHaveCount(0);
  });

  test('exports every filtered row as CSV and as Excel', async ({ page }) => {
    const grid = remoteGrid(page);
    await grid.getByLabel('Filter Status').fill('Refunded');
    await expect.poll(() => gridTotal(page)).toBeLessThan(12000);
    const total = await gridTotal(page);
    expect(total).toBeGreaterThan(1000);

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await csv.path(), 'utf8').replace(/^\uFEFF/, '');
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('Id,Payee,City,State,Amount,Date,Status');
    expect(lines).toHaveLength(total + 1);
    expect(lines.slice(1).every((l) => l.endsWith(',Refunded'))).toBe(true);
    // Same order as the grid: newest first.
    const dates = lines.slice(1).map((l) => l.split(',').at(-2) ?? '');
    expect(dates).toEqual([...dates].sort().reverse());

    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Excel' }).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const sheet = unzip(readFileSync(await xlsx.path())).get('xl/worksheets/sheet1.xml') ?? '';
    expect(sheet.match(/<row /g)).toHaveLength(total + 1);
    expect(sheet).toContain('>Refunded<');
  });

  test('works from the keyboard alone: Tab in, arrows move, Enter sorts, Space selects and expands', async ({ page }) => {
    const grid = remoteGrid(page);
    await page.getByRole('button', { name: 'Export Excel' }).focus();
    await page.keyboard.press('Tab');
    const focused = grid.locator('[data-cell]:focus');
    await expect(focused).toHaveAttribute('data-cell', '0:0');

    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(focused).toHaveAttribute('data-cell', '0:2');
    await expect(focused).toContainText('Id');
    await page.keyboard.press('Enter');
    await expect(grid.locator('th[aria-sort="ascending"]')).toContainText('Id');
    await expect.poll(() => columnTexts(grid, 'Id')).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));

    await page.keyboard.press('ArrowDown');
    await expect(focused).toHaveAttribute('data-cell', '1:2');
    await expect(focused).toHaveText('1');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(focused).toHaveAttribute('data-cell', '2:0');
    await page.keyboard.press('Space');
    await expect(dataRows(grid).nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('1 row selected')).toBeVisible();

    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect(grid.getByLabel('Transaction 2')).toBeVisible();
    await page.keyboard.press('End');
    await page.keyboard.press('Control+Home');
    await expect(focused).toHaveAttribute('data-cell', '0:0');
    await page.keyboard.press('Space');
    await expect(page.getByText('20 rows selected')).toBeVisible();
  });
});
