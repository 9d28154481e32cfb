import { axeAndReflow, expectAccessible } from '../axe';
import { signInWithForm, site } from '../support';
import { expect, test } from '../test';
import { choose, createActiveUser, input, mailedLink, PASSWORD, rawManifests, SANDBOX_URL, uniqueEmail } from './support';

test.describe.configure({ timeout: 90_000 });

test('register on the finance site, activate from the mailed link, then sign in', async ({ page }) => {
  const userName = uniqueEmail('register');
  await page.goto(site('finance', '/login'));
  await page.getByRole('button', { name: 'Register' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register' });
  await expect(dialog).toBeVisible();

  // Not sent, silently, until all four fields are present.
  let posted = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/account/user/register')) posted++;
  });
  await input(dialog, 'User name').fill(userName);
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  expect(posted).toBe(0);

  await input(dialog, 'Password').fill(PASSWORD);
  await expect(dialog.getByRole('listitem').filter({ hasText: 'At least one digit' })).toBeVisible();
  await input(dialog, 'First name').fill('Reggie');
  await input(dialog, 'Last name').fill('Tester');
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByText('Please check your email for the registration link.')).toBeVisible();
  expect(posted).toBe(1);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The same name again: the server's message.
  await page.getByRole('button', { name: 'Register' }).click();
  await input(dialog, 'User name').fill(userName);
  await input(dialog, 'Password').fill(PASSWORD);
  await input(dialog, 'First name').fill('Reggie');
  await input(dialog, 'Last name').fill('Tester');
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByRole('alert')).toContainText(`The user name ${userName} is already registered.`);
  await page.keyboard.press('Escape');

  // The sandbox inbox: open the activation mail and follow its link.
  await page.goto(`${SANDBOX_URL}/mail?to=${encodeURIComponent(userName)}`);
  await page.getByRole('link', { name: /Activate your .* account/ }).click();
  // The mail as a reader shows it: the brand's HTML, whose button opens the link in the tab.
  await page.frameLocator('iframe[title="The message"]').getByRole('link', { name: 'Activate my account' }).click();
  await expect(page).toHaveURL(/finance\.localhost.*\/login\/activate\//);
  await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Security question 2/ })).toBeVisible();
  await expectAccessible(page);

  await input(page, 'Password').fill(PASSWORD);
  await input(page, 'Confirm password').fill(PASSWORD);
  await choose(page, /Security question 1/, 0);
  await choose(page, /Security question 2/, 0);
  await input(page, 'Answer to security question 1').fill('Rex');
  await input(page, 'Answer to security question 2').fill('Springfield');
  await page.getByRole('button', { name: 'Activate account' }).click();
  // The same question twice is refused before anything is sent.
  await expect(page.getByText('Choose two different security questions.')).toBeVisible();
  await choose(page, /Security question 2/, 1);
  await page.getByRole('button', { name: 'Activate account' }).click();
  await expect(page.getByText('Your account has been sucessfully activated. You will be transferred to the Login page in 5 seconds.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByTestId('display-name')).toBeVisible();
});

test('an unknown activation link shows the invalid message', async ({ page }) => {
  await page.goto(site('finance', '/login/activate/not-a-real-link'));
  await expect(page.getByText('Unable to activate account, please try again.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Activate account' })).toHaveCount(0);
});

test('an unknown e-mail confirmation link is refused, with the reason', async ({ page }) => {
  await page.goto(site('finance', '/login/confirm-email/not-a-real-link'));
  await expect(page.getByRole('heading', { name: 'Confirm your e-mail address' })).toBeVisible();
  await expect(page.getByText('This e-mail confirmation link is not valid. It may have been used already or have expired.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the sign-in page' })).toHaveAttribute('href', '/login');
  await expectAccessible(page);
});

