import type { Response } from '@playwright/test';
import { axeAndReflow, expectAccessible } from '../axe';
import { E2E_PORT } from '../playwright.config';
import { BUSINESS_TIME_ZONE, memberForAttempt, pageApi, signIn, site } from '../support';
import { expect, test } from '../test';

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

// Members here live in the business's time zone, so "today" in the browser is the business's today the current
// balance counts rows up to. (A browser on UTC is a day ahead every US evening: a row it dates "today" counts from
// tomorrow, and an edit of it leaves today's balance as it was.)
test.use({ timezoneId: BUSINESS_TIME_ZONE });

/** The day `offsetDays` from today in the members' zone, as YYYY-MM-DD. */
const localDay = (offsetDays = 0) => {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(new Date())
    .split('-')
    .map(Number);
  return new Date(Date.UTC(y as number, (m as number) - 1, (d as number) + offsetDays)).toISOString().slice(0, 10);
};

test('Ledger: a CareGuard member with a set-aside adds, edits and cancels, deletes, sets the initial balance, checks all records, reports to the federal payer and downloads the report', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The seed's two members whose initial balance is still open (ledger seed's OPEN_BALANCE_USER and
  // SECOND_OPEN_BALANCE_USER): a run again after a failure finds the second as the first was.
  await signIn(page, 'card', memberForAttempt(['card.careguard', 'quote.careguard']));
  // No initial balance yet: the trends page's balance chart says so, with no empty axes and no empty table.
  await page.goto(site('card', '/trend'));
  const balanceChart = page.getByTestId('chart-balance');
  await expect(balanceChart.getByTestId('chart-nothing')).toHaveText('Nothing to chart yet.');
  await expect(balanceChart).toContainText('No balance yet.');
  await expect(balanceChart.getByRole('button', { name: 'Show as table' })).toHaveCount(0);
  await expect(balanceChart.locator('.apexcharts-canvas')).toHaveCount(0);
  await page.getByRole('navigation').getByRole('link', { name: 'Transactions', exact: true }).click();
  await expect(page).toHaveURL(/\/transactions$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
  await expect(page.getByTestId('ledger-row').first()).toBeVisible();
  await expect(page.getByLabel('Page size')).toHaveValue('20');
  await expect(page.getByLabel('Page size').locator('option', { hasText: '20 Bills' })).toHaveCount(1);

  // Newest first, so the new rows are on the first page.
  await page.getByTestId('ledger-table').getByRole('button', { name: /^Date/ }).click();
  await expect(page.getByRole('columnheader', { name: /Date/ }).first()).toHaveAttribute('aria-sort', 'descending');

  // A future date is refused with the message and resets to today.
  await page.getByRole('button', { name: 'Add transaction' }).click();
  const edit = page.getByTestId('ledger-edit-row');
  // Add is disabled while the new row is open: focus goes to the row's first input, not to the page's body.
  await expect(edit.getByLabel('Date')).toBeFocused();
  await edit.getByLabel('Date').fill(localDay(2));
  await expect(page.getByText('Future data transaction entry is not allowed. Please enter a valid date.')).toBeVisible();
  await expect(edit.getByLabel('Date')).toHaveValue(localDay());

  // Add an expense.
  await edit.getByLabel('Code').fill('97110');
  await edit.getByLabel('Company').fill('Harbor Physical Therapy');
  await edit.getByLabel('Description').fill('Therapy session e2e');
  await edit.getByLabel('Amount').fill('123.45');
  await edit.getByRole('button', { name: 'Save' }).click();
  const added = page.getByTestId('ledger-row').filter({ hasText: 'Therapy session e2e' });
  await expect(added).toBeVisible();
  await expect(added).toContainText('-$123.45');
  // Saved: focus goes to the row the new one became (its Edit).
  await expect(added.getByRole('button', { name: /^Edit the transaction/ })).toBeFocused();

  // Edit inline, then cancel: the row shows what it had; focus goes to the edit's first input, then back to Edit.
  await added.getByRole('button', { name: /^Edit the transaction/ }).click();
  await expect(edit.getByLabel('Date')).toBeFocused();
  await edit.getByLabel('Company').fill('Changed Company');
  await edit.getByLabel('Amount').fill('999');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(added.getByRole('button', { name: /^Edit the transaction/ })).toBeFocused();
  await expect(added).toContainText('Harbor Physical Therapy');
  await expect(added).toContainText('-$123.45');

  // Add another and delete it.
  await page.getByRole('button', { name: 'Add transaction' }).click();
  await edit.getByLabel('Code').fill('99213');
  await edit.getByLabel('Company').fill('Delete Me Clinic');
  await edit.getByLabel('Amount').fill('10');
  // Saved without a description: refused, said in place on the input, which takes focus.
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByLabel('Description')).toBeFocused();
  await expect(edit.getByLabel('Description')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('ledger-invalid-row')).toHaveText('Please enter description of service');
  await edit.getByLabel('Description').fill('Entered by mistake');
  await expect(edit.getByLabel('Description')).not.toHaveAttribute('aria-invalid');
  await edit.getByRole('button', { name: 'Save' }).click();
  const mistake = page.getByTestId('ledger-row').filter({ hasText: 'Entered by mistake' });
  await expect(mistake).toBeVisible();
  await mistake.getByRole('button', { name: /^Delete the transaction/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(mistake).toHaveCount(0);
  // The row's Delete went with it: focus goes on to a Delete of the rows left (or Add), not to the page's start.
  await expect(page.locator(':focus')).toHaveAccessibleName(/^Delete the transaction|^Add transaction$/);

  // The initial balance, once.
  const initial = page.getByLabel('Initial balance');
  await expect(initial).toBeEnabled();
  // Not a number: refused, and said at the field as well as in the toast, until the text is changed.
  await initial.fill('abc');
  await page.getByRole('button', { name: 'Save initial balance' }).click();
  await expect(initial).toHaveAccessibleDescription('Balance has to be number');
  await expect(initial).toHaveAttribute('aria-invalid', 'true');
  await initial.fill('50000');
  await expect(initial).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Save initial balance' }).click();
  await expect(initial).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save initial balance' })).toBeDisabled();
  await expect(page.getByTestId('ledger-balance')).toContainText('Current balance: $');

  // Check all records: nothing is missing, so the report is generated directly.
  const checked = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Check all records' }).click();
  await expect(page.getByText('All records checked.').first()).toBeVisible();
  expect((await checked).suggestedFilename()).toMatch(/^ledger-report-.*\.pdf$/);
  // Report mode (spec 02 section 2): an edit does not read the list again, but the current balance follows the save.
  const balanceBefore = (await page.getByTestId('ledger-balance').textContent()) ?? '';
  expect(balanceBefore).toContain('Current balance: $');
  await added.getByRole('button', { name: /^Edit the transaction/ }).click();
  await edit.getByLabel('Amount').fill('124.45');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(added).toContainText('-$124.45');
  await expect(page.getByTestId('ledger-balance')).not.toHaveText(balanceBefore);
  await expect(page.getByTestId('ledger-balance')).toContainText('Current balance: $');

  // The federal-payer dialogs: info, then confirm.
  await page.getByRole('button', { name: 'Send to federal payer' }).click();
  const info = page.getByRole('dialog', { name: 'Report to the federal payer' });
  await expect(info.getByLabel('HICN (Medicare number)')).not.toHaveValue('');
  await info.getByRole('button', { name: 'Continue' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Send the report?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('ledger-table')).toBeVisible();
  await expect(page.getByText('Successfully sent. Thank you.').first()).toBeVisible();
  await expect(page.locator('#ledger-sent')).toHaveText('Successfully sent. Thank you.');
  await expect(added).toContainText('Reported');

  // Download the report.
  const file = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download report (PDF)' }).click();
  expect((await file).suggestedFilename()).toMatch(/^ledger-report-.*\.pdf$/);

  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(seriousOrWorse(results.violations)).toEqual([]);
});

test('Ledger: an assist member sees reported transactions, and /tranasactions (spelled so) opens the ledger for CareGuard', async ({ page, browser }) => {
  await signIn(page, 'assist', 'assist.careassist', undefined, '/transactions/reported');
  await expect(page.getByRole('heading', { level: 1, name: 'Reported transactions' })).toBeVisible();
  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(seriousOrWorse(results.violations)).toEqual([]);

  // A page of its own context: axe runs only in pages made by browser.newContext().
  const context = await browser.newContext();
  const card = await context.newPage();
  await signIn(card, 'staff', 'staff.careguard');
  await card.goto(site('staff', '/tranasactions'));
  await expect(card.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
  await expect(card.getByTestId('ledger-row').first()).toBeVisible();
  await expectAccessible(card);
  await context.close();
});

test('Ledger: a CareGuard member sees the account activity of the last 90 days, newest first', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  await page.getByRole('navigation').getByRole('link', { name: 'Activity', exact: true }).click();
  await expect(page).toHaveURL(/\/transactions\/activity$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Account activity' })).toBeVisible();
  // One menu item is marked: Activity, not also the ledger at /transactions above it.
  const current = page.getByRole('navigation').locator('[aria-current="page"]');
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText('Activity');
  const grid = page.getByRole('grid', { name: 'Account activity' });
  await expect(grid).toHaveAttribute('aria-busy', 'false');
  // The custodial bank's interest is posted on the first of every month, so the last 90 days hold some.
  await expect(grid.getByRole('row').filter({ hasText: 'First Federal Custodial Bank - Monthly interest' }).first()).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: /Entered/ })).toHaveAttribute('aria-sort', 'descending');
  await expectAccessible(page);
  // A From date typed key by key: the list follows the day typed once it is whole, never a half-typed year (the field
  // gives 0002-, 0020-, 0202-01-01 on the way to 2025-01-01), and the field keeps what is typed.
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/')) asked.push(`${r.url()} ${r.postData() ?? ''}`);
  });
  const from = page.getByLabel('From', { exact: true });
  // Its first part (the month, in an English browser), then month, day and year as a person types them.
  await from.click({ position: { x: 12, y: 12 } });
  await from.pressSequentially('01012025');
  await expect(from).toHaveValue('2025-01-01');
  await expect(page).toHaveURL(/ledger-activity\.from=2025-01-01/);
  await expect(grid).toHaveAttribute('aria-busy', 'false');
  expect(asked.filter((a) => /\b0(00|02|20)\d-/.test(a))).toEqual([]);
});

