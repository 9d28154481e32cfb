import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from '../support';

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

const axe = async (page: import('@playwright/test').Page) => {
  const results = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(seriousOrWorse(results.violations)).toEqual([]);
};

test('a finance member lists documents, picks a statement year and downloads the statement of a month', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  await page.getByRole('navigation').getByRole('link', { name: 'Documents', exact: true }).click();
  await expect(page).toHaveURL(/\/documents$/);
  const rows = page.getByTestId('documents').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByTestId('documents')).toContainText(/1099|Annual Accounting/);
  await page.getByLabel('Document type').selectOption({ label: 'Annual Accounting' });
  await expect(rows.filter({ hasNotText: 'Annual Accounting' })).toHaveCount(0);
  await axe(page);

  await page.getByRole('navigation').getByRole('link', { name: 'Statements', exact: true }).click();
  await expect(page).toHaveURL(/\/statements$/);
  const year = page.getByLabel('Year');
  const years = await year.locator('option').allTextContents();
  const lastYear = String(new Date().getUTCFullYear() - 1);
  expect(years).toContain(lastYear);
  await year.selectOption(lastYear);
  const statement = page.getByTestId('statements').locator('tbody tr', { hasText: `December ${lastYear}` });
  await expect(statement).toBeVisible();
  await axe(page);
  const [download] = await Promise.all([page.waitForEvent('download'), statement.getByRole('button', { name: `Download December ${lastYear}` }).click()]);
  expect(download.suggestedFilename()).toBe(`statement-${lastYear}-12.pdf`);
  const pdf = readFileSync(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  // The info dictionary's creation date is the statement's last day.
  expect(pdf.toString('latin1')).toContain(`(D:${lastYear}1231000000Z)`);
});
