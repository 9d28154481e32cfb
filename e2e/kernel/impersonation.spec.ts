import type { Page } from '@playwright/test';
import { signIn, site } from '../support';
import { expect, test } from '../test';

/** A member with bills, found through the claims search of the signed-in staff page. */
const someMemberId = (page: Page) =>
  page.evaluate(async () => {
    const r = await fetch('/api/claims/search', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sessionStorage.getItem('cq.accessToken')}`,
        'x-form-token': sessionStorage.getItem('cq.formToken') ?? '',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ PageIndex: 0, PageSize: 5 }),
    });
    return (await r.json()).Data.Items[0].MemberID as number;
  });

/** A SuperUser signed in on the staff site, acting for a member with bills; that member's id. */
async function actForSomeMember(page: Page): Promise<number> {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/login');
  await page.goto(site('staff', '/help'));
  const memberId = await someMemberId(page);
  await page.getByLabel('Member ID to act for').fill(String(memberId));
  await page.getByRole('button', { name: 'Act for member' }).click();
  await expect(page.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();
  return memberId;
}

test('a SuperUser acts for a member; every tab follows, and stopping in one tab stops it in the others', async ({ page, context }) => {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/login');
  await page.goto(site('staff', '/help'));
  const memberId = await someMemberId(page);

  // A number that is no member account is refused by the server, and nothing is stored.
  await page.getByLabel('Member ID to act for').fill('999999');
  await page.getByRole('button', { name: 'Act for member' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'not a member account' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('cq.impersonate'))).toBeNull();

  await page.getByLabel('Member ID to act for').fill(String(memberId));
  await page.getByRole('button', { name: 'Act for member' }).click();
  await expect(page.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();

  // A second tab of the same browser starts out acting for the member too.
  // The second tab holds no session: it settles on the sign-in page before the first tab's session is copied in.
  const second = await context.newPage();
  await second.goto(site('staff', '/help'));
  await expect(second.getByRole('button', { name: 'Sign in' })).toBeVisible();
  // The first tab may still be refreshing its tokens (a refused call refreshes, spec 01 section 4): copy them once they
  // are quiet, all in one read, so the second tab never gets an access token and a refresh token of two sessions.
  const KEYS = ['cq.accessToken', 'cq.formToken', 'cq.refreshToken', 'cq.expiry', 'cq.lifetime'];
  const read = () => page.evaluate((keys) => keys.map((k) => [k, sessionStorage.getItem(k) ?? ''] as const), KEYS);
  let tokens = await read();
  await expect
    .poll(async () => {
      const before = JSON.stringify(tokens);
      await page.waitForTimeout(500);
      tokens = await read();
      return JSON.stringify(tokens) === before;
    })
    .toBe(true);
  await second.evaluate((items) => {
    for (const [k, v] of items) sessionStorage.setItem(k, v);
  }, tokens);
  await second.goto(site('staff', '/help'));
  await expect(second.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();

  // Stopping in the second tab tells the first.
  await second.getByRole('button', { name: 'Stop acting for this member' }).click();
  await expect(second.getByText(/Acting on behalf of member/)).toHaveCount(0);
  await expect(page.getByText(/Acting on behalf of member/)).toHaveCount(0);
  await expect(page.getByLabel('Member ID to act for')).toBeVisible();
});

test('a page load while acting for a member asks for that member’s data from its first call on', async ({ page }) => {
  const memberId = await actForSomeMember(page);

  const calls: { path: string; member: string | undefined }[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/')) calls.push({ path, member: r.headers()['x-member-id'] });
  });
  await page.goto(site('staff', '/dashboard'));
  await expect(page.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();
  await expect(page.getByTestId('ledger-no-member')).toHaveCount(0);
  // The widgets' data is asked for as the page starts, before the first render: each call names the member.
  await expect.poll(() => calls.some((c) => c.path.startsWith('/api/dashboard/'))).toBe(true);
  for (const c of calls) expect(c, 'a call of the page load').toEqual({ path: c.path, member: String(memberId) });
});

test('a member sees no way to act for another member', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/login');
  await page.goto(site('finance', '/help'));
  await expect(page.getByLabel('Member ID to act for')).toHaveCount(0);
});

test("a SuperUser acting for nobody is asked to choose a member on a page of one member's data, and sees the page once acting", async ({ page }) => {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/login');
  await page.goto(site('staff', '/help'));
  const memberId = await someMemberId(page);
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
  });
  for (const path of ['/contacts', '/transactions', '/notes']) {
    await page.goto(site('staff', path));
    await expect(page.getByTestId('choose-member')).toHaveText(
      "This page shows one member's data. Choose the member to act for: enter their member ID in the toolbar.",
    );
  }
  expect(refused).toEqual([]);

  await page.getByLabel('Member ID to act for').fill(String(memberId));
  await page.getByRole('button', { name: 'Act for member' }).click();
  await expect(page.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();
  await expect(page.getByTestId('choose-member')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New message' })).toBeVisible();
  expect(refused).toEqual([]);
  await page.getByRole('button', { name: 'Stop acting for this member' }).click();
  await expect(page.getByTestId('choose-member')).toBeVisible();
});

test('signing out ends acting for a member: a member who signs in next on the browser reaches their own pages', async ({ page }) => {
  await actForSomeMember(page);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('cq.impersonate'))).toBeNull();

  // The server refuses every call of a member that names another member; none may carry the header.
  const named: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/') && r.headers()['x-member-id']) named.push(r.url());
  });
  await signIn(page, 'staff', 'staff.careguard', undefined, '/login');
  await page.goto(site('staff', '/transactions'));
  await expect(page.getByTestId('display-name')).toHaveAttribute('data-user-name', 'staff.careguard');
  await expect(page.getByText(/Acting on behalf of member/)).toHaveCount(0);
  await expect(page).toHaveURL(/\/transactions$/);
  expect(named).toEqual([]);
});
