import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { axeAndReflow, expectAccessible } from '../axe';
import { DEMO_PASSWORD, signIn, site } from '../support';
import { expect, test } from '../test';

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

test('Print Card: a finance member prints the card wallet-size and downloads it as a PDF; the page passes axe', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  await page.getByRole('navigation').getByRole('link', { name: 'Print Card', exact: true }).click();
  await expect(page).toHaveURL(/\/print$/);
  const card = page.getByTestId('print-card');
  await expect(card.getByRole('region', { name: 'Card front' })).toContainText('BIN');
  await expect(card.getByRole('region', { name: 'Card back' })).toContainText('Payer number');

  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(seriousOrWorse(results.violations)).toEqual([]);

  // On paper only the card prints, each side 3.375 x 2.125 inches (96 CSS px per inch).
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation')).toBeHidden();
  const front = await card.getByRole('region', { name: 'Card front' }).boundingBox();
  expect(Math.round(front?.width ?? 0)).toBe(324);
  expect(Math.round(front?.height ?? 0)).toBeGreaterThanOrEqual(204);
  const shot = await page.screenshot({ fullPage: true });
  expect(shot.length).toBeGreaterThan(5_000);
  await page.emulateMedia({ media: 'screen' });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^prescription-card-.+\.pdf$/);
  const path = await download.path();
  expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-');
});

/**
 * A token handed over as another application would: it signs in on the card site's /token, then asks for a hand-over
 * token with its session (and the session's anti-forgery token). A session's own access token is not taken.
 */
const handedToken = (page: Page) =>
  page.evaluate(async (password) => {
    const r = await fetch('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', UserName: 'card.careguard', Password: password }).toString(),
    });
    const session = (await r.json()) as { access_token: string; form_token: string };
    const handover = await fetch('/api/account/user/handover', {
      method: 'POST',
      headers: { authorization: `Bearer ${session.access_token}`, 'x-form-token': session.form_token },
    });
    return ((await handover.json()) as { Data: { Token: string } }).Data.Token;
  }, DEMO_PASSWORD);

test('/t/:token signs in with the handed token, lands on the card print page with initial=true and opens the help dialog', async ({ page }) => {
  await page.goto(site('card', '/login'));
  const access_token = await handedToken(page);
  expect(access_token).toBeTruthy();
  await page.goto(site('card', `/t/${access_token}`));
  await expect(page).toHaveURL(/\/amethyst\/print\?initial=true$/);
  await expect(page.getByTestId('print-card')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Your prepaid prescription card' })).toBeVisible({ timeout: 5_000 });
  await expectAccessible(page, '[role="dialog"]');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByTestId('print-card').getByRole('region', { name: 'Card front' })).toContainText('BIN');
  await expectAccessible(page);
});

test('/t/:token ends the session that was open in the tab, on the server too, before it stores the handed token', async ({ page }) => {
  await page.goto(site('card', '/login'));
  const tokenOf = () => handedToken(page);
  const identityWith = (token: string) =>
    page.evaluate(async (t) => (await fetch('/api/account/user/identity', { headers: { authorization: `Bearer ${t}` } })).status, token);
  const tabToken = () => page.evaluate(() => sessionStorage.getItem('cq.accessToken') ?? '');
  const first = await tokenOf();
  await page.goto(site('card', `/t/${first}`));
  await expect(page.getByTestId('print-card')).toBeVisible();
  // The handed token was exchanged for the tab's own session, with the tokens that let it change data; the one in the
  // address opens nothing any more.
  const firstSession = await tabToken();
  expect(firstSession).not.toBe(first);
  expect(await identityWith(firstSession)).toBe(200);
  expect(await identityWith(first)).toBe(401);
  expect(await page.evaluate(() => [sessionStorage.getItem('cq.refreshToken'), sessionStorage.getItem('cq.formToken')].every(Boolean))).toBe(true);

  const second = await tokenOf();
  await page.goto(site('card', `/t/${second}`));
  await expect(page.getByTestId('print-card')).toBeVisible();
  // The tab's first session was signed out on the server by the hand-over; the second handed one's is the tab's now.
  await expect.poll(() => identityWith(firstSession)).toBe(401);
  await expect.poll(tabToken).not.toBe(firstSession);
  expect(await identityWith(await tabToken())).toBe(200);

  // The address used again (history, a shared link) opens nothing: the tab ends up signed out, at the sign-in page.
  await page.goto(site('card', `/t/${second}`));
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText('Your session has ended. Please sign in again.').first()).toBeVisible();
});

test('Print Card: a CareAssist member sees their card on /careassist/print; the page passes axe', async ({ page }) => {
  await signIn(page, 'assist', 'assist.careassist', undefined, '/careassist/print');
  await expect(page).toHaveURL(/\/careassist\/print$/);
  const card = page.getByTestId('print-card');
  await expect(card.getByRole('region', { name: 'Card front' })).toContainText('BIN');
  await expect(card.getByRole('region', { name: 'Card back' })).toContainText('Payer number');
  await expect(page.getByRole('button', { name: 'Download PDF' })).toBeVisible();
  await expectAccessible(page);
});

test('after a visit to Print Card, another page prints whole: the card-only print rule holds on the print page alone', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  await page.getByRole('navigation').getByRole('link', { name: 'Print Card', exact: true }).click();
  await expect(page.getByTestId('print-card')).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation')).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('main')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('a 100-character name wraps inside the card, which keeps its ID-1 size on paper', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/print');
  const front = page.getByTestId('print-card').getByRole('region', { name: 'Card front' });
  await expect(front).toContainText('BIN');
  // The profile allows 100 + 100 characters; the value as the page would show it.
  await front
    .locator('dd')
    .first()
    .evaluate((dd) => {
      dd.textContent = `${'Wolfeschlegelsteinhausenbergerdorff'.repeat(3).slice(0, 100)} ${'Featherstonehaugh-Cholmondeley-Marjoribanks'.repeat(3).slice(0, 100)}`;
    });
  await page.emulateMedia({ media: 'print' });
  const box = await front.boundingBox();
  expect(Math.round(box?.width ?? 0)).toBe(324);
  expect(Math.round(box?.height ?? 0)).toBeLessThanOrEqual(205);
  // Nothing runs past the card's edge.
  expect(await front.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});

test("each variant has its own help, and initial=true opens it on the card variant's page only", async ({ page }) => {
  // The page's own clock, so the help's delay (HELP_DELAY_MS, 2 s after the page mounts) surely passes in the page's
  // time, however slow the machine.
  await page.clock.install();
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/print?initial=true');
  await expect(page.getByTestId('print-card')).toBeVisible();
  // The clock runs well past the delay, firing every timer due meanwhile (on the card variant's page, the one that
  // opens the help): still no dialog on this variant's page.
  await page.clock.runFor(10_000);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('button', { name: 'How to use your card' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your prescription card' });
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toContainText('prepaid');
  await expectAccessible(page, '[role="dialog"]');
});

test("a card refused by the server (a membership that has ended) shows the server's words, with no Try again and no card", async ({ page }) => {
  const words = 'Your membership has ended, so your prescription card can no longer be printed or downloaded. Questions? Call us at (800) 555-0150.';
  await page.route('**/api/printcard/getByID', (route) =>
    route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ Data: null, Unwrap: true, MsgText: words, HasError: true }) }),
  );
  await signIn(page, 'assist', 'assist.careassist', undefined, '/careassist/print');
  await expect(page.getByTestId('print-card-refused')).toHaveText(words);
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(page.getByTestId('print-card')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download PDF' })).toHaveCount(0);
  await expectAccessible(page);
});
