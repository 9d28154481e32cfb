import type { Page } from '@playwright/test';
import { axeAndReflow, expectAccessible } from '../axe';
import { BUSINESS_TIME_ZONE, signIn } from '../support';
import { expect, test } from '../test';

// Support staff work in the business's time zone (BUSINESS_TIME_ZONE in support.ts), as the product's
// users do: the create form's start date defaults to the user's day, which is then the business's day the coupon's
// status is judged by. (A browser on UTC is a day ahead every US evening: its "today" starts the coupon tomorrow.)
test.use({ timezoneId: BUSINESS_TIME_ZONE });

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

const row = (page: Page, code: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: code, exact: true }) });
const choose = async (page: Page, field: string, option: string) => {
  await page.getByRole('button', { name: new RegExp(`\\b${field}\\b`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

test('Coupons: support staff create a coupon, activate it, and deactivate two coupons in one action', async ({ page }) => {
  // A code of this attempt alone: a run again after a failure finds the first attempt's coupon (codes are unique).
  const code = `E2E-SPRING-${Date.now().toString(36).toUpperCase()}`;
  await signIn(page, 'staff', 'staff.caresupport');
  await page.getByRole('navigation').getByRole('link', { name: 'Coupons', exact: true }).click();
  await expect(page).toHaveURL(/\/coupons$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Coupons' })).toBeVisible();
  await expect(row(page, 'WELCOME-AMETHYST')).toBeVisible();

  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(seriousOrWorse(results.violations)).toEqual([]);

  // The action needs an action and a selection, with the spec's messages.
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Please select action')).toBeVisible();
  await page.getByLabel('Action').selectOption({ label: 'Deactivate' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('At list one coupon should be specified to perform action')).toBeVisible();

  // Create: starts today with no end, so it is Active.
  await page.getByRole('button', { name: 'Create coupon' }).click();
  await expect(page).toHaveURL(/\/coupons\/create$/);
  await expect(page.getByRole('form', { name: 'Create coupon' }).getByRole('button', { name: 'Save' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Code').fill(code);
  await choose(page, 'Product', 'Amethyst');
  await choose(page, 'Membership type', 'Lifetime Membership');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/coupons\/\d+$/);
  const view = page.getByTestId('coupon-view');
  await expect(view).toContainText(code);
  await expect(view).toContainText('Active');
  await expectAccessible(page);

  // Deactivate two coupons in one action.
  await page.getByRole('link', { name: 'Back to coupons' }).click();
  await page.getByLabel(`Select row ${code}`).check();
  await page.getByLabel('Select row WELCOME-AMETHYST').check();
  await page.getByLabel('Action').selectOption({ label: 'Deactivate' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(row(page, code)).toContainText('Inactive');
  await expect(row(page, 'WELCOME-AMETHYST')).toContainText('Inactive');

  // Activate the new one again.
  await page.getByLabel('Select row WELCOME-AMETHYST').uncheck();
  await page.getByLabel('Action').selectOption({ label: 'Activate' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(row(page, code).getByRole('gridcell', { name: 'Active', exact: true })).toBeVisible();
  await expect(row(page, 'WELCOME-AMETHYST')).toContainText('Inactive');
});

test('Coupons: support staff open a coupon from the list and its edit form holds what the coupon has', async ({ page }) => {
  await signIn(page, 'staff', 'staff.caresupport');
  await page.getByRole('navigation').getByRole('link', { name: 'Coupons', exact: true }).click();
  await expect(page).toHaveURL(/\/coupons$/);
  await page.getByRole('link', { name: 'WELCOME-AMETHYST', exact: true }).click();
  await expect(page).toHaveURL(/\/coupons\/\d+$/);
  await expect(page.getByTestId('coupon-view')).toContainText('WELCOME-AMETHYST');
  await page.getByRole('button', { name: 'Edit' }).click();

  await expect(page).toHaveURL(/\/coupons\/\d+\/edit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit coupon' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Edit coupon' });
  await expect(form.getByLabel('Code')).toHaveValue('WELCOME-AMETHYST');
  await expect(form.getByRole('button', { name: /\bProduct\b/ })).toContainText('Amethyst');
  await expectAccessible(page);

  // Cancel goes back to the coupon, unchanged.
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/coupons\/\d+$/);
  await expect(page.getByTestId('coupon-view')).toContainText('WELCOME-AMETHYST');
});
