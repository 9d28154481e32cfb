import type { Page } from '@playwright/test';
import { choose, input, mailedLink, PASSWORD } from '../account/support';
import { axeAndReflow, expectAccessible } from '../axe';
import { holdRequests, signIn, site } from '../support';
import { expect, test } from '../test';

test.describe.configure({ timeout: 180_000 });

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
const axe = async (page: Page) => seriousOrWorse((await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])).violations);

test('an administrator creates a user from a company contact, sets roles, quotas and teams, and the user activates and signs in', async ({ page, browser }) => {
  await signIn(page, 'staff', 'staff.caresupport');
  const nav = page.getByRole('navigation').first();
  // The bar is drawn once the user's routes are known: wait for it before asking whether a group holds the link.
  await expect(nav.getByRole('link', { name: 'Help', exact: true })).toBeVisible();
  const group = nav.getByText('Administration', { exact: true });
  if (await group.count()) await group.click();
  await nav.getByRole('link', { name: 'Users', exact: true }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'assist.careassist', exact: true })).toBeVisible();
  expect(await axe(page)).toEqual([]);

  // Search by attribute.
  await page.getByRole('textbox', { name: 'Search text' }).fill('staff.caresupport');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('link', { name: 'staff.careguard', exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'staff.caresupport' })).toBeVisible();

  // Details: a new user from a company contact (a contact no earlier run used: the seed gives six per company).
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page).toHaveURL(/\/users\/new$/);
  const pick = Date.now();
  await choose(page, /Company/, pick % 4);
  await choose(page, /Contact/, Math.floor(pick / 4) % 6);
  const userName = (await page.getByTestId('users-username').textContent()) ?? '';
  expect(userName).toMatch(/@/);
  await expect(input(page, 'First name')).not.toHaveValue('');
  await input(page, 'First name').fill('Eliot');
  // The new user's e-mails default to the language the administrator works in.
  await expect(page.getByRole('button', { name: /E-mail language/ })).toContainText('English');
  // Each language by its own name, marked as written in it for screen readers.
  await page.getByRole('button', { name: /E-mail language/ }).click();
  await expect(page.getByRole('option', { name: 'Español' }).locator('[lang="es"]')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/users\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: /^Eliot / })).toBeVisible();
  await expect(page.getByText(userName)).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'English' }).locator('[lang="en"]')).toBeVisible();

  // Details edit: cancel restores. Focus follows the swap: Edit puts it on the first field (the company picker, once its
  // choices are in), Cancel and a save back on Edit.
  const edit = page.getByRole('button', { name: 'Edit', exact: true });
  await edit.click();
  await expect(page.getByRole('button', { name: /Company/ })).toBeFocused();
  await input(page, 'First name').fill('Changed');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('definition').filter({ hasText: 'Eliot' })).toBeVisible();
  await expect(edit).toBeFocused();
  await edit.click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('definition').filter({ hasText: 'Eliot' })).toBeVisible();
  await expect(edit).toBeFocused();
  expect(await axe(page)).toEqual([]);

  // Roles: SystemAdmin clears Adjuster, and says why.
  await page.getByRole('tab', { name: 'Roles' }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  const adjuster = page.getByRole('checkbox', { name: 'Adjuster' });
  const systemAdmin = page.getByRole('checkbox', { name: /SystemAdmin/ });
  await expect(systemAdmin).toBeFocused();
  // The boxes are react-aria checkboxes: the label is what a pointer clicks.
  await page.locator('label', { hasText: /^Adjuster$/ }).click();
  await expect(adjuster).toBeChecked();
  await page.locator('label', { hasText: 'System administrator (SystemAdmin)' }).click();
  await expect(adjuster).not.toBeChecked();
  await expect(systemAdmin).toBeChecked();
  await expect(page.getByText('Adjuster was cleared: SystemAdmin can only be combined with Broker.')).toBeVisible();
  expect(await axe(page)).toEqual([]);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The roles have been saved.')).toBeVisible();
  await expect(edit).toBeFocused();
  await expect(page.getByRole('listitem').filter({ hasText: 'System administrator (SystemAdmin): Yes' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Adjuster: No' })).toBeVisible();

  // Monthly quotas for three months.
  await page.getByRole('tab', { name: 'Monthly quotas' }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('textbox', { name: 'Minimum cases, January' })).toBeFocused();
  for (const [month, min, max] of [
    ['January', '5', '10'],
    ['February', '6', '12'],
    ['March', '7', '14'],
  ] as const) {
    await page.getByRole('textbox', { name: `Minimum cases, ${month}` }).fill(min);
    await page.getByRole('textbox', { name: `Maximum cases, ${month}` }).fill(max);
  }
  await page.getByRole('textbox', { name: 'Minimum cases, April' }).fill('9');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Enter both the minimum and the maximum, or neither.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Maximum cases, April' })).toBeFocused();
  await page.getByRole('textbox', { name: 'Minimum cases, April' }).fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The quotas have been saved.')).toBeVisible();
  await expect(edit).toBeFocused();
  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: 'January' })).toContainText('510');
  await expect(rows.filter({ hasText: 'February' })).toContainText('612');
  await expect(rows.filter({ hasText: 'March' })).toContainText('714');

  // Teams: assign the same team twice; it shows once.
  await page.getByRole('tab', { name: 'Teams' }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('button', { name: 'Teams…' })).toBeFocused();
  await page.getByRole('button', { name: 'Teams…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Teams' });
  await dialog.getByRole('button', { name: /Team/ }).click();
  await page.getByRole('listbox').getByRole('option').first().click();
  await dialog.getByRole('button', { name: 'Assign team' }).click();
  await expect(page.getByText(/The user is now on team /)).toBeVisible();
  await dialog.getByRole('button', { name: 'Assign team' }).click();
  await expect(page.getByText(/The user is already on team /)).toBeVisible();
  await dialog.getByRole('tab', { name: 'List' }).click();
  await expect(dialog.getByRole('button', { name: /^Delete / }).first()).toBeVisible();
  expect(seriousOrWorse((await axeAndReflow(page, '[role="dialog"]', ['wcag2a', 'wcag2aa'])).violations)).toEqual([]);
  // The assigned team renamed from the list: the list and the user's teams show the new name.
  const assignedRow = dialog.getByRole('row').filter({ hasText: 'Yes' });
  const teamName = `Team ${Date.now().toString(36)}`;
  await assignedRow.getByRole('button', { name: /^Rename / }).click();
  const renameDialog = page.getByRole('dialog', { name: 'Rename team' });
  await renameDialog.getByRole('textbox', { name: 'Team name' }).fill(teamName);
  expect(seriousOrWorse((await axeAndReflow(page, '[role="dialog"]', ['wcag2a', 'wcag2aa'])).violations)).toEqual([]);
  await renameDialog.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('The team has been saved.')).toBeVisible();
  await expect(renameDialog).toBeHidden();
  await expect(dialog.getByRole('button', { name: `Rename ${teamName}` })).toBeFocused();
  await expect(dialog.getByRole('row').filter({ hasText: teamName })).toContainText('Yes');
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(page.getByRole('button', { name: 'Teams…' })).toBeFocused();
  await expect(page.getByTestId('user-teams').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('user-teams')).toContainText(teamName);
  // Removed from it: the Remove went with its row, so focus goes to Teams… (no team left); Done goes back to Edit.
  await page.getByRole('button', { name: `Remove from ${teamName}` }).click();
  await expect(page.getByText('This user is on no team.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Teams…' })).toBeFocused();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeFocused();

  // Permissions: Edit goes to the first box, Cancel back to Edit.
  await page.getByRole('tab', { name: 'Permissions' }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('checkbox').first()).toBeFocused();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeFocused();

  // The activation mail.
  await page.getByRole('tab', { name: 'Details', exact: true }).click();
  await page.getByRole('button', { name: 'Send activation e-mail' }).click();
  await expect(page.getByText(`The activation e-mail has been sent to ${userName}.`)).toBeVisible();
  const link = await mailedLink(userName, 'Activate', /\/login\/activate\//);
  expect(link).toMatch(/^http:\/\/staff\.localhost:\d+\/login\/activate\//);

  // The new user activates from the mailed link and signs in.
  const context = await browser.newContext();
  const newcomer = await context.newPage();
  await newcomer.goto(link);
  await expect(newcomer.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
  await input(newcomer, 'Password').fill(PASSWORD);
  await input(newcomer, 'Confirm password').fill(PASSWORD);
  await choose(newcomer, /Security question 1/, 0);
  await choose(newcomer, /Security question 2/, 1);
  await input(newcomer, 'Answer to security question 1').fill('Rex');
  await input(newcomer, 'Answer to security question 2').fill('Springfield');
  await newcomer.getByRole('button', { name: 'Activate account' }).click();
  await expect(newcomer.getByText('Your account has been sucessfully activated. You will be transferred to the Login page in 5 seconds.')).toBeVisible();
  await expect(newcomer).toHaveURL(/\/login$/, { timeout: 10_000 });
  await newcomer.getByLabel('User name').fill(userName);
  await newcomer.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await newcomer.getByRole('button', { name: 'Sign in' }).click();
  await expect(newcomer).not.toHaveURL(/\/login/);
  await expect(newcomer.getByTestId('display-name')).toBeVisible();
  await context.close();
});

test('a role outside CareSupport cannot open /users', async ({ page }) => {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/users');
  await expect(page).toHaveURL(/\/invalid/);
});

test("the new user's company and contact pickers open once their choices are in, not empty before", async ({ page }) => {
  await signIn(page, 'staff', 'staff.caresupport');
  // The companies answer is held until the picker has been seen waiting for it.
  const release = await holdRequests(page, '**/api/users/companies');
  await page.goto(site('staff', '/users/new'));
  const company = page.getByRole('button', { name: /Company/ });
  const contact = page.getByRole('button', { name: /Contact/ });
  await expect(company).toBeDisabled();
  await expect(contact).toBeDisabled();
  release();
  await expect(company).toBeEnabled();
  await company.click();
  await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(4);
  await page.getByRole('listbox').getByRole('option').first().click();
  await expect(contact).toBeEnabled();
  await contact.click();
  await expect(page.getByRole('listbox').getByRole('option').first()).toBeVisible();
});

test("a user's page leads back to the user list as it was left, its search kept", async ({ page }) => {
  await signIn(page, 'staff', 'staff.caresupport');
  await page.goto(site('staff', '/users'));
  await page.getByLabel('Search text').fill('staff.super');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/[?&]q=staff\.super/);
  await page.getByRole('link', { name: 'staff.superuser', exact: true }).click();
  await expect(page).toHaveURL(/\/users\/[^/?]+$/);
  await page.getByRole('link', { name: 'Back to the user list' }).click();
  await expect(page).toHaveURL(/\/users\?.*q=staff\.super/);
  await expect(page.getByLabel('Search text')).toHaveValue('staff.super');
  await expect(page.getByRole('link', { name: 'staff.superuser', exact: true })).toBeVisible();
});

test('Cancel on a new user opened directly (a shared link, a new tab) goes to the user list, not out of the site', async ({ page }) => {
  await signIn(page, 'staff', 'staff.caresupport');
  await page.goto(site('staff', '/users/new'));
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByLabel('Search text')).toBeVisible();
});
