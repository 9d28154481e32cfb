import type { Page } from '@playwright/test';
import { axeAndReflow, expectAccessible } from '../axe';
import { signIn, site } from '../support';
import { expect, test } from '../test';

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

/** Picks an option of a kit select (a react-aria Select: a button that opens a listbox). */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('button', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

async function fill(page: Page, label: string, value: string) {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press('Tab');
}

/** Types a day ('YYYY-MM-DD') into a date picker's segments, as a user types it: month, day, year. */
async function fillDay(page: Page, label: string, iso: string) {
  const [year, month, day] = iso.split('-');
  await page.getByRole('group', { name: label, exact: true }).getByRole('spinbutton').first().click();
  await page.keyboard.type(`${month}${day}${year}`);
  await page.keyboard.press('Tab');
}

// The seeded first company, Evergreen Mutual Life, wants a premium of at least $50,000 (plugins/quote-rules/src/server/seed.ts).
const COMPANY = 'Evergreen Mutual Life';

test('a CareQuote user builds a quote, sees why a company refuses it, fixes it, saves and reopens it', async ({ page }) => {
  await signIn(page, 'quote', 'quote.carequote', undefined, '/quotes');
  await expect(page.getByRole('checkbox', { name: COMPANY })).toBeVisible();

  await fill(page, 'Age of annuitant 1', '60');
  await fillDay(page, 'Purchase date', '2026-01-15');

  // Benefit 1: a lump sum; its COLA and term fields are disabled and say why.
  await choose(page, 'Annuity type, benefit 1', 'LS – Lump sum');
  await expect(page.getByLabel('COLA %, benefit 1')).toBeDisabled();
  await expect(page.getByLabel('Term months, benefit 1')).toBeDisabled();
  await expect(page.getByLabel('Term weeks, benefit 1')).toBeDisabled();
  await expect(page.getByLabel('Term years, benefit 1')).toHaveValue('1');
  const first = page.getByTestId('benefit-1');
  await expect(first.getByText('A lump sum has no COLA')).toBeVisible();
  await expect(first.getByText('A lump sum has no months or weeks').first()).toBeVisible();
  await fillDay(page, 'Start date, benefit 1', '2026-06-01');
  await fill(page, 'Premium, benefit 1', '20000');
  await fill(page, 'Payment, benefit 1', '20000');

  // Benefit 2: ten years period certain, monthly.
  await page.getByRole('button', { name: 'Add benefit' }).click();
  await choose(page, 'Annuity type, benefit 2', 'PC – Period certain');
  await choose(page, 'Term type, benefit 2', 'Monthly');
  await fill(page, 'Term years, benefit 2', '10');
  await fillDay(page, 'Start date, benefit 2', '2026-03-01');
  await fill(page, 'Premium, benefit 2', '20000');
  await fill(page, 'Payment, benefit 2', '200');
  await expect(page.getByLabel('COLA %, benefit 2')).toBeEnabled();

  // Saved with no company picked: nothing is saved, and the companies say why until one is picked.
  await page.getByRole('button', { name: 'Save quote' }).click();
  await expect(page.getByText('Pick at least one life company.')).toBeVisible();
  await expect(page).toHaveURL(/\/quotes$/);
  // The kit checkbox draws its own box over the native input: click the label, as a user does.
  await page.getByText(COMPANY, { exact: true }).click();
  await expect(page.getByRole('checkbox', { name: COMPANY })).toBeChecked();
  await expect(page.getByText('Pick at least one life company.')).toHaveCount(0);
  const row = page.getByRole('row', { name: new RegExp(COMPANY) });
  await expect(row.getByRole('cell', { name: 'Fail', exact: true })).toBeVisible();
  await row.getByRole('button', { name: `Explain ${COMPANY}` }).click();
  const explain = page.getByTestId('quote-explain');
  const premium = explain.getByRole('row', { name: /Minimum premium/ });
  await expect(premium).toContainText('Fail');
  await expect(premium).toContainText('Total cost must be at least $50,000.00');
  await expect(premium).toContainText('$40,000.00');

  // Fix the premium: the company passes.
  await fill(page, 'Premium, benefit 2', '40000');
  await expect(row.getByRole('cell', { name: 'Pass', exact: true })).toBeVisible();
  await expect(premium).toContainText('Pass');

  const axe = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(seriousOrWorse(axe.violations)).toEqual([]);

  await page.getByRole('button', { name: 'Save quote' }).click();
  await expect(page).toHaveURL(/\/quotes\/\d+$/);
  await expect(page.getByText(/Outcome as saved on/)).toBeVisible();

  await page.reload();
  await expect(page.getByText(/Outcome as saved on/)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(COMPANY) }).getByRole('cell', { name: 'Pass', exact: true })).toBeVisible();
  await expect(page.getByLabel('COLA %, benefit 1')).toBeDisabled();
  await expect(page.getByLabel('Premium, benefit 2')).toHaveValue('$40,000.00');
  // The days come back into their pickers, shown month, day and year.
  await expect(page.getByRole('group', { name: 'Purchase date', exact: true })).toHaveText(/1\s*\/\s*15\s*\/\s*2026/);
  await expect(page.getByRole('group', { name: 'Start date, benefit 2', exact: true })).toHaveText(/3\s*\/\s*1\s*\/\s*2026/);
  await expectAccessible(page);

  // The dashboard lists it among the latest quotes, a line each, and opens it from there.
  const quotePath = new URL(page.url()).pathname;
  await page.goto(site('quote', '/dashboard'));
  const latest = page
    .getByTestId('recent-quotes')
    .locator('tbody tr')
    .filter({ has: page.locator(`a[href="${quotePath}"]`) });
  await expect(latest.getByRole('cell')).toHaveCount(3);
  await expect(latest.getByRole('cell').nth(1)).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(latest.getByRole('cell').nth(2)).toHaveText(/^\d+ of \d+$/);
  const body = page.getByRole('region', { name: 'Recent quotes', exact: true }).locator(':scope > div');
  expect(await body.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
  await latest.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`${quotePath}$`));
});

