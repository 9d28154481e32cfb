import type { Page } from '@playwright/test';
import { holdRequests, pageApi, signIn, site } from '../support';
import { expect, test } from '../test';

type Found = { Items: { MemberID: number }[] };
/** A member with bills, found through the claims search of the signed-in staff page. */
const someMemberId = async (page: Page) => {
  const first = (await pageApi<Found>(page, '/api/claims/search', { PageIndex: 0, PageSize: 5 })).body.Data.Items[0];
  if (!first) throw new Error('no member has bills');
  return first.MemberID;
};

/** Two members with bills (two different ids), found as someMemberId finds one. */
const twoMemberIds = async (page: Page) => {
  const ids = [...new Set((await pageApi<Found>(page, '/api/claims/search', { PageIndex: 0, PageSize: 100 })).body.Data.Items.map((i) => i.MemberID))];
  return [ids[0], ids[1]] as [number, number];
};

/** Acts for `memberId` with the toolbar's picker (acting for nobody). */
async function actFor(page: Page, memberId: number) {
  await page.getByLabel('Member ID or number to act for').fill(String(memberId));
  await page.getByRole('button', { name: 'Act for member' }).click();
  await expect(page.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();
}

/** Opens a page by its navigation link, in the app (the cache stays; a group's links may be folded away). */
async function follow(page: Page, path: string) {
  await page
    .locator(`nav a[href="${path}"]`)
    .first()
    .evaluate((a) => (a as HTMLAnchorElement).click());
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

/** A SuperUser signed in on the staff site, acting for a member with bills; that member's id. */
async function actForSomeMember(page: Page): Promise<number> {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/login');
  await page.goto(site('staff', '/help'));
  const memberId = await someMemberId(page);
  await page.getByLabel('Member ID or number to act for').fill(String(memberId));
  await page.getByRole('button', { name: 'Act for member' }).click();
  await expect(page.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();
  return memberId;
}

test('a SuperUser acts for a member; every tab follows, and stopping in one tab stops it in the others', async ({ page, context }) => {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/login');
  await page.goto(site('staff', '/help'));
  const memberId = await someMemberId(page);

  // A number that is no member account is refused by the server, and nothing is stored.
  await page.getByLabel('Member ID or number to act for').fill('999999');
  await page.getByRole('button', { name: 'Act for member' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'not a member account' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('cq.impersonate'))).toBeNull();

  // The member number the lists show, typed in any case, is taken as well as the member ID; an unknown one is refused.
  await page.getByLabel('Member ID or number to act for').fill('Z0000000');
  await page.getByRole('button', { name: 'Act for member' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'No member account has that member number.' })).toBeVisible();
  const memberNumber = (await pageApi<{ MemberNumber: string }>(page, `/api/members/load/${memberId}`)).body.Data.MemberNumber;
  await page.getByLabel('Member ID or number to act for').fill(memberNumber.toLowerCase());
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
  await expect(page.getByLabel('Member ID or number to act for')).toBeVisible();
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
  await expect(page.getByLabel('Member ID or number to act for')).toHaveCount(0);
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
      "This page shows one member's data. Choose the member to act for: enter their member ID or member number in the toolbar.",
    );
  }
  expect(refused).toEqual([]);

  // From the keyboard: the picker goes away as acting starts, and focus goes on to the banner's Stop; Stop goes
  // away in turn, and focus goes back to the picker's box.
  await page.getByLabel('Member ID or number to act for').fill(String(memberId));
  await page.getByLabel('Member ID or number to act for').press('Enter');
  await expect(page.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();
  await expect(page.getByTestId('choose-member')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New message' })).toBeVisible();
  expect(refused).toEqual([]);
  await expect(page.getByRole('button', { name: 'Stop acting for this member' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('choose-member')).toBeVisible();
  await expect(page.getByLabel('Member ID or number to act for')).toBeFocused();
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

test("acting for another member never shows the previous member's data: the page loads the new member's, or says it failed", async ({ page }) => {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/login');
  await page.goto(site('staff', '/help'));
  const [a, b] = await twoMemberIds(page);
  expect(b, 'two members with bills').toBeDefined();
  const details = page.getByTestId('member-details');

  await actFor(page, a);
  await follow(page, '/member');
  await expect(details).toBeVisible();
  const shownForA = (await details.textContent()) ?? '';

  // Member B's profile held back (a slow answer): the page says it is loading, and shows nothing of member A's.
  await follow(page, '/help');
  await page.getByRole('button', { name: 'Stop acting for this member' }).click();
  await actFor(page, b);
  const release = await holdRequests(page, '**/api/members/load');
  await follow(page, '/member');
  await expect(page.getByText(`Acting on behalf of member ${b}`)).toBeVisible();
  await expect(page.getByRole('main').locator('[aria-busy="true"]')).toBeVisible();
  await expect(details).toHaveCount(0);
  release();
  await expect(details).toBeVisible();
  await expect(details).not.toHaveText(shownForA);
  await page.unroute('**/api/members/load');

  // Back to member A, whose profile now fails to load: the page says so, with nothing of member B's beside it.
  await follow(page, '/help');
  await page.getByRole('button', { name: 'Stop acting for this member' }).click();
  await page.route('**/api/members/load', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ Data: null, Unwrap: true, MsgText: 'Server error', HasError: true }),
    }),
  );
  await actFor(page, a);
  await follow(page, '/member');
  await expect(page.getByRole('main').getByText('could not be loaded', { exact: false })).toBeVisible();
  await expect(details).toHaveCount(0);
});

test('another tab switching the member acted for draws the page anew: a form opened for the previous member is gone', async ({ page, context }) => {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/login');
  await page.goto(site('staff', '/help'));
  const [a, b] = await twoMemberIds(page);
  await actFor(page, a);
  await follow(page, '/contacts');
  await page.getByRole('button', { name: 'Add contact' }).click();
  await page.getByLabel('First name').fill('Typed for the first member');

  // Another tab of the browser acts for member B instead (the choice is the browser's, told to every tab).
  const other = await context.newPage();
  await other.goto(site('staff', '/login'));
  await other.evaluate((id) => localStorage.setItem('cq.impersonate', JSON.stringify({ MemberID: id })), b);

  await expect(page.getByText(`Acting on behalf of member ${b}`)).toBeVisible();
  // The page starts over for member B: their contacts' list, not the new contact begun for member A.
  await expect(page.getByRole('button', { name: 'Add contact' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveCount(0);
});
