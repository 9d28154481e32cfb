import type { Page } from '@playwright/test';
import { choose, input, mailedLink, PASSWORD, SANDBOX_URL, uniqueEmail } from '../account/support';
import { axeAndReflow, expectAccessible } from '../axe';
import { signInWithForm, site } from '../support';
import { expect, test } from '../test';

test.describe.configure({ timeout: 180_000 });

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
async function axeClean(page: Page) {
  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(seriousOrWorse(results.violations)).toEqual([]);
}

/** Registers through the register dialog on the login screen. */
async function registerInDialog(page: Page, brand: string, userName: string) {
  await page.goto(site(brand, '/register'));
  const dialog = page.getByRole('dialog', { name: 'Register' });
  await expect(dialog).toBeVisible();
  await input(dialog, 'User name').fill(userName);
  await input(dialog, 'Password').fill(PASSWORD);
  await input(dialog, 'First name').fill('Wanda');
  await input(dialog, 'Last name').fill('Wizard');
  await dialog.getByRole('button', { name: 'Register' }).click();
  return dialog;
}

/** The intro dialog opens by itself on the start screen; Get started moves to Personal Info. */
async function begin(page: Page, brandName: string) {
  const intro = page.getByRole('dialog', { name: `Welcome to ${brandName}` });
  await expect(intro).toBeVisible();
  await intro.getByRole('button', { name: 'Get started' }).click();
  await expect(page).toHaveURL(/\/registration\/profile$/);
}

/** Fills Personal Info; a wrong ZIP code first shows its error and the toast, then the right one goes through. */
async function fillPersonalInfo(page: Page) {
  const form = page.getByRole('form', { name: 'Personal Info' });
  await expect(input(form, 'First name')).toHaveValue('Wanda');
  await input(form, 'Mobile phone').fill(`646555${1000 + Math.floor(Math.random() * 8000)}`);
  await input(form, 'Address').first().fill('12 Wizard Way');
  await input(form, 'City').fill('Austin');
  await choose(page, /State\(required\)/, 43);
  await input(form, 'ZIP code').fill('12');
  await form.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please fix any errors before continuing.')).toBeVisible();
  await expect(form.getByText('Enter a 5-digit ZIP code (or ZIP+4).')).toBeVisible();
  await expect(page).toHaveURL(/\/registration\/profile$/);
  await input(form, 'ZIP code').fill('73301');
  await choose(page, /How did you hear about us/, 1);
  await form.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/registration\/contact$/);
  await expect(page.getByTestId('contact-details')).toContainText('12 Wizard Way');
}

