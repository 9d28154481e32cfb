import type { Locator, Page } from '@playwright/test';
import { axeAndReflow, expectAccessible } from '../axe';
import { signIn } from '../support';
import { expect, test } from '../test';

/** Every address the page asks the sandbox aggregator's linking page for, the frame's own navigations included. */
function aggregatorAddresses(page: Page): { method: string; url: string }[] {
  const seen: { method: string; url: string }[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/aggregator/fastlink')) seen.push({ method: r.method(), url: r.url() });
  });
  return seen;
}

/**
 * The linking frame was opened by a POST of the token into it (privacy review finding 6): it has no src, and neither
 * its address nor any address asked for carries the token, the rsession or the app.
 */
async function expectTokenOutOfAddresses(frame: Locator, seen: { method: string; url: string }[]) {
  await expect(frame).not.toHaveAttribute('src');
  const url = (await (await frame.elementHandle())?.contentFrame())?.url() ?? '';
  expect(new URL(url).pathname).toBe('/aggregator/fastlink');
  expect(new URL(url).search).toBe('');
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter((r) => r.url.includes('/aggregator/fastlink?') || /token|rsession/.test(r.url))).toEqual([]);
  expect(seen.find((r) => new URL(r.url).pathname === '/aggregator/fastlink')?.method).toBe('POST');
}

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

test('Banking: a CareGuard member searches, links a test bank through one MFA step, sets the funding account, refreshes and removes it', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'card', 'card.careguard');
  await page.getByRole('navigation').getByRole('link', { name: 'Bank Accounts', exact: true }).click();
  await expect(page).toHaveURL(/\/payment\/bank$/);
  await expect(page.getByTestId('bank-deactivated')).toBeVisible();

  const seen = aggregatorAddresses(page);
  await page.getByRole('link', { name: 'Add a bank' }).click();
  await expect(page).toHaveURL(/\/payment\/bank\/add$/);
  // The hidden linking frame opens the member's session at the aggregator in the background, by a POST of its token.
  const hidden = page.getByTestId('hidden-linking-frame');
  await expect(hidden).toHaveAttribute('data-state', 'loaded');
  // (hidden, so out of the accessibility tree: its page's heading is found with the hidden elements)
  const hiddenPage = page.frameLocator('[data-testid="hidden-linking-frame"]');
  await expect(hiddenPage.getByRole('heading', { name: 'Link a bank account', includeHidden: true })).toBeAttached();
  await expectTokenOutOfAddresses(hidden, seen);
  await expect(page.getByTestId('bank-popular').getByRole('listitem')).toHaveCount(8);
  await expectAccessible(page);

  // Under 3 characters: a warning, no search.
  const search = page.getByRole('searchbox', { name: 'Search for your bank' });
  await search.fill('Da');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.locator('[data-kind="warning"]').getByText('Minimum 3 characters are required')).toBeVisible();
  await search.fill('Dag Site');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByTestId('bank-results').getByRole('button', { name: 'Add Dag Site Bank' }).click();

  const dialog = page.getByRole('dialog', { name: 'Link Dag Site Bank' });
  await dialog.getByLabel('User ID').fill('question');
  await dialog.getByLabel('Password', { exact: true }).fill('bank123');
  await dialog.getByRole('button', { name: 'Link account' }).click();
  // One multi-factor step replaces the form; an empty answer is not posted.
  const answer = dialog.getByLabel('What was the name of your first pet?');
  await expect(answer).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('[data-kind="error"]').getByText('MFA form is empty')).toBeVisible();
  await answer.fill('rex');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Dag Site Bank has been added.')).toBeVisible();

  await page.getByRole('link', { name: 'Back to my bank accounts' }).click();
  const bank = page.getByTestId('linked-bank').filter({ hasText: 'Dag Site Bank' });
  await expect(bank).toBeVisible({ timeout: 15_000 });
  const account = bank.getByTestId('bank-account').first();
  await expect(account).toContainText(/\$[\d,]+\.\d{2}/);
  const accountName = (await account.getByRole('cell').first().textContent())?.trim() ?? '';

  await account.getByRole('button', { name: `Set ${accountName} as the funding account` }).press('Enter');
  await expect(page.getByText('Your funding account has been successfully set')).toBeVisible();
  await expect(account).toContainText('Funding account');
  // Its Set as default went with the change: focus stays in the account's row, on its Refresh.
  await expect(account.getByRole('button', { name: `Refresh ${accountName}` })).toBeFocused();

  await account.getByRole('button', { name: `Refresh ${accountName}` }).click();
  await expect(page.getByText('Your linked account has been refreshed. Please see your updated account shortly.')).toBeVisible();
  await expect(bank).toContainText('Last refreshed');

  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(seriousOrWorse(results.violations)).toEqual([]);

  await bank.getByRole('button', { name: 'Remove Dag Site Bank' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove this bank?' });
  await confirm.getByRole('button', { name: 'Remove' }).press('Enter');
  await expect(page.getByText('Your account has been removed.')).toBeVisible();
  await expect(page.getByTestId('linked-bank')).toHaveCount(0);
  await expect(page.getByTestId('bank-deactivated')).toBeVisible();
  // The dialog's return of focus finds the bank's Remove gone, and no bank is left: the account's state has focus.
  await expect(page.getByTestId('bank-deactivated')).toBeFocused();
});