test('forgot password: the mailed link resets the password once, then is refused', async ({ page }) => {
  const userName = await createActiveUser(page, 'finance', 'reset');
  const newPassword = 'Fresh$pass2';
  await page.goto(site('finance', '/login'));
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Forgot password' });
  await dialog.getByRole('button', { name: 'Send Email' }).click();
  await expect(dialog.getByText('This field is required.')).toBeVisible();
  await input(dialog, 'User name').fill(userName);
  await dialog.getByRole('button', { name: 'Send Email' }).click();
  const support = rawManifests.finance.contacts.supportEmail;
  await expect(
    dialog.getByText(
      `An email with instructions has been sent. If you do not get the email in the next 5-10 mins, please click Send Email to receive another email, or contact us at ${support}.`,
    ),
  ).toBeVisible();

  const link = await mailedLink(userName, 'Reset', /\/login\/reset\//);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reset password' })).toBeVisible();
  await expectAccessible(page);
  await input(page, 'Password').fill(newPassword);
  await input(page, 'Confirm password').fill('Fresh$pass3');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('The passwords do not match.')).toBeVisible();
  await input(page, 'Confirm password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Your password has been sucessfully changed. You will be transferred to the Login page in 5 seconds.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  await signInWithForm(page, 'finance', userName, newPassword);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The link works once.
  await page.goto(link);
  await expect(page.getByText('Unable to reset password, please try again.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reset password' })).toHaveCount(0);
});

test('on the card site the register action is the external enrollment link', async ({ page }) => {
  await page.goto(site('card', '/login'));
  const externalUrl = rawManifests.card.registration.externalUrl;
  expect(externalUrl).toBeTruthy();
  await expect(page.getByRole('link', { name: /Register/ })).toHaveAttribute('href', externalUrl as string);
  await expect(page.getByRole('button', { name: 'Register' })).toHaveCount(0);
});

test('on the assist site registering signs the new user in', async ({ page }) => {
  const userName = uniqueEmail('assist');
  await page.goto(site('assist', '/register'));
  // /register opens the dialog by itself after about a second.
  const dialog = page.getByRole('dialog', { name: 'Register' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Password requirements' })).toBeVisible();
  await expectAccessible(page, '[role="dialog"]');
  await input(dialog, 'User name').fill(userName);
  await input(dialog, 'Password').fill(PASSWORD);
  await input(dialog, 'First name').fill('Ada');
  await input(dialog, 'Last name').fill('Assist');
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(page).not.toHaveURL(/\/(login|register)/);
  await expect(page.getByTestId('display-name')).toBeVisible();
  await expect(page.getByTestId('toolbar')).toHaveCSS('background-color', 'rgb(30, 123, 69)');
});

test('change password and security questions on the account page', async ({ page }) => {
  const userName = await createActiveUser(page, 'finance', 'change');
  const newPassword = 'Changed$pass3';
  await signInWithForm(page, 'finance', userName, PASSWORD);
  await page.getByRole('link', { name: 'My account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('region', { name: 'Security questions' }).getByRole('button', { name: 'Save security questions' })).toBeVisible();
  await expectAccessible(page);

  const section = page.getByRole('region', { name: 'Change password' });
  await input(section, 'Current password').fill('Wrong$pass9');
  await input(section, 'New password').fill(newPassword);
  await input(section, 'Confirm new password').fill(newPassword);
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(section.getByTestId('password-status')).toHaveText('Unable to change password! Details: The current password is incorrect.');

  await input(section, 'Current password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(section.getByTestId('password-status')).toHaveText('Successfully changed password!');

  const questions = page.getByRole('region', { name: 'Security questions' });
  await choose(page, /Security question 1/, 2);
  await choose(page, /Security question 2/, 3);
  await input(questions, 'Answer to security question 1').fill('Oak');
  await input(questions, 'Answer to security question 2').fill('Maple');
  await questions.getByRole('button', { name: 'Save security questions' }).click();
  await expect(page.getByText('Your security questions have been saved.')).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await signInWithForm(page, 'finance', userName, newPassword);
});

test('the register dialog and the activation page have no serious or critical accessibility violations', async ({ page }) => {
  const check = async () => {
    const results = await axeAndReflow(page);
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  };
  await page.goto(site('finance', '/login'));
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('dialog', { name: 'Register' }).getByRole('list', { name: 'Password requirements' })).toBeVisible();
  await check();
  await page.goto(site('finance', '/login/activate/not-a-real-link'));
  await expect(page.getByText('Unable to activate account, please try again.')).toBeVisible();
  await check();
});

test('in Spanish the account page offers the security questions in Spanish', async ({ page }) => {
  await signInWithForm(page, 'finance', 'finance.careguardfinance');
  await page.evaluate(() => localStorage.setItem('cq.lang', 'es'));
  await page.goto(site('finance', '/account'));
  await page.getByRole('button', { name: /Pregunta de seguridad 1/ }).click();
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options).toHaveCount(8);
  await expect(options.first()).toHaveText('¿Cómo se llamaba su primera mascota?');
  await expect(page.getByRole('listbox').getByText('What was the name of your first pet?')).toHaveCount(0);
});
