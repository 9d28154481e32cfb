import type { Page } from '@playwright/test';
import { axeAndReflow } from '../axe';
import { holdRequests, signIn, site } from '../support';
import { expect, test } from '../test';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const frame = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/** Holds every dashboard widget's data call until the returned function is called. */
const holdDashboardData = (page: Page) => holdRequests(page, '**/api/dashboard/**');

/** Each role's dashboard: its own widgets, none of another role's (spec 01 section 6). */
const CASES: { brand: string; user: string; sees: string[]; not: string[] }[] = [
  {
    brand: 'finance',
    user: 'finance.careguardfinance',
    sees: ['Recent claims', 'Admin balance', 'Next funding date', 'Quick links'],
    not: ['Recent quotes', 'Account balance'],
  },
  { brand: 'card', user: 'card.careguard', sees: ['Quick links'], not: ['Recent claims', 'Admin balance', 'Next funding date', 'Recent quotes'] },
  { brand: 'assist', user: 'assist.careassist', sees: ['Quick links'], not: ['Recent claims', 'Admin balance', 'Next funding date', 'Recent quotes'] },
  { brand: 'quote', user: 'quote.carequote', sees: ['Recent quotes', 'Quick links'], not: ['Recent claims', 'Admin balance', 'Next funding date'] },
  { brand: 'staff', user: 'staff.superuser', sees: ['Recent claims', 'Admin balance', 'Next funding date', 'Recent quotes', 'Quick links'], not: [] },
];

for (const c of CASES) {
  test(`${c.user} lands on the dashboard with its own widgets only`, async ({ page }) => {
    await signIn(page, c.brand, c.user);
    await page.goto(site(c.brand, '/'));
    await expect(page).toHaveURL(/\/dashboard$/);
    for (const title of c.sees) await expect(frame(page, title)).toBeVisible();
    for (const title of c.not) await expect(frame(page, title)).toHaveCount(0);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const results = await axeAndReflow(page, 'main', WCAG);
    expect(results.violations).toEqual([]);
  });
}

const claimRows = (page: Page) => page.getByTestId('recent-claims').locator('tbody tr');
/** The phone width at which the recent claims' payees wrap, so the six outgrow their frame. */
const PHONE = { width: 375, height: 800 };
/**
 * A finance member whose recent claims are the seed's alone: the claims journeys add bills with a short payee (which
 * does not wrap) to finance.careguardfinance, and a run of them again after a failure adds more, until its six no
 * longer outgrow the frame at PHONE.
 */
const SEEDED_CLAIMS_MEMBER = 'assist.careguardfinance';

test('the finance dashboard shows 6 recent claims, the funding date and links that work', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  await page.goto(site('finance', '/dashboard'));
  await expect(claimRows(page)).toHaveCount(6);
  // On a desktop, the six claims (payee, received day, status, billed amount) fit their frame: no inner scrolling.
  await expect(claimRows(page).first().getByRole('cell')).toHaveCount(4);
  const claimsBody = frame(page, 'Recent claims').locator(':scope > div');
  expect(await claimsBody.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
  await expect(claimsBody).not.toHaveAttribute('tabindex');
  // The recent notes too: each note's opening words on one line.
  await expect(page.getByTestId('recent-notes').getByRole('listitem').first()).toBeVisible();
  // Each note's day ('Oct 16, 2026'), its time in the title.
  const noteDay = page.getByTestId('recent-notes').locator('time').first();
  await expect(noteDay).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(noteDay).toHaveAttribute('title', /\d{1,2}:\d{2}/);
  const notesBody = frame(page, 'Recent notes').locator(':scope > div');
  expect(await notesBody.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
  await expect(page.getByTestId('funding-date')).toContainText(/\d{4}/);
  await frame(page, 'Quick links').getByRole('link', { name: 'Trends' }).click();
  await expect(page).toHaveURL(/\/trend$/);
});

test("a card member's six recent transactions fit their frame, a line each: day, company and type, signed amount", async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  await page.goto(site('card', '/dashboard'));
  const rows = page.getByTestId('ledger-recent').locator('tbody tr');
  await expect(rows).toHaveCount(6);
  await expect(rows.first().getByRole('cell')).toHaveCount(3);
  await expect(rows.first().getByRole('cell').nth(2)).toHaveText(/^-?\$[\d,]+\.\d{2}$/);
  const body = frame(page, 'Recent transactions').locator(':scope > div');
  expect(await body.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
  await expect(body).not.toHaveAttribute('tabindex');
});

test('someone with no saved quote is told so, with the way to build one', async ({ page }) => {
  await signIn(page, 'staff', 'staff.superuser');
  await page.goto(site('staff', '/dashboard'));
  const quotes = page.getByTestId('recent-quotes');
  await expect(quotes).toContainText('You have no saved quotes yet.');
  await expect(quotes.locator('table')).toHaveCount(0);
  await quotes.getByRole('link', { name: 'Build a new quote' }).click();
  await expect(page).toHaveURL(/\/quotes$/);
});

test('widget frames keep their size while they load: nothing shifts', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  // Hold the widgets' data back so the frames are drawn before it.
  const release = await holdDashboardData(page);
  await page.goto(site('finance', '/dashboard'));
  const claims = frame(page, 'Recent claims');
  await expect(claims).toBeVisible();
  const before = await claims.boundingBox();
  release();
  await expect(page.getByTestId('recent-claims')).toBeVisible();
  expect(await claims.boundingBox()).toEqual(before);
});

