import { axeAndReflow } from '../axe';
import { signIn } from '../support';
import { expect, test } from '../test';

const cents = (dollars: number) => Math.round(dollars * 100);
const money = (c: number) => `$${(c / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

test('the price finder selects two lines, changes units, and the savings total is right', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard', undefined, '/price-finder');
  const search = page.getByLabel('Drug name, strength or code');

  await search.fill('am');
  await expect(page.getByText('Type at least 3 characters to search.')).toBeVisible();

  // Thousands of lines match: the page shows the first 50 and says the list is cut.
  await search.fill('tablet');
  await expect(page.getByText('Showing the first 50 lines: add a strength or form to narrow the search.')).toBeVisible();
  await expect(page.getByTestId('price-results').locator('tbody tr')).toHaveCount(50);

  // A dot goes to the server as the placeholder.
  const answer = page.waitForResponse((r) => r.url().includes('/api/dashboard/getPrices/'));
  await search.fill('amlodipine 2.5');
  const response = await answer;
  expect(response.url()).toContain('amlodipine%202__dot__5');
  const lines = (await response.json()).Data as { Code: string; Description: string; OurPrice: number; AWPPrice: number }[];
  expect(lines.length).toBeGreaterThan(1);
  const [a, b] = lines as [(typeof lines)[number], (typeof lines)[number]];

  await page.getByRole('checkbox', { name: `Select ${a.Description}`, exact: true }).check();
  await page.getByRole('checkbox', { name: `Select ${b.Description}`, exact: true }).check();
  const units = page.getByRole('textbox', { name: `Units of ${b.Description}`, exact: true });
  await expect(units).toHaveValue('30');
  await units.fill('90');
  await expect(page.getByRole('textbox', { name: `Units of ${a.Description}`, exact: true })).toHaveValue('30');

  const saving = (l: typeof a, u: number) => cents(l.AWPPrice) * u - cents(l.OurPrice) * u;
  await expect(page.getByTestId('savings-total')).toHaveText(money(saving(a, 30) + saving(b, 90)));
  const row = page.getByTestId('price-selected').locator(`tr[data-code="${b.Code}"]`);
  await expect(row.getByRole('cell').nth(3)).toHaveText(money(cents(b.AWPPrice) * 90));

  // Non-numeric units count as 0.
  await units.fill('lots');
  await expect(page.getByTestId('savings-total')).toHaveText(money(saving(a, 30)));

  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(results.violations).toEqual([]);
});
