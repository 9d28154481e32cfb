import type { BrowserContext, Page } from '@playwright/test';
import { axeAndReflow } from '../axe';
import { SANDBOX_URL } from '../playwright.config';
import { PROFILE_MEMBER, signIn } from '../support';
import { expect, test } from '../test';

// Every test edits the same demo member, PROFILE_MEMBER: one at a time.
test.describe.configure({ mode: 'serial' });

const axe = async (page: Page) => {
  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  return results.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
};
const suffix = () => Math.random().toString(36).slice(2, 7);

async function openProfile(page: Page) {
  await signIn(page, 'card', PROFILE_MEMBER);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My Profile' }).click();
  await expect(page).toHaveURL(/\/member$/);
  await expect(page.getByRole('heading', { name: 'My Profile', level: 1 })).toBeVisible();
  await expect(page.getByTestId('member-details')).toBeVisible();
}
const detail = (page: Page, label: string) =>
  page
    .getByTestId('member-details')
    .locator('dt', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');

/** The newest code the sandbox carrier delivered to +1<digits>, read in its SMS inbox (on its own origin). */
async function smsCode(context: BrowserContext, digits: string): Promise<string> {
  const inbox = await context.newPage();
  let code = '';
  await expect
    .poll(
      async () => {
        await inbox.goto(`${SANDBOX_URL}/sms?to=${encodeURIComponent(`+1${digits}`)}`);
        const text =
          (await inbox
            .locator('td.sms-text')
            .first()
            .textContent({ timeout: 1000 })
            .catch(() => null)) ?? '';
        code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
        return code;
      },
      { timeout: 20_000 },
    )
    .toMatch(/^\d{6}$/);
  await inbox.close();
  return code;
}

test('a card member edits the profile; cancel restores the values', async ({ page }) => {
  await openProfile(page);
  expect(await axe(page)).toEqual([]);
  const first = `Ada${suffix()}`;
  const edit = page.getByRole('button', { name: 'Edit', exact: true });
  await edit.click();
  // The pressed button went with the view: focus moves to the form's first field, and back to Edit after a save or cancel.
  await expect(page.getByLabel('First name')).toBeFocused();
  expect(await axe(page)).toEqual([]);
  // The e-mail address is text in the form: it changes on the account page (password, a link to the new address).
  await expect(page.getByRole('textbox', { name: 'E-mail' })).toHaveCount(0);
  await expect(page.getByTestId('member-email').getByRole('link', { name: 'Change it on My account (E-mail address)' })).toHaveAttribute('href', '/account');
  await page.getByLabel('First name').fill(first);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(detail(page, 'First name')).toHaveText(first);
  // The navigation bar shows the new name at once; fetching the identity again leaves the page (and its focus) as it is.
  await expect(page.getByTestId('display-name')).toContainText(first);
  await expect(edit).toBeFocused();

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByLabel('First name').fill('Changed');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(detail(page, 'First name')).toHaveText(first);
  await expect(edit).toBeFocused();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByLabel('First name')).toHaveValue(first);
  await page.getByRole('button', { name: 'Cancel' }).click();
});