test('Ledger: a CareAssist member sees their card transactions on /careassist/transactions', async ({ page }) => {
  await signIn(page, 'assist', 'assist.careassist', undefined, '/careassist/transactions');
  await expect(page.getByRole('heading', { level: 1, name: 'Card transactions' })).toBeVisible();
  const grid = page.getByRole('grid', { name: 'Card transactions' });
  await expect(grid).toHaveAttribute('aria-busy', 'false');
  // The seed pays about four in ten of a year's expenses by card: settled ones are among them.
  await expect(grid.getByRole('row').filter({ hasText: 'Settled' }).first()).toBeVisible();
  await expect(grid.getByRole('row').filter({ hasText: 'Debit' }).first()).toBeVisible();
  await expectAccessible(page);
});

test('Ledger: a report header changed by someone else meanwhile is refused (409); the member reloads the stored header, sees the new HICN and sends', async ({
  page,
  browser,
}) => {
  // Two sessions of the member, two sends to the sandbox payer.
  test.setTimeout(120_000);
  const isSend = (r: Response) => r.url().endsWith('/api/transactions/report/send') && r.request().method() === 'POST';
  // Each attempt sends periods of a member no attempt has sent: a run again after a failure would find the first
  // attempt's periods sent (and a send of a period sent before does not check the header's version).
  const member = memberForAttempt(['finance.careguard', 'staff.careguard']);
  await signIn(page, 'finance', member, undefined, '/transactions');
  await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
  await expect(page.getByTestId('ledger-row').first()).toBeVisible();

  // The page's copy of the report header, as the send dialog shows it.
  await page.getByRole('button', { name: 'Send to federal payer' }).click();
  const info = page.getByRole('dialog', { name: 'Report to the federal payer' });
  const hicn = info.getByLabel('HICN (Medicare number)');
  await expect(hicn).not.toHaveValue('');
  const pageHicn = await hicn.inputValue();
  const injury = await info.getByLabel('Date of injury').inputValue();
  const settlement = await info.getByLabel('Date of settlement').inputValue();

  // Meanwhile the member's other session corrects the HICN with a send of another period. The server checks the
  // header's version only when a send claims a period not sent before, so it is not the page's year (a year back to
  // today); it is one before the seed's rows (13 months back), so the page's send later reports its rows only.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signIn(other, 'finance', member, undefined, '/help');
  const stored = await pageApi(other, '/api/financials/loadMember');
  expect(stored.status).toBe(200);
  expect(stored.body.Data).toMatchObject({ HICN: pageHicn, DateOfInjury: injury, DateOfSettlement: settlement });
  const version = Number(stored.body.Data?.HeaderVersion);
  const theirHicn = pageHicn === '987654321B' ? '987654321C' : '987654321B';
  const theirs = await pageApi(other, '/api/transactions/report/send', {
    Query: { From: localDay(-800), To: localDay(-770), HICN: theirHicn, DateOfInjury: injury, DateOfSettlement: settlement },
    HeaderVersion: version,
  });
  expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
  expect(theirs.body.Data).toMatchObject({ AlreadySent: false });
  const changed = await pageApi(other, '/api/financials/loadMember');
  expect(changed.body.Data).toMatchObject({ HICN: theirHicn, HeaderVersion: version + 1 });
  await otherContext.close();

  // The page sends its copy, loaded at the old version: refused, and nothing said sent.
  await info.getByRole('button', { name: 'Continue' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Send the report?' });
  const refusedSend = page.waitForResponse(isSend);
  await confirm.getByRole('button', { name: 'Send', exact: true }).click();
  const refused = await refusedSend;
  expect(refused.status()).toBe(409);
  expect(refused.request().postDataJSON()).toMatchObject({ Query: { HICN: pageHicn }, HeaderVersion: version });
  await expect(confirm).toBeHidden();
  const notice = page.getByTestId('stale-notice');
  await expect(notice).toContainText(
    'Someone else changed the HICN or the dates of this report meanwhile, so it was not sent. Your values are still here; reload to see theirs, check them and send again.',
  );
  // The notice takes focus, so it is read at once; it alone says so (no toast repeats it).
  await expect(notice).toBeFocused();
  await expect(page.getByRole('alert').filter({ hasText: 'Someone else changed the HICN' })).toHaveCount(0);
  await expect(page.locator('#ledger-sent')).toHaveCount(0);
  await expectAccessible(page);

  // Reload: the stored header replaces the page's copy, in the send dialog, to check and send.
  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect(info).toBeVisible();
  await expect(hicn).toHaveValue(theirHicn);
  // Focus is on the first field to check.
  await expect(hicn).toBeFocused();
  await expect(info.getByLabel('Date of injury')).toHaveValue(injury);
  await expect(info.getByLabel('Date of settlement')).toHaveValue(settlement);
  await expect(notice).toHaveCount(0);

  // Sent now: the stored header, at its version.
  await info.getByRole('button', { name: 'Continue' }).click();
  const sentSend = page.waitForResponse(isSend);
  await confirm.getByRole('button', { name: 'Send', exact: true }).click();
  const sent = await sentSend;
  expect(sent.status()).toBe(200);
  expect(sent.request().postDataJSON()).toMatchObject({ Query: { HICN: theirHicn }, HeaderVersion: version + 1 });
  await expect(page.locator('#ledger-sent')).toHaveText('Successfully sent. Thank you.');
  await expect(notice).toHaveCount(0);
});

test("Ledger: a new row whose Save lost its answer, then corrected and saved again, is one row with the member's correction", async ({ page }) => {
  await signIn(page, 'card', 'card.careguard', undefined, '/transactions');
  await expect(page.getByTestId('ledger-row').first()).toBeVisible();
  // Newest first, so today's row is on the first page.
  await page.getByTestId('ledger-table').getByRole('button', { name: /^Date/ }).click();
  await expect(page.getByRole('columnheader', { name: /Date/ }).first()).toHaveAttribute('aria-sort', 'descending');

  await page.getByRole('button', { name: 'Add transaction' }).click();
  const edit = page.getByTestId('ledger-edit-row');
  await edit.getByLabel('Company').fill('Lost Answer Clinic');
  await edit.getByLabel('Description').fill('Lost answer e2e');
  await edit.getByLabel('Amount').fill('12.34');
  // The server adds the row; its answer never reaches the page.
  let sent = 0;
  await page.route('**/api/transactions/create', async (route) => {
    sent++;
    // Node resolves no *.localhost: the server's address, with the site's Host.
    const headers = { ...route.request().headers(), host: `card.localhost:${E2E_PORT}` };
    const answer = await route.fetch({ url: `http://127.0.0.1:${E2E_PORT}/api/transactions/create`, headers });
    expect(answer.status()).toBe(200);
    await route.abort('connectionreset');
  });
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The server could not be reached' })).toBeVisible();
  expect(sent).toBe(1);
  await page.unroute('**/api/transactions/create');
  // The row stays open with what was typed; the member corrects the amount and saves again.
  await expect(edit.getByLabel('Amount')).toHaveValue('12.34');
  await edit.getByLabel('Amount').fill('12.43');
  await edit.getByRole('button', { name: 'Save' }).click();
  // Not "added": the row was added before, with 12.34; the correction stays, as an edit of that row, and is said so.
  const notice = page.getByTestId('ledger-saved-before-row');
  await expect(notice).toHaveText(
    'This transaction was added before its answer reached you, with the values first sent. Your changes are kept here: save them to apply them.',
  );
  await expect(edit).toHaveCount(1);
  await expect(edit.getByLabel('Amount')).toHaveValue('12.43');
  await expect(edit.getByLabel('Date')).toBeFocused();
  await expectAccessible(page, 'main');
  await edit.getByRole('button', { name: 'Save' }).click();
  const rows = page.getByTestId('ledger-row').filter({ hasText: 'Lost answer e2e' });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('-$12.43');
  await expect(notice).toHaveCount(0);
  // One row on the server too, with the corrected amount; then it goes, so no other journey meets it.
  const found = await pageApi<{ Items: { Description: string | null; Amount: number }[] }>(page, '/api/transactions/search', {
    PageSize: 100,
    PageIndex: 0,
    SortColumn: 'DateCreated',
    SortOrder: 'desc',
    Query: { From: localDay(-1), To: localDay() },
  });
  expect(found.status).toBe(200);
  expect(found.body.Data.Items.filter((r) => r.Description === 'Lost answer e2e').map((r) => r.Amount)).toEqual([12.43]);
  await rows.getByRole('button', { name: /^Delete the transaction/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(rows).toHaveCount(0);
});
