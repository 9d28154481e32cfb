import { signIn, site } from '../support';
import { expect, test } from '../test';

test('help topics follow the member role: a finance member sees Bills, not the prepaid card', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/login');
  await page.goto(site('finance', '/help'));
  const topics = page.getByTestId('help-topics');
  await expect(topics.getByRole('button', { name: 'Bills' })).toBeVisible();
  await expect(topics.getByRole('button', { name: 'Your prepaid card' })).toHaveCount(0);
  await expect(page.getByText('support@finance.example.com')).toBeVisible();
});

test('the route-title header offers help guides in a dialog, usable by keyboard', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  await page.getByRole('button', { name: 'Help guides' }).click();
  await page.getByRole('menuitem', { name: 'Using your prepaid card' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Using your prepaid card' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('the assist brand shows its own copy override on the help page', async ({ page }) => {
  await signIn(page, 'assist', 'assist.careassist');
  await page.goto(site('assist', '/help'));
  await expect(page.getByText('CareAssist members can reach our care team every day from 8 am to 8 pm Eastern.')).toBeVisible();
});