test('a frame whose content outgrows it once its data arrives can be scrolled by keyboard; one that fits is not a tab stop', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, 'finance', SEEDED_CLAIMS_MEMBER);
  const release = await holdDashboardData(page);
  await page.goto(site('finance', '/dashboard'));
  const claimsBody = frame(page, 'Recent claims').locator(':scope > div');
  const fundingBody = frame(page, 'Next funding date').locator(':scope > div');
  await expect(claimsBody).toBeVisible();
  await expect(claimsBody).not.toHaveAttribute('tabindex');
  // Checked before every frame: from the first one in which the six claims are in the frame, it is already a tab
  // stop (an accessibility check or a keyboard user in between would find it scrollable and unreachable).
  const body = await claimsBody.elementHandle();
  const firstSeen = page.waitForFunction(
    (el) => (el && el.querySelectorAll('[data-testid="recent-claims"] tbody tr').length >= 6 ? { tabindex: el.getAttribute('tabindex') } : false),
    body,
    { polling: 'raf' },
  );
  release();
  expect(await (await firstSeen).jsonValue()).toEqual({ tabindex: '0' });
  await expect(claimRows(page)).toHaveCount(6);
  await expect(page.getByTestId('funding-date')).toBeVisible();
  const overflows = (body: typeof claimsBody) => body.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
  expect(await overflows(claimsBody)).toBe(true);
  await expect(claimsBody).toHaveAttribute('tabindex', '0');
  expect(await overflows(fundingBody)).toBe(false);
  await expect(fundingBody).not.toHaveAttribute('tabindex');
  // Focused, it scrolls with the keyboard.
  await claimsBody.focus();
  await page.keyboard.press('PageDown');
  await expect.poll(() => claimsBody.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
});

test('widgets whose code and data are in when the page renders come in its first paint, no skeleton, and a frame they overflow is a tab stop from it', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(page, 'finance', SEEDED_CLAIMS_MEMBER);
  // The identity answer, which the signed-in layout waits for, is held until the recent claims have been answered (the
  // widgets' code and data, preloaded and prefetched beside the page's code, are then in when the page renders) and the
  // test watches every frame. Its arrival renders the page at once (a synchronous update, which cannot wait for a
  // promise, even a settled one).
  let claimsAnswered: () => void = () => {};
  const answered = new Promise<void>((r) => {
    claimsAnswered = r;
  });
  let watching: () => void = () => {};
  const watched = new Promise<void>((r) => {
    watching = r;
  });
  page.on('requestfinished', (r) => {
    if (r.url().includes('/api/dashboard/claims/recent/')) claimsAnswered();
  });
  await page.route('**/api/account/user/identity', async (route) => {
    await Promise.all([answered, watched]);
    await route.continue();
  });
  // Whether a skeleton ever showed in the claims frame, watched from before the page's scripts run.
  await page.addInitScript(() => {
    const w = window as unknown as { skeletonSeen: boolean };
    w.skeletonSeen = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-widget="claims.recent"] [aria-hidden="true"] span')) w.skeletonSeen = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(site('finance', '/dashboard'));
  const firstSeen = page.waitForFunction(
    () => {
      const items = document.querySelectorAll('[data-widget="claims.recent"] [data-testid="recent-claims"] tbody tr');
      const body = document.querySelector('[data-widget="claims.recent"] > div');
      return items.length >= 6 && body ? { tabindex: body.getAttribute('tabindex') } : false;
    },
    undefined,
    { polling: 'raf' },
  );
  watching();
  expect(await (await firstSeen).jsonValue()).toEqual({ tabindex: '0' });
  expect(await page.evaluate(() => (window as unknown as { skeletonSeen: boolean }).skeletonSeen)).toBe(false);
});