test('Banking: a bank removed while another is linked gives focus to the other bank, in the list drawn without it', async ({ page }) => {
  // Two linked banks, as the finance service answers them (given here: linking two takes the aggregator's frames).
  const bank = (id: number, name: string) => ({
    ProviderId: id,
    ProviderAccountId: id,
    Name: name,
    Logo: null,
    Url: null,
    Status: 'SUCCESS',
    Message: null,
    LastRefreshed: null,
    Containers: [{ AccountId: id * 10 }],
  });
  const account = (id: number, name: string, isDefault: boolean) => ({
    AccountId: id * 10,
    ProviderAccountId: id,
    ProviderId: id,
    BankName: name,
    AccountName: `${name} Checking`,
    AccountType: 'checking',
    AccountNumber: '...1234',
    Balance: 100,
    RefreshDate: null,
    IsDefault: isDefault,
  });
  const both = {
    Banks: [bank(71, 'First Test Bank'), bank(72, 'Second Test Bank')],
    DefaultAccountId: 710,
    Accounts: [account(71, 'First Test Bank', true), account(72, 'Second Test Bank', false)],
    LastRefreshed: null,
    LastAdded: null,
  };
  const answer = (Data: unknown, MsgText: string | null = null) => ({
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({ Data, Unwrap: true, MsgText, HasError: false }),
  });
  await page.route('**/api/finance/site/accounts', (route) => route.fulfill(answer(both)));
  await page.route('**/api/finance/site/remove', (route) =>
    route.fulfill(answer({ ...both, Banks: both.Banks.slice(1), Accounts: both.Accounts.slice(1) }, 'Your account has been removed.')),
  );
  await signIn(page, 'card', 'card.careguard', undefined, '/payment/bank');
  await page.getByRole('button', { name: 'Remove First Test Bank' }).press('Enter');
  await page.getByRole('alertdialog', { name: 'Remove this bank?' }).getByRole('button', { name: 'Remove' }).press('Enter');
  await expect(page.getByText('Your account has been removed.')).toBeVisible();
  await expect(page.getByTestId('linked-bank')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Set Second Test Bank Checking as the funding account' })).toBeFocused();
});

test('Banking: the dashboard shows CareGuard the card and bank check; the linking page frames only the aggregator', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  await expect(page.getByTestId('card-bank-check')).toBeVisible();
  await expect(page.getByTestId('card-bank-check')).toContainText(/bank/i);
  const seen = aggregatorAddresses(page);
  const doc = page.waitForResponse((r) => r.request().resourceType() === 'document' && new URL(r.url()).pathname === '/management/bank-fastlink');
  await page.getByRole('navigation').getByRole('link', { name: 'Link a Bank', exact: true }).click();
  const csp = (await doc).headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/frame-src http:\/\/localhost:\d+;/);
  // The page posts the token into the frame: its form-action allows the aggregator's origin besides its own.
  expect(csp).toMatch(/form-action 'self' http:\/\/localhost:\d+;/);
  const frame = page.frameLocator('[data-testid="fastlink-frame"]');
  await expect(frame.getByRole('heading', { name: 'Link a bank account' })).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Dag Site Bank' })).toBeVisible();
  await expect(page.getByTestId('fastlink-frame')).toHaveAttribute('height', '825');
  await expectAccessible(page);
  await expectTokenOutOfAddresses(page.getByTestId('fastlink-frame'), seen);
  // Each step inside the frame posts the token too: choosing a bank and going back leave it out of every address.
  // By the keyboard: each new page in the frame tells the page its height, and the frame's resize may move a button
  // between a pointer click's aim and its press (a click once landed beside 'Back to search'); a key press has no aim.
  await frame.getByRole('button', { name: 'Dag Site Bank' }).press('Enter');
  await expect(frame.getByRole('heading', { name: 'Dag Site Bank' })).toBeVisible();
  await frame.getByRole('button', { name: 'Back to search' }).press('Enter');
  await expect(frame.getByRole('heading', { name: 'Link a bank account' })).toBeVisible();
  await expectTokenOutOfAddresses(page.getByTestId('fastlink-frame'), seen);
  expect(seen.filter((r) => r.method === 'POST').length).toBeGreaterThanOrEqual(3);
});

