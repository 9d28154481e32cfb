import type { APIRequestContext, Page } from '@playwright/test';
import { expectAccessible } from '../axe';
import { E2E_PORT, SANDBOX_URL } from '../playwright.config';
import { DEMO_PASSWORD, memberForAttempt, signIn, site } from '../support';
import { expect, test } from '../test';
import { recordToasts } from '../toasts';

/**
 * Searches the transactions grid and waits until the search is applied (it is kept in the address, and the grid is
 * busy from then until its rows are in). The rows before it may already show what a check looks for, so a check made
 * sooner could pass on them while the search is still to come, and axe would then run on a grid dimmed while busy.
 */
async function searchFor(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(text);
  await expect(page).toHaveURL(new RegExp(`\\.q=${encodeURIComponent(text)}(&|$)`));
}

/**
 * Support tooling on the staff site, as CareSupport. It changes two demo members no other journey uses:
 * assist.careguard (cards, charges, a void, a PA number) and card.careassist (terminated). A journey that changes
 * them once (cards added, a termination) works on the seed's spare of each when CI runs it again after a failure.
 */
const CHARGED_MEMBER = 'assist.careguard';
const TERMINATED_MEMBER = 'card.careassist';

interface Api {
  post<T>(path: string, body: unknown): Promise<T>;
}
/** The API as the staff site's client calls it (Node resolves no *.localhost: the address with the site's Host). */
const apiUrl = (path: string) => `http://127.0.0.1:${E2E_PORT}${path}`;
async function staffApi(request: APIRequestContext): Promise<Api> {
  const res = await request.post(apiUrl('/token'), {
    headers: { host: 'staff.localhost' },
    form: { grant_type: 'password', UserName: 'staff.caresupport', Password: DEMO_PASSWORD },
  });
  expect(res.ok()).toBe(true);
  const t = (await res.json()) as { access_token: string; form_token: string };
  const headers = { authorization: `Bearer ${t.access_token}`, 'x-form-token': t.form_token, host: 'staff.localhost' };
  return {
    async post<T>(path: string, body: unknown) {
      const r = await request.post(apiUrl(path), { headers, data: body });
      expect(r.ok(), await r.text()).toBe(true);
      return ((await r.json()) as { Data: T }).Data;
    },
  };
}
type MemberRow = { MemberID: number; MemberNumber: string; FirstName: string; LastName: string; UserId: string };
const memberByEmail = async (api: Api, userName: string) =>
  (await api.post<{ Items: MemberRow[] }>('/api/support/members', { Query: { Status: 'All', SearchString: `${userName}@demo.example.com` } }))
    .Items[0] as MemberRow;

/** Types a card into the gateway's hosted form, inside the cross-origin iframe. */
async function typeCard(page: Page, number: string) {
  await page.getByRole('button', { name: 'Add card' }).click();
  const form = page.frameLocator('[data-testid="card-frame"]');
  await form.getByLabel(/Card number/).fill(number);
  await form.getByLabel('Expiration (MM/YY)').fill('12/30');
  await form.getByLabel('Card code (CVV)').fill('123');
  await form.getByRole('button', { name: 'Save' }).click();
}

/**
 * The member's card on which the gateway holds every charge for review (added through the hosted form when the member
 * has none yet), as a charge of it by support's API.
 */
async function reviewCard(page: Page, api: Api, memberId: number) {
  type Profile = { CustomerId: number; Profiles: { ProfileId: number; CardNumber: string }[] };
  let profile = await api.post<Profile>('/api/payment/support/profile', { MemberId: memberId });
  if (!profile.Profiles.some((p) => p.CardNumber === 'XXXX0259')) {
    await page.goto(site('staff', `/support/card/${memberId}`));
    await typeCard(page, '4000 0000 0000 0259');
    await expect(page.getByRole('cell', { name: /^XXXX0259/ })).toBeVisible();
    profile = await api.post<Profile>('/api/payment/support/profile', { MemberId: memberId });
  }
  const profileId = profile.Profiles.find((p) => p.CardNumber === 'XXXX0259')?.ProfileId;
  return (amount: number, description: string, IdempotencyKey: string) =>
    api.post<{ StatusString: string; Message: string; TransactionID: number }>('/api/payment/charge', {
      customerId: profile.CustomerId,
      profileId,
      amount,
      description,
      IdempotencyKey,
    });
}