test('the fields keep what is typed (whole terms and ages, COLA in hundredths), an annuitant can be removed, and missing data is not a pass', async ({
  page,
}) => {
  await signIn(page, 'quote', 'quote.carequote', undefined, '/quotes');
  await expect(page.getByRole('checkbox', { name: COMPANY })).toBeVisible();

  // A COLA just under a company's 5% is kept as typed, not snapped to a step (4.96 once became 5).
  const cola = page.getByLabel('COLA %, benefit 1', { exact: true });
  await cola.pressSequentially('4.96');
  await cola.press('Tab');
  await expect(cola).toHaveValue('4.96');
  // Term years, months and weeks and ages are whole numbers: a decimal point cannot be typed.
  const years = page.getByLabel('Term years, benefit 1', { exact: true });
  await years.pressSequentially('7.5');
  await years.press('Tab');
  await expect(years).toHaveValue('75');
  const age = page.getByLabel('Age of annuitant 1', { exact: true });
  await age.pressSequentially('6.4');
  await age.press('Tab');
  await expect(age).toHaveValue('64');

  // An added annuitant has a remove button (one annuitant has none); removing it with the keyboard leaves focus on Add annuitant.
  await expect(page.getByRole('button', { name: /^Remove annuitant/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Add annuitant' }).click();
  await fill(page, 'Age of annuitant 2', '70');
  await page.getByRole('button', { name: 'Remove annuitant 2' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Age of annuitant 2', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove annuitant/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add annuitant' })).toBeFocused();

  // No purchase date: the company's deferral rule is not checked, and the company is not shown as accepting.
  await page.getByText(COMPANY, { exact: true }).click();
  const row = page.getByRole('row', { name: new RegExp(COMPANY) });
  await expect(row.getByRole('cell', { name: 'Not checked', exact: true })).toBeVisible();
  await row.getByRole('button', { name: `Explain ${COMPANY}` }).click();
  const deferral = page.getByTestId('check-minDeferral');
  await expect(deferral).toContainText('Not checked: purchase date missing');
  await expect(deferral).toContainText('30 days');
});