test('Banking: on a site without payment cards (finance) the CareGuard check shows the bank only and asks for no cards', async ({ page }) => {
  const cardCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/payment/customer/cards')) cardCalls.push(r.url());
  });
  await signIn(page, 'finance', 'finance.careguard');
  const check = page.getByTestId('card-bank-check');
  await expect(check).toBeVisible();
  await expect(check.getByRole('listitem')).toHaveCount(1);
  await expect(check).toContainText(/bank/i);
  await expect(check).not.toContainText(/card/i);
  expect(cardCalls).toEqual([]);
});

test('Banking: a finance user links a bank in the frame and is not offered the linked-banks page, which is not theirs', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/management/bank-fastlink');
  await expect(page.getByTestId('fastlink-frame')).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'See my linked bank accounts' })).toHaveCount(0);
  await page.goto(page.url().replace('/management/bank-fastlink', '/payment/bank'));
  await expect(page).toHaveURL(/\/invalid/);
});

test('Banking: a terminated CareGuard member with no bank is told why none can be linked, not invited to link one', async ({ page }) => {
  // The member's state as the kernel and banking answer it for a terminated membership with no bank left (the
  // termination unlinked it); route.fetch cannot resolve <brand>.localhost, so both answers are given here.
  const envelope = (Data: unknown) => ({
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({ Data, Unwrap: true, MsgText: null, HasError: false }),
  });
  await page.route('**/api/account/user/termination', (route) => route.fulfill(envelope({ isTerminated: true, terminationPeriod: 0, isMsa: false })));
  await page.route('**/api/finance/account/validate', (route) => route.fulfill(envelope({ IsValid: false, IsStale: false })));
  await signIn(page, 'card', 'card.careguard');
  const check = page.getByTestId('card-bank-check');
  await expect(check).toContainText('Your membership is terminated, so no bank can be linked. Reactivate it on your profile to link a bank again.');
  await expect(check.getByRole('link', { name: 'Link a bank' })).toHaveCount(0);
  await expectAccessible(page);
});

test("Banking: the dashboard's card and bank check says a failed check in its line with the finance service's words", async ({ page }) => {
  const words = 'The bank linking service is not available right now. Please try again in a few minutes.';
  await page.route('**/api/finance/account/validate', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ Data: null, MsgText: words, HasError: true }) }),
  );
  await signIn(page, 'card', 'card.careguard');
  const check = page.getByTestId('card-bank-check');
  // The line says the words, announced, with a Try again for that check alone.
  const line = check.getByRole('listitem').last();
  await expect(line.getByRole('alert')).toHaveText(`${words} Try again`);
  await expect(line.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(check.getByRole('link', { name: 'Link a bank' })).toHaveCount(0);
});

test("Banking: a failed bank search or list says the aggregator's words in place, and a retry or a new search recovers", async ({ page }) => {
  const unavailable = 'The bank linking service is not available right now. Please try again in a few minutes.';
  const refusal = { status: 503, contentType: 'application/json', body: JSON.stringify({ Data: null, MsgText: unavailable, HasError: true }) };
  let failing = true;
  await page.route('**/api/finance/site/search', (route) => (failing ? route.fulfill(refusal) : route.fallback()));
  await page.route('**/api/finance/site/accounts', (route) => (failing ? route.fulfill(refusal) : route.fallback()));
  await signIn(page, 'card', 'card.careguard', undefined, '/payment/bank/add');
  await page.getByRole('searchbox', { name: 'Search for your bank' }).fill('summit');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('main').getByText(unavailable)).toBeVisible();
  failing = false;
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('main').getByText(unavailable)).toHaveCount(0);
  await expect(
    page
      .getByTestId('bank-results')
      .getByRole('button', { name: /^Add .*Summit/ })
      .first(),
  ).toBeVisible();

  failing = true;
  await page.goto(page.url().replace('/payment/bank/add', '/payment/bank'));
  const failed = page.getByRole('main').getByText(unavailable);
  await expect(failed).toBeVisible();
  await expectAccessible(page);
  failing = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(failed).toHaveCount(0);
});