/** Finds a member in support's members list by name (the filter waits 1000 ms) and opens their tabs at /users/:id. */
async function openMember(page: Page, m: MemberRow, status: 'Members' | 'All' = 'Members') {
  await page.goto(site('staff', '/users'));
  await page.getByRole('link', { name: /Members list/ }).click();
  await expect(page).toHaveURL(/\/support-members/);
  if (status !== 'Members') await page.getByLabel('Status', { exact: true }).selectOption(status);
  const list = page.waitForResponse((r) => r.url().endsWith('/api/support/members') && (r.request().postData() ?? '').includes(m.LastName));
  await page.getByLabel('Find a member').fill(`${m.FirstName} ${m.LastName}`);
  await list;
  // Every word of the text is required anywhere in a member's name, number or e-mail: other members may match too
  // (another Thomas whose e-mail holds "kim"), so the row is the one with the member's number.
  const row = page.getByRole('row').filter({ hasText: m.MemberNumber });
  await expect(row.getByRole('link', { name: m.FirstName, exact: true })).toBeVisible();
  await expectAccessible(page);
  await row.getByRole('link', { name: m.FirstName, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${m.UserId}$`));
}

test('Support: find a member, open their tabs, charge a declined transaction, void an unsettled refund, set a PA number, export, reports', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const api = await staffApi(request);
  const member = await memberByEmail(api, memberForAttempt([CHARGED_MEMBER, 'assist.careguard-2']));
  await signIn(page, 'staff', 'staff.caresupport');

  await openMember(page, member);
  const tabs = page.getByRole('tablist', { name: 'Member details' });
  for (const name of ['Details', 'Addresses', 'Transactions', 'Subscription', 'Contacts', 'Card'])
    await expect(tabs.getByRole('tab', { name, exact: true })).toBeVisible();
  await expect(page.getByRole('tabpanel').last()).toContainText(member.LastName);
  await tabs.getByRole('tab', { name: 'Addresses' }).click();
  await expect(page.getByRole('button', { name: 'Add address' })).toBeVisible();
  // Each member tab has the spec's address (/users/:id/details-*), and the address opens its tab.
  await expect(page).toHaveURL(new RegExp(`/users/${member.UserId}/details-addresses$`));
  await page.goto(site('staff', `/users/${member.UserId}/details-contacts`));
  await expect(tabs.getByRole('tab', { name: 'Contacts', exact: true })).toHaveAttribute('aria-selected', 'true');
  await tabs.getByRole('tab', { name: 'Transactions' }).click();
  await expect(page.getByTestId('termination-state')).toHaveText('Not terminated');
  await expectAccessible(page);
  await tabs.getByRole('tab', { name: 'Subscription' }).click();
  await expect(page.getByTestId('support-subscription')).toBeVisible();

  // The card screen (560 px hosted form): a card that declines charges, then a good one made the default.
  await tabs.getByRole('tab', { name: 'Card' }).click();
  await page.getByRole('link', { name: "Manage the member's cards" }).click();
  await expect(page).toHaveURL(new RegExp(`/support/card/${member.MemberID}$`));
  await typeCard(page, '4000 0000 0000 0341');
  await expect(page.getByRole('cell', { name: /^XXXX0341/ })).toBeVisible();
  // Support edits the member's card in the gateway's edit-payment form: the new expiry shows in the member's cards.
  await page.getByRole('button', { name: 'Edit card XXXX0341' }).click();
  const edit = page.frameLocator('[data-testid="card-frame"]');
  await edit.getByLabel('Expiration (MM/YY)').fill('06/34');
  await edit.getByLabel('Card code (CVV)').fill('123');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'XXXX0341' })).toContainText('06/2034');
  const profile = await api.post<{ CustomerId: number; Profiles: { ProfileId: number; CardNumber: string }[] }>('/api/payment/support/profile', {
    MemberId: member.MemberID,
  });
  const bad = profile.Profiles.find((p) => p.CardNumber === 'XXXX0341')?.ProfileId;
  const declined = await api.post<{ StatusString: string; TransactionID: number }>('/api/payment/charge', {
    customerId: profile.CustomerId,
    profileId: bad,
    amount: 42.5,
    description: 'Pharmacy copay',
    IdempotencyKey: `e2e-declined-${Date.now()}`,
  });
  expect(declined.StatusString).toBe('Error');
  await typeCard(page, '4111 1111 1111 1111');
  await page.getByRole('button', { name: 'Make XXXX1111 the default card' }).click();
  await expect(page.getByRole('row', { name: /XXXX1111/ })).toContainText('Default');
  await expectAccessible(page);

  // Declined is the default filter; charging it makes it Paid.
  await page.goto(site('staff', '/support-transactions'));
  await expect(page.getByLabel('Status', { exact: true })).toHaveValue('Declined');
  const row = () =>
    page
      .getByRole('row')
      .filter({ hasText: String(declined.TransactionID) })
      .first();
  await searchFor(page, member.LastName);
  await expect(row()).toContainText('Declined');
  await expect(row()).toContainText('$42.50');
  await expectAccessible(page);
  // From the keyboard, Enter on the row's actions cell (Charge, PA number) moves into the cell and presses nothing:
  // the charge waits for its own button; Escape goes back to the cell.
  const charge = row().getByRole('button', { name: `Charge ${declined.TransactionID}` });
  const actionsCell = row()
    .getByRole('gridcell')
    .filter({ has: page.getByRole('button', { name: `Charge ${declined.TransactionID}` }) });
  await actionsCell.focus();
  await page.keyboard.press('Enter');
  await expect(charge).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(actionsCell).toBeFocused();
  await expect(row()).toContainText('Declined');
  await expect(page.getByText('The payment was successful.')).toHaveCount(0);
  await charge.click();
  await expect(page.getByText('The payment was successful.')).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('Charged');
  await expect(row()).toContainText('Paid');

  // Refund before settlement: the void offer, then the void.
  await row()
    .getByRole('button', { name: `Refund ${declined.TransactionID}` })
    .click();
  const offer = page.getByRole('alertdialog', { name: 'Transaction not settled' });
  await expect(offer).toContainText('has not been settled');
  await offer.getByRole('button', { name: 'Void' }).click();
  await expect(page.getByText('The transaction has been voided.')).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('Voided');
  await expect(row()).toContainText('Refunded');

  // PA number.
  await row()
    .getByRole('button', { name: `PA number ${declined.TransactionID}` })
    .click();
  const pa = page.getByRole('dialog', { name: `PA number of transaction ${declined.TransactionID}` });
  await pa.getByLabel('PA number').fill('PA-555');
  await pa.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The PA number has been saved.')).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('PA Number');
  await expect(row()).toContainText('PA-555');

  // A prepull (an authorization on the default card), captured in part from the grid.
  const prepull = await api.post<{ StatusString: string; TransactionID: number }>('/api/payment/support/prepull', {
    MemberId: member.MemberID,
    Amount: 30,
    IdempotencyKey: `e2e-prepull-${Date.now()}`,
  });
  expect(prepull.StatusString).toBe('Ok');
  // The dashboard's support work counts the holds as the list does, and its line opens the list on them.
  const holds = (await api.post<{ ItemCount: number }>('/api/support/transactions', { Query: { Status: 'Authorized' } })).ItemCount;
  await page.goto(site('staff', '/dashboard'));
  const queue = page.getByRole('list', { name: 'Support work' });
  await expect(queue.getByRole('listitem')).toHaveCount(4);
  await expectAccessible(page);
  await queue.getByRole('link', { name: `${holds} ${holds === 1 ? 'hold on a card' : 'holds on cards'} to capture or release` }).click();
  await expect(page).toHaveURL(/\/support-transactions\?status=Authorized$/);
  await expect(page.getByLabel('Status', { exact: true })).toHaveValue('Authorized');
  await searchFor(page, member.LastName);
  const authorization = page
    .getByRole('row')
    .filter({ hasText: String(prepull.TransactionID) })
    .first();
  await expect(authorization).toContainText('$30.00');
  await authorization.getByRole('button', { name: `Capture ${prepull.TransactionID}` }).click();
  const capture = page.getByRole('dialog', { name: `Capture authorization ${prepull.TransactionID}` });
  await capture.getByLabel('Amount to capture').fill('25');
  await expectAccessible(page);
  await capture.getByRole('button', { name: 'Capture' }).click();
  await expect(page.getByText('The authorized amount has been captured.')).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('Charged');
  await expect(authorization).toContainText('$25.00');
  // The filter is in the address with the search: a reload shows the same list.
  await expect(page).toHaveURL(/[?&]status=Charged(&|$)/);
  await page.reload();
  await expect(page.getByLabel('Status', { exact: true })).toHaveValue('Charged');
  await expect(authorization).toContainText('$25.00');

  // Export to Excel.
  const excel = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export to Excel' }).click();
  expect((await excel).suggestedFilename()).toMatch(/^support-transactions-.*\.xlsx$/);

  // Both reports, each as PDF and Excel.
  await page.goto(site('staff', '/support-reports'));
  await expect(page.getByRole('button', { name: 'User report Excel' })).toBeVisible();
  await expectAccessible(page);
  for (const [name, file] of [
    ['Registration report PDF', /^registration-report-.*\.pdf$/],
    ['Registration report Excel', /^registration-report-.*\.xlsx$/],
    ['User report PDF', /^user-report-.*\.pdf$/],
    ['User report Excel', /^user-report-.*\.xlsx$/],
  ] as const) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name }).click();
    expect((await download).suggestedFilename()).toMatch(file);
  }
  await expect(page.getByText('Report generated').first()).toBeVisible();
});

test("Support: finds a member's bill by its id and moves it to a next status through the state machine", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await staffApi(request);
  const member = await memberByEmail(api, 'card.careguard');
  // One of the member's pending bills, as the member sees them.
  const tok = await request.post(apiUrl('/token'), {
    headers: { host: 'card.localhost' },
    form: { grant_type: 'password', UserName: 'card.careguard', Password: DEMO_PASSWORD },
  });
  const t = (await tok.json()) as { access_token: string; form_token: string };
  const pending = await request.post(apiUrl('/api/claims/searchAmethyst'), {
    headers: { authorization: `Bearer ${t.access_token}`, 'x-form-token': t.form_token, host: 'card.localhost' },
    data: {},
  });
  const bill = ((await pending.json()) as { Data: { Items: { ClaimID: number; ClaimNumber: string }[] } }).Data.Items[0];
  if (!bill) throw new Error('card.careguard has no pending bill');

  await signIn(page, 'staff', 'staff.caresupport');
  await openMember(page, member);
  await page.getByRole('tablist', { name: 'Member details' }).getByRole('tab', { name: 'Transactions' }).click();
  // One character is no claim ID (spec 02 section 5): said as on the bills page, nothing asked.
  await page.getByLabel('Bill ID').fill('7');
  await page.getByRole('button', { name: 'Find the bill' }).click();
  await expect(page.getByText('Please enter a valid claim ID')).toBeVisible();
  await page.getByLabel('Bill ID').fill(String(bill.ClaimID));
  await page.getByRole('button', { name: 'Find the bill' }).click();
  await expect(page.getByTestId('support-claim')).toContainText(bill.ClaimNumber);
  await expect(page.getByText('Please enter a valid claim ID')).toHaveCount(0);
  const next = page.getByLabel('Move to');
  const target = (await next.locator('option').allTextContents())[1] as string;
  await next.selectOption({ label: target });
  await page.getByLabel('Reason (optional)').fill('Checked with the member by phone');
  await page.getByRole('button', { name: 'Change status' }).click();
  await expect(page.getByText(`The bill is now ${target}.`)).toBeVisible();
  await expect(page.getByTestId('support-claim')).toContainText(`: ${target}.`);
  await expectAccessible(page);
  // The way back, after changing tabs, is to the members list as it was left: its filter still holds the member.
  await page.getByRole('link', { name: 'Back to the member list' }).click();
  await expect(page).toHaveURL(/\/support-members\?/);
  await expect(page.getByLabel('Find a member')).toHaveValue(`${member.FirstName} ${member.LastName}`);
  await expect(page.getByRole('row').filter({ hasText: member.MemberNumber })).toBeVisible();
});

test('Support: terminating a member with "Also close their logins" ends their sessions and closes the login: their member page sends them to sign in, and signing in is refused', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const api = await staffApi(request);
  const userName = memberForAttempt([TERMINATED_MEMBER, 'card.careassist-2']);
  const member = await memberByEmail(api, userName);
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, 'card', userName);

  await signIn(page, 'staff', 'staff.caresupport');
  await openMember(page, member);
  await page.getByRole('tablist', { name: 'Member details' }).getByRole('tab', { name: 'Transactions' }).click();
  await page.getByRole('button', { name: 'Terminate' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Terminate the member' });
  await expect(dialog).toContainText('The member keeps their login to read their documents, statements, tax forms and history');
  // Closing the logins is a separate choice, off until ticked, its consequence spelled out.
  const close = dialog.getByRole('checkbox', { name: 'Also close their logins (fraud or abuse only)' });
  await expect(close).not.toBeChecked();
  await expect(dialog).toContainText('lose access to their documents, statements and tax forms');
  await expectAccessible(page);
  // Clicking its words ticks it, as a user does (the drawn box covers react-aria's hidden input).
  await dialog.getByText('Also close their logins (fraud or abuse only)').click();
  await expect(close).toBeChecked();
  await dialog.getByRole('button', { name: 'Terminate' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.getByTestId('termination-state')).toContainText('Terminated on');
  // Acting for them, the banner beside "Acting on behalf of member N" names the day their membership ended.
  await page.getByLabel('Member ID or number to act for').fill(String(member.MemberID));
  await page.getByRole('button', { name: 'Act for member' }).click();
  await expect(page.getByTestId('impersonation-terminated')).toHaveText(/^Their membership ended on [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/);

  await memberPage.goto(site('card', '/member'));
  await expect(memberPage).toHaveURL(/\/login/);
  // Signing in again is refused: the login is closed.
  await memberPage.getByLabel('User name').fill(userName);
  await memberPage.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await memberPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(
    memberPage.getByRole('alert').filter({ hasText: 'This account has been closed. Please contact support if you think this is a mistake.' }).first(),
  ).toBeVisible();
  await expect(memberPage).toHaveURL(/\/login/);
  await memberContext.close();
});

test('Support: the pending transactions list opens on the Declined filter, its Pending filter lists only pending charges, it offers no export; Charge approves a held one', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // A charge on a card the gateway holds for review: support's pending list has it.
  const api = await staffApi(request);
  const member = await memberByEmail(api, CHARGED_MEMBER);
  await signIn(page, 'staff', 'staff.caresupport');
  const hold = await reviewCard(page, api, member.MemberID);
  const held = await hold(1250, 'Mercy Hospital, inpatient stay', `e2e-held-${Date.now()}`);
  expect(held).toMatchObject({ StatusString: 'Error', Message: 'This transaction is being held for review.' });

  await page.goto(site('staff', '/support-pendingtransactions'));
  await expect(page.getByRole('heading', { level: 1, name: 'Pending transactions' })).toBeVisible();
  const grid = page.getByRole('grid', { name: 'Pending transactions' });
  await expect(grid).toHaveAttribute('aria-busy', 'false');
  const status = page.getByLabel('Status', { exact: true });
  // Declined by default (spec 02 section 4), as the transactions list; its Pending filter holds the held charges.
  await expect(status).toHaveValue('Declined');
  await expect(grid).toHaveAttribute('aria-busy', 'false');
  await expect(grid.locator('[data-status]:not([data-status="Declined"])')).toHaveCount(0);
  await status.selectOption('Pending');
  await expect(page).toHaveURL(/status=Pending/);
  await expect(grid).toHaveAttribute('aria-busy', 'false');
  // The pending list filters by the statuses a pending charge can reach: no PA Number, no Voided.
  await expect(status.locator('option')).toHaveText(['All', 'Charged', 'Pending', 'Declined', 'Refunded', 'Authorized']);
  await expect(page.getByRole('button', { name: 'Export to Excel' })).toHaveCount(0);
  // The status filter is drawn as the search box beside it: the same height, on the same line.
  const search = await page.getByRole('searchbox', { name: 'Search' }).boundingBox();
  const filter = await status.boundingBox();
  expect(search && filter && Math.abs(search.height - filter.height)).toBeLessThanOrEqual(1);
  expect(search && filter && Math.abs(search.y + search.height - (filter.y + filter.height))).toBeLessThanOrEqual(1);
  // Every row it lists is pending.
  await expect(grid.locator('[data-status]:not([data-status="Pending"])')).toHaveCount(0);
  await expectAccessible(page);

  // Charge approves the held charge at the gateway: it leaves the pending list and shows as paid.
  // The row by its own buttons: another row's amount or date may hold the id's digits.
  const row = grid.getByRole('row').filter({ has: page.getByRole('button', { name: `Charge ${held.TransactionID}`, exact: true }) });
  await expect(row).toContainText('$1,250.00');
  await row.getByRole('button', { name: `Charge ${held.TransactionID}` }).click();
  await expect(page.getByText('The payment was successful.')).toBeVisible();
  await expect(row).toHaveCount(0);
  await status.selectOption('Charged');
  await expect(grid.getByRole('row').filter({ has: page.getByRole('button', { name: `Refund ${held.TransactionID}`, exact: true }) })).toContainText('Paid');
});

test("Support: held charges the merchant decides in the gateway's own screen leave the pending list by themselves; Check with the gateway answers", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const api = await staffApi(request);
  const member = await memberByEmail(api, CHARGED_MEMBER);
  await signIn(page, 'staff', 'staff.caresupport');
  const charge = await reviewCard(page, api, member.MemberID);
  const stamp = Date.now();
  /** A charge the gateway holds for review: our id and the gateway's. */
  const hold = async (what: string, amount: number) => {
    const description = `E2E merchant ${what} ${stamp}`;
    const r = await charge(amount, description, `e2e-merchant-${what}-${stamp}`);
    expect(r.StatusString).toBe('Error');
    const found = await api.post<{ Items: { TransactionID: number; ProviderTransactionID: number | null }[] }>('/api/support/transactions', {
      Query: { Status: 'Pending', SearchString: description },
    });
    const gateway = found.Items.find((t) => t.TransactionID === r.TransactionID)?.ProviderTransactionID;
    expect(gateway).toBeGreaterThan(0);
    return { id: r.TransactionID, gateway: gateway as number, description };
  };
  const approved = await hold('approve', 310.25);
  const declined = await hold('decline', 45.5);

  // The merchant's own screen at the gateway, signed in with the gateway's credentials: one approved, one declined.
  const merchant = await browser.newContext({ httpCredentials: { username: 'sandbox-merchant', password: 'sandbox-transaction-key' } });
  const screen = await merchant.newPage();
  await screen.goto(`${SANDBOX_URL}/gateway/merchant`);
  await expect(screen.getByRole('heading', { name: 'Held transactions' })).toBeVisible();
  await expect(
    screen.getByRole('row').filter({ has: screen.getByRole('button', { name: `Approve transaction ${approved.gateway}`, exact: true }) }),
  ).toContainText('$310.25');
  await expectAccessible(screen);
  await screen.getByRole('button', { name: `Approve transaction ${approved.gateway}`, exact: true }).click();
  await expect(screen.getByRole('status')).toHaveText(`Transaction ${approved.gateway} approved.`);
  await screen.getByRole('button', { name: `Decline transaction ${declined.gateway}`, exact: true }).click();
  await expect(screen.getByRole('status')).toHaveText(`Transaction ${declined.gateway} declined.`);
  // The merchant's staff then give the approved one back there too (unsettled: a void).
  await screen.getByRole('button', { name: `Void transaction ${approved.gateway}`, exact: true }).click();
  await expect(screen.getByRole('status')).toHaveText(`Transaction ${approved.gateway} voided.`);
  await expect(screen.getByRole('button', { name: `Void transaction ${approved.gateway}`, exact: true })).toHaveCount(0);
  await merchant.close();

  // The gateway's webhooks told the API of both decisions: they have left support's pending list with no one's action.
  await page.goto(site('staff', '/support-pendingtransactions?status=Pending'));
  const grid = page.getByRole('grid', { name: 'Pending transactions' });
  const rowOf = (id: number) => grid.getByRole('row').filter({ has: page.getByRole('button', { name: `Charge ${id}`, exact: true }) });
  await expect(async () => {
    await page.reload();
    await expect(grid).toHaveAttribute('aria-busy', 'false');
    await expect(rowOf(approved.id)).toHaveCount(0);
    await expect(rowOf(declined.id)).toHaveCount(0);
  }).toPass({ timeout: 15_000 });
  const status = page.getByLabel('Status', { exact: true });
  await status.selectOption('Declined');
  await expect(rowOf(declined.id)).toContainText('$45.50');
  await expect(rowOf(declined.id)).toContainText('Declined');
  // The void's webhook recorded it too: the approved charge is given back (Voided) with no one's action here.
  await expect
    .poll(async () => {
      const found = await api.post<{ Items: { TransactionID: number; Status: string }[] }>('/api/support/transactions', {
        Query: { Status: 'All', SearchString: approved.description },
      });
      return found.Items.find((t) => t.TransactionID === approved.id)?.Status;
    })
    .toBe('Voided');

  // The member's transactions tab: Check with the gateway finds nothing left that differs (a missed webhook it would).
  await page.goto(site('staff', `/users/${member.UserId}/details-transactions`));
  await page.getByRole('button', { name: 'Check with the gateway' }).click();
  await expect(page.getByText('The transactions already match the gateway.')).toBeVisible();
  await expectAccessible(page);
  // Its export holds this member's charges only, in the order the grid shows them (sorted here by amount, ascending).
  await page.getByRole('button', { name: /^Amount/ }).click();
  await expect(page).toHaveURL(/support-member\.sort=Amount/);
  const asked = page.waitForRequest((r) => r.url().includes('/api/support/generateTransactionExcelReport/excel'));
  await page.getByRole('button', { name: 'Export to Excel' }).click();
  expect((await asked).postDataJSON()).toMatchObject({ MemberID: member.MemberID, SortColumn: 'Amount', SortOrder: 'ASC' });
});

test("Support: a transactions list that fails to load says the server's words in the list, once (no toast), with a Try again that loads it", async ({
  page,
}) => {
  const words = 'The payment gateway is down for maintenance.';
  await page.route('**/api/support/transactions', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ Data: null, Unwrap: true, MsgText: words, HasError: true }) }),
  );
  const toasts = await recordToasts(page);
  await signIn(page, 'staff', 'staff.caresupport', undefined, '/support-transactions');
  const grid = page.getByRole('grid', { name: 'Support transactions' });
  const failed = grid.getByRole('alert');
  await expect(failed).toContainText(words);
  await expect(failed.getByRole('button', { name: 'Try again' })).toBeVisible();
  // No toast said it too (a failure's toast comes no later than the task after it: well within this wait).
  await page.waitForTimeout(500);
  expect(await toasts()).toEqual([]);
  await page.unroute('**/api/support/transactions');
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(grid.locator('tbody tr[aria-rowindex], tbody td[role="status"]').first()).toBeVisible();
  await expect(grid.getByRole('alert')).toHaveCount(0);
  await expect(grid).toHaveAttribute('aria-busy', 'false');
});
