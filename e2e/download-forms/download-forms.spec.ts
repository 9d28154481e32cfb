import { readFileSync } from 'node:fs';
import { axeAndReflow, expectAccessible } from '../axe';
import { signIn, site } from '../support';
import { expect, test } from '../test';

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

test('a card member sees the two amethyst letters and downloads one as a PDF; the page passes axe', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  await page.getByRole('navigation').getByRole('link', { name: 'Download Forms', exact: true }).click();
  await expect(page).toHaveURL(/\/downloadforms\/amethyst$/);
  const forms = page.getByTestId('download-forms').locator('li');
  await expect(forms).toHaveCount(2);
  await expect(forms.first()).toContainText('Prepaid Card Dispute Letter');
  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(seriousOrWorse(results.violations)).toEqual([]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Prepaid Card Dispute Letter' }).click()]);
  expect(download.suggestedFilename()).toBe('prepaid-card-dispute-letter.pdf');
  expect(
    readFileSync(await download.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
});

for (const { brand, user, path, letters } of [
  {
    brand: 'finance',
    user: 'finance.careguardfinance',
    path: '/downloadforms',
    letters: ['Authorization to Release Information', 'Provider Payment Direction Letter'],
  },
  {
    brand: 'assist',
    user: 'assist.careassist',
    path: '/downloadforms/careassist',
    letters: ['Assistance Program Enrollment Letter', 'Proof of Income Letter'],
  },
]) {
  test(`${user} sees their two letters on ${path}; the page passes axe`, async ({ page }) => {
    await signIn(page, brand, user);
    await page.goto(site(brand, path));
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Download Forms' })).toBeVisible();
    const forms = page.getByTestId('download-forms').locator('li');
    await expect(forms).toHaveCount(2);
    for (const [i, letter] of letters.entries()) {
      await expect(forms.nth(i)).toContainText(letter);
      await expect(forms.nth(i).getByRole('button', { name: `Download ${letter}` })).toBeVisible();
    }
    await expectAccessible(page);
  });
}

test("a member whose membership has ended is told so instead of being offered the letters, with their brand's phone", async ({ page }) => {
  // The kernel's answer for a membership whose termination date has come (route.fetch cannot resolve <brand>.localhost),
  // for a member of the finance brand on the assist site: the phone is their brand's (supportPhone), not the site's.
  await page.route('**/api/account/user/termination', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        Data: { isTerminated: true, terminationPeriod: 0, isMsa: false, supportPhone: '(800) 555-0140' },
        Unwrap: true,
        MsgText: null,
        HasError: false,
      }),
    }),
  );
  await signIn(page, 'assist', 'assist.careassist', undefined, '/downloadforms/careassist');
  await expect(page.getByTestId('download-forms-refused')).toHaveText(
    'Your membership has ended, so these forms can no longer be downloaded. Questions? Call us at (800) 555-0140.',
  );
  await expect(page.getByTestId('download-forms')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Download / })).toHaveCount(0);
  await expectAccessible(page);
});

test("a download the server refuses shows the server's words once, in place of the letters", async ({ page }) => {
  const words = 'Your membership has ended, so these forms can no longer be downloaded. Questions? Call us at (800) 555-0140.';
  await page.route('**/api/downloadforms/getByID**', (route) =>
    route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ Data: null, Unwrap: true, MsgText: words, HasError: true }) }),
  );
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/downloadforms');
  await page.getByRole('button', { name: 'Download Authorization to Release Information' }).click();
  await expect(page.getByTestId('download-forms-refused')).toHaveText(words);
  // No toast saying it again, and no "please try again" beside it.
  await expect(page.getByText(words)).toHaveCount(1);
  await expect(page.getByText('The form could not be downloaded. Please try again.')).toHaveCount(0);
  await expect(page.getByTestId('download-forms')).toHaveCount(0);
});