test('a card member changes the mobile, reads the code in the sandbox SMS inbox and verifies it', async ({ page, context }) => {
  await openProfile(page);
  // A mobile in the sandbox carrier's mobile range (line numbers 1000-8999).
  const digits = `646555${1000 + Math.floor(Math.random() * 8000)}`;
  const shown = `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByLabel('Mobile phone').fill(digits);
  await expect(page.getByLabel('Mobile phone')).toHaveValue(shown);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(detail(page, 'Mobile phone')).toHaveText(shown);
  await expect(detail(page, 'Mobile phone verified')).toHaveText('Not verified');

  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(`A verification code was sent to ${shown}.`)).toBeVisible();

  const code = await smsCode(context, digits);

  await page.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText('Code not valid.')).toBeVisible();
  // The form stays to try again: focus stays on Verify (the refusal is an alert).
  await expect(page.getByRole('button', { name: 'Verify', exact: true })).toBeFocused();
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText('Code confirmed.')).toBeVisible();
  // The form went with the Verify pressed: the outcome takes focus.
  await expect(page.getByRole('status').filter({ hasText: 'Code confirmed.' })).toBeFocused();
  await expect(detail(page, 'Mobile phone verified')).toHaveText('Verified');
  expect(await axe(page)).toEqual([]);
});

test('a card member adds and edits an address', async ({ page }) => {
  await openProfile(page);
  await page.getByRole('tab', { name: 'Addresses' }).click();
  const street = `${100 + Math.floor(Math.random() * 800)} Birch ${suffix()} St`;
  await page.getByRole('button', { name: 'Add address' }).click();
  const address1 = page.getByRole('textbox', { name: /^Address(\(required\))?$/ });
  await expect(address1).toBeFocused();
  await address1.fill(street);
  await page.getByLabel('City').fill('Austin');
  await page.getByRole('form', { name: 'New address' }).getByRole('button', { name: /State/ }).click();
  await page.getByRole('listbox').getByRole('option', { name: 'Texas' }).click();
  await page.getByLabel('ZIP code').fill('78701');
  expect(await axe(page)).toEqual([]);
  await page.getByRole('button', { name: 'Save' }).click();

  const row = page.getByRole('button', { name: street });
  await expect(row).toBeVisible();
  await expect(page.getByTestId('address-details')).toContainText('Austin');
  // Saved, the address's view has focus on its Edit; Edit puts it on the form's first field, a save back on Edit.
  const editAddress = page.getByRole('button', { name: 'Edit address' });
  await expect(editAddress).toBeFocused();
  await editAddress.click();
  await expect(address1).toBeFocused();
  await page.getByLabel('City').fill('Round Rock');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('address-details')).toContainText('Round Rock');
  await expect(editAddress).toBeFocused();
  await expect(page.getByRole('grid').or(page.getByRole('table')).first()).toContainText('Round Rock');
  expect(await axe(page)).toEqual([]);
});

test('a card member terminates and reactivates the membership, each behind a confirm dialog', async ({ page }) => {
  await openProfile(page);
  await page.getByRole('button', { name: 'Terminate', exact: true }).click();
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expect(dialog).toContainText('Terminate your membership now?');
  // It says what happens: renewal, banks and their unreported transactions, what stays, and the way back.
  await expect(dialog).toContainText('Your plan stops renewing.');
  await expect(dialog).toContainText('Your linked banks are unlinked, and their transactions not yet reported are removed.');
  await expect(dialog).toContainText('Your documents, statements, history and messages stay available.');
  await expect(dialog).toContainText('You can reactivate your membership later from this page.');
  expect(await axe(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Terminate', exact: true }).click();
  await expect(page.getByTestId('membership-status')).toContainText('Your membership was terminated on');

  // The fresh session token works: a reload keeps the session and shows the change.
  await page.reload();
  await expect(page.getByTestId('membership-status')).toContainText('Your membership was terminated on');
  await page.getByRole('button', { name: 'Reactivate', exact: true }).click();
  await expect(dialog).toContainText('Reactivate your membership now?');
  await dialog.getByRole('button', { name: 'Reactivate', exact: true }).click();
  await expect(page.getByTestId('membership-status')).toHaveText('Your membership is active.');
  await expect(page.getByTestId('membership-reactivated')).toContainText('If you had linked banks, link them again to resume syncing your transactions');
});

test('two browser contexts edit the same profile: the second save is refused with the message and loses nothing', async ({ browser }) => {
  const a = await browser.newContext();
  const b = await browser.newContext();
  const pageA = await a.newPage();
  const pageB = await b.newPage();
  await openProfile(pageA);
  await openProfile(pageB);
  await pageA.getByRole('button', { name: 'Edit', exact: true }).click();
  await pageB.getByRole('button', { name: 'Edit', exact: true }).click();

  const firstA = `Alpha${suffix()}`;
  await pageA.getByLabel('First name').fill(firstA);
  await pageA.getByRole('button', { name: 'Save' }).click();
  await expect(detail(pageA, 'First name')).toHaveText(firstA);

  const lastB = `Bravo${suffix()}`;
  await pageB.getByLabel('Last name').fill(lastB);
  await pageB.getByRole('button', { name: 'Save' }).click();
  await expect(pageB.getByText('Someone else changed this profile; reload to see their change.')).toBeVisible();
  // B's typing is still there, and A's save was not overwritten.
  await expect(pageB.getByLabel('Last name')).toHaveValue(lastB);
  expect(await axe(pageB)).toEqual([]);
  await pageB.getByRole('button', { name: 'Reload' }).click();
  await expect(pageB.getByLabel('First name')).toHaveValue(firstA);
  // The notice went away with its Reload button: focus goes to the form's first field, not to the page's start.
  await expect(pageB.getByLabel('First name')).toBeFocused();
  await expect(pageB.getByText('Someone else changed this profile; reload to see their change.')).toHaveCount(0);

  await pageA.reload();
  await expect(detail(pageA, 'First name')).toHaveText(firstA);
  await expect(detail(pageA, 'Last name')).not.toHaveText(lastB);
  await a.close();
  await b.close();
});

test("support's screen of a member shows whether the mobile is verified and offers no code, which only the member may ask for", async ({ page }) => {
  await signIn(page, 'staff', 'staff.caresupport', undefined, '/users');
  await page.getByRole('textbox', { name: 'Search text' }).fill('card.careguardfinance');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('link', { name: 'card.careguardfinance', exact: true }).click();
  await expect(page.getByTestId('member-details')).toBeVisible();
  await expect(detail(page, 'Mobile phone verified')).toHaveText(/^(Verified|Not verified)$/);
  await expect(page.getByRole('heading', { name: 'Verify your mobile phone' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send code' })).toHaveCount(0);
  expect(await axe(page)).toEqual([]);
});