test('assist: register and land in the wizard, no jumping ahead, Personal Info, monthly with a card, finish; another browser resumes at the same step', async ({
  page,
  browser,
}) => {
  const userName = uniqueEmail('wizard');
  await registerInDialog(page, 'assist', userName);
  // Assist signs in at once, and a new member lands in the wizard.
  await expect(page).toHaveURL(/\/registration\/start$/);
  await expect(page.getByRole('heading', { name: 'Complete your registration' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Welcome to CareAssist' })).toBeVisible();
  await axeClean(page);

  // Typing a later step's address, or any other page, sends the member back to the current step.
  for (const path of ['/registration/card?type=1', '/registration/confirmation', '/dashboard', '/welcome']) {
    await page.goto(site('assist', path));
    await expect(page).toHaveURL(/\/registration\/start$/);
  }
  await begin(page, 'CareAssist');
  await page.goto(site('assist', '/registration/subscription'));
  await expect(page).toHaveURL(/\/registration\/profile$/);
  // Previous stops at the first tab.
  await expect(page.getByRole('button', { name: 'Previous' })).toHaveCount(0);
  await axeClean(page);

  await fillPersonalInfo(page);
  await expectAccessible(page);

  // Midway: a fresh browser signs in and resumes at the same step.
  const other = await browser.newContext();
  const second = await other.newPage();
  await signInWithForm(second, 'assist', userName, PASSWORD);
  await expect(second).toHaveURL(/\/registration\/contact$/);
  await expect(second.getByTestId('contact-details')).toContainText('12 Wizard Way');
  await other.close();

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/registration\/subscription$/);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('subscription-required')).toHaveText('Choose a membership type or apply a valid coupon.');
  await page.getByText('1 month, $12/month', { exact: true }).click();
  await axeClean(page);
  await page.getByRole('button', { name: 'Next' }).click();

  // Link Card: the gateway's hosted form opens by itself; the card number is typed into the gateway's page.
  await expect(page).toHaveURL(/\/registration\/card\?type=1$/);
  const frame = page.getByTestId('card-frame');
  await expect(frame).toBeVisible();
  expect((await frame.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(500);
  const form = page.frameLocator('[data-testid="card-frame"]');
  // In guided mode Cancel reopens the card form.
  const firstForm = await frame.getAttribute('name');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(frame).toBeVisible();
  await expect.poll(() => frame.getAttribute('name')).not.toBe(firstForm);
  await expect(form.getByLabel(/Card number/)).toBeVisible();
  await expectAccessible(page);
  await form.getByLabel(/Card number/).fill('4111 1111 1111 1111');
  await form.getByLabel('Expiration (MM/YY)').fill('12/30');
  await form.getByLabel('Card code (CVV)').fill('123');
  await form.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(/\/registration\/confirmation$/, { timeout: 30_000 });
  await expect(page.getByTestId('registration-complete')).toContainText('Your registration is complete. Welcome to CareAssist!');
  await axeClean(page);
  // Complete: every page opens, and the wizard's screens go to the confirmation.
  await page.goto(site('assist', '/payment'));
  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByTestId('card-row')).toContainText('XXXX1111');
  await page.goto(site('assist', '/registration/profile'));
  await expect(page).toHaveURL(/\/registration\/confirmation$/);
});

test('finance: register, activate from the sandbox inbox, sign in and land in the wizard, which has no membership steps', async ({ page }) => {
  const userName = uniqueEmail('wizfin');
  const dialog = await registerInDialog(page, 'finance', userName);
  await expect(dialog.getByText('Please check your email for the registration link.')).toBeVisible();

  // The mail goes out through the job queue: wait for it, then open it in the sandbox inbox.
  await mailedLink(userName, 'Activate', /\/login\/activate\//);
  await page.goto(`${SANDBOX_URL}/mail?to=${encodeURIComponent(userName)}`);
  await page.getByRole('link', { name: /Activate your .* account/ }).click();
  // The mail as a reader shows it: the brand's HTML, whose button opens the link in the tab.
  await page.frameLocator('iframe[title="The message"]').getByRole('link', { name: 'Activate my account' }).click();
  await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
  await input(page, 'Password').fill(PASSWORD);
  await input(page, 'Confirm password').fill(PASSWORD);
  await choose(page, /Security question 1/, 0);
  await choose(page, /Security question 2/, 1);
  await input(page, 'Answer to security question 1').fill('Rex');
  await input(page, 'Answer to security question 2').fill('Springfield');
  await page.getByRole('button', { name: 'Activate account' }).click();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/registration\/start$/);
  await expect(page.getByTestId('wizard-tabs').getByRole('listitem')).toHaveText([/Personal Info/, /Finish/]);
  await page.goto(site('finance', '/claims'));
  await expect(page).toHaveURL(/\/registration\/start$/);

  await begin(page, 'CareGuard Finance');
  await fillPersonalInfo(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/registration\/confirmation$/);
  await expect(page.getByTestId('registration-complete')).toContainText('Welcome to CareGuard Finance!');
  await page.getByRole('link', { name: 'Go to my dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('/welcome-old greets a signed-in member by the brand and links to the dashboard', async ({ page }) => {
  await signInWithForm(page, 'finance', 'finance.careguardfinance');
  await page.goto(site('finance', '/welcome-old'));
  await expect(page).toHaveURL(/\/welcome-old$/);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Welcome to CareGuard Finance' })).toBeVisible();
  await expect(main.getByText('You are signed in.')).toBeVisible();
  await expect(main.getByRole('link', { name: 'Go to my dashboard' })).toHaveAttribute('href', '/');
  await expectAccessible(page);
});
