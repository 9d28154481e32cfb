import { expect, type Page, test } from '@playwright/test';
import { deferred } from '@portal/testing/deferred';
import { SessionStore } from '../platform/web/src/session/storage';
import { DEMO_PASSWORD } from '../scripts/lib/demo';
import { E2E_PORT } from './playwright.config';

export { DEMO_PASSWORD };
/**
 * The business's time zone on the e2e server (BUSINESS_TIME_ZONE unset: the server's default, `businessTimeZone` in
 * platform/server/src/config.ts). Journeys whose days the server judges by the business's day run their browser in it.
 */
export const BUSINESS_TIME_ZONE = 'America/Chicago';

/**
 * The card member whose profile the profile journeys edit (and terminate and reactivate): the seed's second card
 * CareGuard member (the one with the DeactivateBank marker role), which no other journey uses. So the profile journeys
 * run beside the others (playwright.config.ts): the shared ones, and billing's, the ledger's and support's, which all
 * change card.careguard.
 */
export const PROFILE_MEMBER = 'card.careguard-bank';

/**
 * The member a journey signs in as on this attempt, when the journey changes what can change once (an initial balance
 * entered once, a period sent to the payer once): CI runs a failed journey once more (playwright.config.ts), and that
 * run must not find the first attempt's changes. One member per attempt, none shared with another journey that
 * changes them: the seed's spares (`<user>-2`, which scripts/e2e-server.ts seeds with `--spares 1`) or demo users no
 * journey changes.
 */
export function memberForAttempt(members: readonly string[]): string {
  const { retry } = test.info();
  const member = members[retry];
  if (!member) throw new Error(`No member kept for attempt ${retry + 1} of this journey (it keeps ${members.length})`);
  return member;
}

export const site = (brand: string, path = '/') => `http://${brand}.localhost:${E2E_PORT}${path}`;

/**
 * Holds every request matching the pattern until the returned function is called, then lets them through; `onHeld` is
 * told of each request as it is held.
 */
export async function holdRequests(page: Page, pattern: string, onHeld: () => void = () => {}): Promise<() => void> {
  const held = deferred();
  await page.route(pattern, async (route) => {
    onHeld();
    await held.promise;
    await route.continue();
  });
  return () => held.release();
}

/**
 * Calls our API from `page` as its own client does (its session's access and form tokens, in sessionStorage): a GET
 * without a body, a POST with one. Answers the status and the envelope (`Data`, `MsgText`).
 */
export function pageApi<T = Record<string, unknown>>(page: Page, path: string, body?: unknown) {
  return page.evaluate(
    async ([p, b]) => {
      const r = await fetch(p as string, {
        method: b === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${sessionStorage.getItem('cq.accessToken')}`,
          'x-form-token': sessionStorage.getItem('cq.formToken') ?? '',
          'content-type': 'application/json',
        },
        ...(b === undefined ? {} : { body: JSON.stringify(b) }),
      });
      return { status: r.status, body: (await r.json()) as { Data: T; MsgText: string | null } };
    },
    [path, body] as const,
  );
}

/** The token call's answer, as the app's session store takes it. */
type TokenAnswer = Parameters<SessionStore['saveTokens']>[0];

/**
 * Signs in and opens `path` (the landing page for `/login`). On a new page it takes the session as the login screen
 * would, without the screen: the token call, the tokens stored where the app keeps them (sessionStorage, `cq.`), then
 * `path` opened as a reload of a signed-in tab opens it. The journeys that follow the screen itself (signing in, its
 * redirects and messages, a session ended and started again) use signInWithForm, as does any sign-in on a page
 * already open. The form cost a journey two page loads (the sign-in page, then the landing page the next step left at
 * once): 50 s of the journeys' 1,276 s on two cores, the whole run 26 s shorter (docs/performance-log.md, seventy-first
 * pass).
 */
export async function signIn(page: Page, brand: string, userName: string, password = DEMO_PASSWORD, path = '/login') {
  if (page.url() !== 'about:blank') return signInWithForm(page, brand, userName, password, path);
  // From the test process, to the API's address with the site's host: *.localhost names resolve in the browser only,
  // and an API answer's page (/health, below) may not call the API (its Content-Security-Policy is default-src 'none').
  const res = await page.request.post(`http://127.0.0.1:${E2E_PORT}/token`, {
    headers: { host: `${brand}.localhost:${E2E_PORT}` },
    form: { grant_type: 'password', UserName: userName, Password: password },
  });
  expect(res.status(), `signing in as ${userName}`).toBe(200);
  // What the app's own SessionStore.saveTokens stores for that answer, then those entries in the site's sessionStorage
  // (its origin's: opened on the cheapest page it serves).
  const entries = new Map<string, string>();
  new SessionStore({ getItem: (k) => entries.get(k) ?? null, setItem: (k, v) => void entries.set(k, v), removeItem: (k) => void entries.delete(k) }).saveTokens(
    (await res.json()) as TokenAnswer,
  );
  await page.goto(site(brand, '/health'));
  await page.evaluate(
    (stored) => {
      for (const [k, v] of stored) sessionStorage.setItem(k, v);
    },
    [...entries],
  );
  await page.goto(site(brand, path === '/login' ? '/' : path));
  await expect(page).not.toHaveURL(/\/login/);
}

/** Signs in through the login screen (at `path`, or the sign-in page `path` sends to) and waits to leave it. */
export async function signInWithForm(page: Page, brand: string, userName: string, password = DEMO_PASSWORD, path = '/login') {
  await page.goto(site(brand, path));
  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}