test('staff acting for no member see one hint instead of the ledger widgets and send no ledger call; acting for a member they see its ledger', async ({
  page,
  browser,
}) => {
  const member = await (await browser.newContext()).newPage();
  await signIn(member, 'card', 'card.careguard');
  const memberId = await member.evaluate(async () => {
    const r = await fetch('/api/account/user/identity', { headers: { authorization: `Bearer ${sessionStorage.getItem('cq.accessToken')}` } });
    return (await r.json()).Data.MemberID as number;
  });
  await member.context().close();

  // Each ledger call, with the member it names (none: for nobody).
  const ledgerCalls: { url: string; member: string | undefined }[] = [];
  page.on('request', (r) => {
    if (/\/api\/dashboard\/(account\/balance|balance\/month|transactions\/)/.test(r.url()))
      ledgerCalls.push({ url: r.url(), member: r.headers()['x-member-id'] });
  });
  // The page's own clock, so the widgets' delay is sure to pass in the page's time, however slow the machine.
  await page.clock.install();
  await signIn(page, 'staff', 'staff.caresupport');
  await page.goto(site('staff', '/dashboard'));
  const ledgerWidgets = ['Account balance', 'Balance by month', 'Recent transactions'];
  // One hint for the page, not one per widget: the widgets of one member's ledger are left out until there is a member.
  await expect(page.getByRole('status').filter({ hasText: "A member's balance and transactions show here once you act for that member" })).toHaveCount(1);
  for (const title of ledgerWidgets) await expect(frame(page, title)).toHaveCount(0);
  await expect(page.getByText('Choose a member to see their transactions.')).toHaveCount(0);
  // The widgets' calls would go 500 ms after the page renders (spec 02 section 9): the page's clock runs well past that,
  // firing every timer due meanwhile, and none has gone.
  await page.clock.runFor(5_000);
  expect(ledgerCalls).toEqual([]);
  await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' })).toHaveCount(0);

  await page.getByLabel('Member ID or number to act for').fill(String(memberId));
  await page.getByRole('button', { name: 'Act for member' }).click();
  await expect(page.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();
  await expect(page.getByTestId('ledger-balance-widget')).toBeVisible();
  for (const title of ledgerWidgets) await expect(frame(page, title)).toBeVisible();
  await expect(page.getByTestId('dashboard-choose-member')).toHaveCount(0);
  expect(ledgerCalls.length).toBeGreaterThanOrEqual(3);
  // Every ledger call named the member acted for, so none went for nobody, not even one too late for the check above:
  // the browser reports a page's requests in the order the page makes them, and these came after any such call.
  for (const call of ledgerCalls) expect(call, 'a ledger call').toEqual({ url: call.url, member: String(memberId) });
  const results = await axeAndReflow(page, 'main', WCAG);
  expect(results.violations).toEqual([]);
});

test('the balance-by-month chart fits its frame with its scale, its first and last month and the toggle of its figures', async ({ page }) => {
  // A member with an initial balance: without one there is no balance to chart (spec 02: null means none yet).
  await signIn(page, 'finance', 'finance.careguard');
  const widget = frame(page, 'Balance by month');
  const chart = widget.getByTestId('ledger-balance-month');
  await expect(chart.getByRole('img', { name: /balance at the end of each of the last 12 months/ })).toBeVisible();
  // The frame's body does not scroll: the whole chart and its toggle are in view at once.
  const body = widget.locator('h2 + div');
  expect(await body.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(1);
  const toggle = chart.getByText('Show the figures');
  await expect(toggle).toBeInViewport();
  // The scale's ends and the months are the table's extremes (the range holds zero).
  await toggle.click();
  const rows = chart.getByRole('row');
  await expect(rows).toHaveCount(13);
  const cells = await chart.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  const amounts = cells.map(([, balance]) => Number((balance ?? '').replace(/[^0-9.-]/g, '')));
  const scale = (await chart.locator('[aria-hidden="true"]').first().locator('span').allTextContents()).map((s) => Number(s.replace(/[^0-9.-]/g, '')));
  expect(scale).toEqual([Math.max(0, ...amounts), Math.min(0, ...amounts)]);
  expect(await chart.locator('[aria-hidden="true"]').nth(1).locator('span').allTextContents()).toEqual([cells[0]?.[0], cells.at(-1)?.[0]]);
});

test('a failed balance tile says the balance could not be loaded, not the transactions', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  await page.route('**/api/dashboard/admin/balance', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"Message":"down"}' }));
  await page.goto(site('finance', '/dashboard'));
  // Its words, and its Try again (widget-failures.spec.ts).
  await expect(frame(page, 'Admin balance').getByRole('alert')).toHaveText(/^The balance could not be loaded\.\s*Try again$/);
  // The rest of the dashboard works.
  await expect(page.getByTestId('recent-claims')).toBeVisible();
  await expect(page.getByTestId('funding-date')).toBeVisible();
});

test("the balance-by-month widget names each month, the last as of the balance tile's day", async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguard');
  const chart = frame(page, 'Balance by month').getByTestId('ledger-balance-month');
  await chart.getByText('Show the figures').click();
  const months = await chart.locator('tbody tr td:first-child').allTextContents();
  expect(months).toHaveLength(12);
  for (const m of months.slice(0, -1)) expect(m).toMatch(/^[A-Z][a-z]{2} \d{4}$/);
  const asOf = (
    await frame(page, 'Account balance')
      .getByText(/^As of /)
      .textContent()
  )?.replace('As of ', '');
  expect(months.at(-1)).toMatch(new RegExp(`^[A-Z][a-z]{2} \\d{4}, as of ${asOf}$`));
});
