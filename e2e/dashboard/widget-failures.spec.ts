import type { Page } from '@playwright/test';
import { signIn } from '../support';
import { expect, test } from '../test';

/**
 * Every dashboard widget whose data fails to load says so in its frame at once (the kit's LoadFailed: an alert) in its
 * own words, with a Try again that asks for that widget's data alone; the rest of the page works meanwhile.
 */

const frame = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const SERVER_DOWN = { Data: null, Unwrap: true, MsgText: 'The data service is down for maintenance.', HasError: true };

interface Widget {
  /** The frame's title. */
  title: string;
  /** The widget's data call(s). */
  api: RegExp;
  /** Its words for a failed load (spec text or its existing strings). */
  words: string;
  /** What it shows once loaded. */
  loaded: (page: Page) => ReturnType<Page['getByTestId']>;
}

/** Fails each widget's calls, checks each frame's alert, then lets the calls through and presses each Try again in turn. */
async function failThenRetry(page: Page, brand: string, user: string, widgets: Widget[]) {
  const failing = new Set(widgets);
  const asked: string[] = [];
  await page.route(
    (url) => widgets.some((w) => w.api.test(url.pathname)),
    (route) => {
      const path = new URL(route.request().url()).pathname;
      asked.push(path);
      const widget = widgets.find((w) => w.api.test(path));
      if (widget && failing.has(widget)) return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify(SERVER_DOWN) });
      return route.continue();
    },
  );
  await signIn(page, brand, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  const boxes = new Map<string, unknown>();
  for (const w of widgets) {
    const failed = frame(page, w.title).getByRole('alert');
    await expect(failed, w.title).toContainText(w.words);
    await expect(failed.getByRole('button', { name: 'Try again' }), w.title).toBeVisible();
    boxes.set(w.title, await frame(page, w.title).boundingBox());
  }
  // The rest of the page works.
  await expect(frame(page, 'Quick links').getByRole('link').first()).toBeVisible();

  for (const w of widgets) {
    failing.delete(w);
    asked.length = 0;
    // From the keyboard: the Try again pressed goes away while the widget loads; focus stays in the widget's frame.
    await frame(page, w.title).getByRole('button', { name: 'Try again' }).focus();
    await page.keyboard.press('Enter');
    await expect(w.loaded(page), w.title).toBeVisible();
    await expect.poll(() => frame(page, w.title).evaluate((el) => el.contains(document.activeElement)), w.title).toBe(true);
    await expect(frame(page, w.title).getByRole('alert')).toHaveCount(0);
    // Its frame kept its size, failed or loaded (the dashboard's frames are drawn once: nothing shifts).
    expect(await frame(page, w.title).boundingBox(), w.title).toEqual(boxes.get(w.title));
    // Try again asked for this widget's data alone: the others still say they failed.
    expect(asked.length, w.title).toBeGreaterThan(0);
    for (const path of asked) expect(w.api.test(path), `${w.title} asked for ${path}`).toBe(true);
    for (const other of failing) await expect(frame(page, other.title).getByRole('alert'), other.title).toBeVisible();
  }
}

test("the finance dashboard's widgets that fail to load each say so with a Try again that loads that widget", async ({ page }) => {
  test.setTimeout(90_000);
  await failThenRetry(page, 'finance', 'finance.careguardfinance', [
    {
      title: 'Recent claims',
      api: /^\/api\/dashboard\/claims\/recent\//,
      words: 'The recent claims could not be loaded.',
      loaded: (p) => p.getByTestId('recent-claims'),
    },
    {
      title: 'Admin balance',
      api: /^\/api\/dashboard\/admin\/balance$/,
      words: 'The balance could not be loaded.',
      loaded: (p) => p.getByTestId('ledger-admin-balance-widget'),
    },
    {
      title: 'Next funding date',
      api: /^\/api\/dashboard\/admin\/foundingdate$/,
      words: 'Error while getting data from server',
      loaded: (p) => p.getByTestId('funding-date'),
    },
    { title: 'Recent notes', api: /^\/api\/dashboard\/notes$/, words: 'The messages could not be loaded.', loaded: (p) => p.getByTestId('recent-notes') },
  ]);
});

test("a card member's widgets that fail to load each say so with a Try again that loads that widget; the card and bank check in the API's words", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await failThenRetry(page, 'card', 'card.careguard', [
    // The bank line (the card line is the same code): the API's words in its line (spec 01 section 8).
    {
      title: 'Card and bank',
      api: /^\/api\/finance\/account\/validate$/,
      words: SERVER_DOWN.MsgText,
      loaded: (p) => p.getByTestId('card-bank-check').getByRole('listitem').last().getByRole('status'),
    },
    {
      title: 'Account balance',
      api: /^\/api\/dashboard\/account\/balance$/,
      words: 'The balance could not be loaded.',
      loaded: (p) => p.getByTestId('ledger-balance-widget'),
    },
    {
      title: 'Balance by month',
      api: /^\/api\/dashboard\/balance\/month$/,
      words: 'The balance could not be loaded.',
      loaded: (p) => p.getByTestId('ledger-balance-month'),
    },
    {
      title: 'Recent transactions',
      api: /^\/api\/dashboard\/transactions\/recent\//,
      words: 'The transactions could not be loaded.',
      loaded: (p) => p.getByTestId('ledger-recent'),
    },
  ]);
});

test('recent quotes that fail to load say so with a Try again that loads them', async ({ page }) => {
  await failThenRetry(page, 'quote', 'quote.carequote', [
    { title: 'Recent quotes', api: /^\/api\/quote\/quotes$/, words: 'Your quotes could not be loaded.', loaded: (p) => p.getByTestId('recent-quotes') },
  ]);
});
