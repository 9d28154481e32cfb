import type { Page } from '@playwright/test';
import { expectAccessible } from '../axe';
import { signIn, site } from '../support';
import { expect, test } from '../test';
import { recordToasts } from '../toasts';

const grid = (page: Page) => page.getByRole('grid', { name: 'Bills' }).or(page.getByRole('table', { name: 'Bills' }));
const claimIds = async (page: Page) =>
  (
    await grid(page)
      .getByRole('link', { name: /^Open bill/ })
      .allTextContents()
  ).map(Number);

test('a finance member lists, filters, sorts, pages, opens and edits a bill', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/login');
  await page.goto(site('finance', '/claims'));
  await expect(page.getByRole('heading', { name: 'Bills' })).toBeVisible();
  await expect(
    grid(page)
      .getByRole('link', { name: /^Open bill/ })
      .first(),
  ).toBeVisible();
  await expectAccessible(page);

  // Default sort: ClaimID descending.
  const ids = await claimIds(page);
  expect(ids.length).toBeGreaterThan(1);
  expect([...ids].sort((a, b) => b - a)).toEqual(ids);

  // Sort by Claim ID ascending: one click on the default sort's column turns it (newest first) around.
  const claimIdHeader = grid(page).locator('th', { has: page.getByRole('button', { name: /^Claim ID/ }) });
  await expect(claimIdHeader).toHaveAttribute('aria-sort', 'descending');
  await grid(page)
    .getByRole('button', { name: /^Claim ID/ })
    .click();
  await expect(claimIdHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect
    .poll(async () => {
      const asc = await claimIds(page);
      return asc.length > 1 && asc[0] !== undefined && asc[1] !== undefined && asc[0] < asc[1];
    })
    .toBe(true);

  // Page size 5, then the next page.
  await page.getByLabel('Rows per page').selectOption('5');
  await expect.poll(async () => (await claimIds(page)).length).toBe(5);
  const first = await claimIds(page);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect.poll(async () => (await claimIds(page))[0]).not.toBe(first[0]);

  // Filter: paid bills only; every row shows Paid.
  await page
    .getByRole('region', { name: 'Filter bills' })
    .getByRole('button', { name: /Payment$/ })
    .click();
  await page.getByRole('option', { name: 'Paid', exact: true }).click();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect
    .poll(async () => {
      const statuses = await grid(page).locator('tbody tr[aria-rowindex] td:nth-child(4)').allTextContents();
      return statuses.length > 0 && statuses.every((s) => s === 'Paid');
    })
    .toBe(true);

  // Members edit their own bills while still open: filter to Received ones.
  await page
    .getByRole('region', { name: 'Filter bills' })
    .getByRole('button', { name: /Payment$/ })
    .click();
  await page.getByRole('option', { name: 'Any', exact: true }).click();
  await page
    .getByRole('region', { name: 'Filter bills' })
    .getByRole('button', { name: /Status$/ })
    .click();
  await page.getByRole('option', { name: 'Received', exact: true }).click();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect
    .poll(async () => {
      const statuses = await grid(page).locator('tbody tr[aria-rowindex] td:nth-child(4)').allTextContents();
      return statuses.length > 0 && statuses.every((s) => s === 'Received');
    })
    .toBe(true);

  // Open and edit a bill; cancel restores, save keeps.
  const target = (await claimIds(page))[0];
  await grid(page)
    .getByRole('link', { name: `Open bill ${target}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/claims/${target}$`));
  await expect(page.getByTestId('claim-view')).toBeVisible();
  await expectAccessible(page);
  // The form replaces Edit and takes focus on its first field; Cancel and Save bring focus back to Edit.
  await page.getByRole('button', { name: 'Edit' }).click();
  const number = page.getByLabel('Claim number');
  await expect(number).toBeFocused();
  const before = await number.inputValue();
  await number.fill('E2E-CANCELLED');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('claim-view')).toContainText(before);
  await expect(page.getByRole('button', { name: 'Edit' })).toBeFocused();
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('Claim number')).toBeFocused();
  await page.getByLabel('Claim number').fill(`E2E-${target}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('claim-view')).toContainText(`E2E-${target}`);
  await expect(page.getByRole('button', { name: 'Edit' })).toBeFocused();
});

test("the bills list's filters stay in the address: Back from a bill, a reload and Reset", async ({ page }) => {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/login');
  await page.goto(site('staff', '/claims'));
  const pager = page.getByText(/^\d+–\d+ of \d+$/).first();
  const field = page.getByRole('region', { name: 'Filter bills' }).getByLabel('Claim number');
  await expect(
    grid(page)
      .getByRole('link', { name: /^Open bill/ })
      .first(),
  ).toBeVisible();
  const total = async () => Number(((await pager.textContent()) ?? '').split(' of ')[1]);
  const unfiltered = await total();
  // A prefix of a seeded bill's claim number (other journeys add and rename bills E2E-…): some bills, not all.
  const cells = await grid(page).locator('tbody tr[aria-rowindex] td').allTextContents();
  const listed = cells.map((n) => n.trim()).find((n) => /^[A-Z]+\d{5,}$/.test(n)) ?? '';
  const prefix = listed.slice(0, 5);
  expect(prefix).toHaveLength(5);
  await field.fill(prefix);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]number=${prefix}(&|$)`));
  await expect.poll(total).toBeLessThan(unfiltered);
  const filtered = (await pager.textContent()) ?? '';
  const shown = await claimIds(page);

  // Open a bill, then Back: the same filter, the same count, the same rows.
  await grid(page)
    .getByRole('link', { name: `Open bill ${shown[0]}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/claims/${shown[0]}$`));
  await expect(page.getByTestId('claim-view')).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/claims\\?.*number=${prefix}`));
  await expect(field).toHaveValue(prefix);
  await expect(pager).toHaveText(filtered);
  await expect.poll(() => claimIds(page)).toEqual(shown);

  // A reload shows the same list.
  await page.reload();
  await expect(field).toHaveValue(prefix);
  await expect(pager).toHaveText(filtered);

  // Reset: the plain address and the whole list again.
  await page.getByRole('region', { name: 'Filter bills' }).getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/\/claims$/);
  await expect(field).toHaveValue('');
  // Other journeys may have added bills meanwhile.
  await expect.poll(total).toBeGreaterThanOrEqual(unfiltered);
});

test('the claim-id lookup refuses fewer than 2 characters', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/login');
  await page.goto(site('finance', '/claims'));
  await page.getByLabel('Find a bill by claim ID').fill('7');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await expect(page.getByText('Please enter a valid claim ID')).toBeVisible();
});

test('a SuperUser creates a bill for a member, and the same bill entered again is flagged as a possible duplicate', async ({ page }) => {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/login');
  // Pick a member id from an existing bill.
  await page.goto(site('staff', '/claims'));
  await grid(page)
    .getByRole('link', { name: /^Open bill/ })
    .first()
    .click();
  const memberText = await page.getByTestId('claim-view').textContent();
  expect(memberText).toBeTruthy();
  const memberId = await page.evaluate(async (url) => {
    const token = sessionStorage.getItem('cq.accessToken');
    const id = location.pathname.split('/').pop();
    const r = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-form-token': sessionStorage.getItem('cq.formToken') ?? '', 'content-type': 'application/json' },
      body: JSON.stringify({ ClaimID: Number(id) }),
    });
    return (await r.json()).Data.Claim.MemberID as number;
  }, '/api/claims/details');

  await page.goto(site('staff', '/claims-new'));
  await expect(page.getByRole('main').getByLabel('Member ID')).toBeVisible();
  await expect(page.getByRole('button', { name: /Bill type/ })).toBeVisible();
  await expectAccessible(page);
  // Saved empty: the member is required as the other required fields are, said at the field, and nothing is sent.
  let created = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/claims/create')) created++;
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('main').getByLabel('Member ID')).toHaveAccessibleDescription(/This field is required\./);
  expect(created).toBe(0);
  const first = await newBill(page, memberId, 'E2E-NEW-1');
  await expect(page.getByTestId('claim-view')).toContainText('E2E-NEW-1');
  await expect(page.getByTestId('claim-view')).toContainText('125.40');

  // The same bill entered again: its page warns of the first one, which its history lists (10 years, newest first).
  await page.goto(site('staff', '/claims-new'));
  const second = await newBill(page, memberId, 'E2E-NEW-2');
  const warning = page.getByTestId('possible-duplicates');
  await expect(warning).toContainText('Possible duplicate');
  await expect(warning.getByRole('link', { name: new RegExp(`^Bill ${first},`) })).toBeVisible();
  const history = page.getByRole('grid', { name: 'Bill history' }).or(page.getByRole('table', { name: 'Bill history' }));
  await expect(history.getByRole('link', { name: `Open bill ${first}`, exact: true })).toBeVisible();
  await expect(history.getByRole('link', { name: `Open bill ${second}`, exact: true })).toBeVisible();
  // Only this payee's bills: both are still there, and every row is from it.
  await page.getByRole('radiogroup', { name: 'Show' }).getByText('Only from E2E Test Clinic').click();
  await expect(page.getByRole('radio', { name: 'Only from E2E Test Clinic' })).toBeChecked();
  await expect
    .poll(async () => {
      const payees = await history.locator('tbody tr[aria-rowindex] td:nth-child(3)').allTextContents();
      return payees.length >= 2 && payees.every((p) => p === 'E2E Test Clinic');
    })
    .toBe(true);
  await expectAccessible(page);
  // The first bill's page names the second.
  await warning.getByRole('link', { name: new RegExp(`^Bill ${first},`) }).click();
  await expect(page).toHaveURL(new RegExp(`/claims/${first}$`));
  await expect(page.getByTestId('possible-duplicates').getByRole('link', { name: new RegExp(`^Bill ${second},`) })).toBeVisible();
});

test("a finance member adds a bill to their own account: the bill details' create mode opens in edit", async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/login');
  await page.goto(site('finance', '/claims'));
  await page.getByRole('link', { name: 'Add a bill' }).click();
  await expect(page).toHaveURL(/\/claims\/new$/);
  await expect(page.getByRole('heading', { level: 2, name: 'New Bill' })).toBeVisible();
  // The member's own account: no member to name.
  await expect(page.getByRole('main').getByLabel('Member ID')).toHaveCount(0);
  await expectAccessible(page);
  await newBill(page, null, 'E2E-OWN-1');
  await expect(page.getByTestId('claim-view')).toContainText('Received');
  await expect(page.getByTestId('claim-view')).toContainText('E2E Test Clinic');
});

test('two people edit one bill: the later save is refused with Reload, and a refetch meanwhile keeps what was typed', async ({ browser }) => {
  const a = await browser.newContext();
  const b = await browser.newContext();
  const pageA = await a.newPage();
  const pageB = await b.newPage();
  await signIn(pageA, 'finance', 'finance.careguardfinance', undefined, '/login');
  await pageA.goto(site('finance', '/claims/new'));
  const billId = await newBill(pageA, null, `E2E-TWO-${Date.now() % 100000}`);
  const toastsB = await recordToasts(pageB);
  await signIn(pageB, 'finance', 'finance.careguardfinance', undefined, '/login');
  await pageB.goto(site('finance', `/claims/${billId}`));
  await pageA.getByRole('button', { name: 'Edit' }).click();
  await pageB.getByRole('button', { name: 'Edit' }).click();

  await pageA.getByLabel('Claim number').fill('E2E-SAVED-BY-A');
  await pageA.getByRole('button', { name: 'Save' }).click();
  await expect(pageA.getByTestId('claim-view')).toContainText('E2E-SAVED-BY-A');

  await pageB.getByLabel('Claim number').fill('E2E-TYPED-BY-B');
  await pageB.getByRole('button', { name: 'Save' }).click();
  const notice = pageB.getByRole('button', { name: 'Reload' });
  await expect(notice).toBeVisible();
  // Said once, by the form's notice: no toast beside it.
  expect(await toastsB()).toEqual([]);
  // The network drops and comes back: the bill is fetched again (A's save, a new Version), and B's typing stays.
  const refetched = pageB.waitForResponse((r) => r.url().includes('/api/claims/details'));
  await b.setOffline(true);
  await b.setOffline(false);
  await refetched;
  await expect(pageB.getByLabel('Claim number')).toHaveValue('E2E-TYPED-BY-B');
  await expect(notice).toBeVisible();
  await expectAccessible(pageB);
  // Reload takes A's bill into the form; a save from there goes through.
  await notice.click();
  await expect(pageB.getByLabel('Claim number')).toHaveValue('E2E-SAVED-BY-A');
  await pageB.getByLabel('Claim number').fill('E2E-SAVED-BY-B');
  await pageB.getByRole('button', { name: 'Save' }).click();
  await expect(pageB.getByTestId('claim-view')).toContainText('E2E-SAVED-BY-B');
  await a.close();
  await b.close();
});

/** Fills a new bill's form with a $125.40 medical bill from E2E Test Clinic for service on 11/01/2026 and saves it; its id. */
async function newBill(page: Page, memberId: number | null, claimNumber: string): Promise<number> {
  if (memberId !== null) await page.getByRole('main').getByLabel('Member ID').fill(String(memberId));
  await page.getByLabel('Claim number').fill(claimNumber);
  await page.getByLabel('Or a new payee name').fill('E2E Test Clinic');
  await page.getByRole('button', { name: /Bill type/ }).click();
  await page.getByRole('option', { name: 'Medical' }).click();
  await page.getByLabel('Billed').fill('125.40');
  await page.getByRole('group', { name: 'Service from' }).getByRole('spinbutton').first().click();
  await page.keyboard.type('11012026');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/claims\/\d+$/);
  await expect(page.getByTestId('claim-view')).toContainText(claimNumber);
  return Number(new URL(page.url()).pathname.split('/').pop());
}

test('a CareGuard member sees pending claims on the card site', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard', undefined, '/login');
  await page.goto(site('card', '/pendingclaims'));
  await expect(page.getByRole('heading', { name: 'Pending Claims' })).toBeVisible();
  const pending = page.getByRole('grid', { name: 'Pending claims' }).or(page.getByRole('table', { name: 'Pending claims' }));
  await expect(pending).toBeVisible();
  await expect(pending).not.toHaveAttribute('aria-busy', 'true');
  await expectAccessible(page);
});

test('a member is refused /claims-new', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/login');
  await page.goto(site('finance', '/claims-new'));
  await expect(page).toHaveURL(/\/invalid\?data=/);
});
