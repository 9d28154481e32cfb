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
  await signIn(page, 'assist', 'assist.careassist');
  await page.goto(site('assist', '/careassist/print'));
  await expect(page).toHaveURL(/\/careassist\/print$/);
  const card = page.getByTestId('print-card');
  await expect(card.getByRole('region', { name: 'Card front' })).toContainText('BIN');
  await expect(card.getByRole('region', { name: 'Card back' })).toContainText('Payer number');
  await expect(page.getByRole('button', { name: 'Download PDF' })).toBeVisible();
  await expectAccessible(page);
});
