import { expectAccessible } from '../axe';
import { signIn } from '../support';
import { expect, test } from '../test';

const UNREACHABLE = 'The server could not be reached. Check your connection and try again.';

test('offline: the layout says so, and a save fails at once with words, keeps what was typed and is not sent later by itself', async ({ page, context }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Contacts' }).click();
  await page.getByRole('button', { name: 'Add contact' }).click();
  await page.getByLabel('First name').fill('Offline');
  await page.getByLabel('Last name').fill('Tester');
  const notice = page.getByTestId('offline-notice');
  await expect(notice).toHaveRole('status');
  await expect(notice).toBeEmpty();

  // Saves that reached the server (a call that fails offline gets no answer).
  let saved = 0;
  page.on('response', (r) => {
    if (r.url().includes('/api/contacts/') && r.request().method() === 'POST') saved++;
  });
  await context.setOffline(true);
  await expect(notice).toHaveText('You are offline. Nothing can be loaded or saved until you are connected again.');
  await expectAccessible(page, '[data-testid="offline-notice"]');
  await page.getByRole('button', { name: 'Save' }).click();
  // Said at once, as any failed call is; the save is not kept waiting for the network to go out later by itself.
  await expect(page.getByRole('alert').filter({ hasText: UNREACHABLE })).toBeVisible({ timeout: 5_000 });
  await expect(page.getByRole('button', { name: 'Save' })).not.toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByLabel('First name')).toHaveValue('Offline');

  // Back online: the failed save does not go out by itself (a paused one would, at once, on the browser's online
  // event): by the time the list the Cancel shows is loaded, no save reached the server.
  await context.setOffline(false);
  await expect(notice).toBeEmpty();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Add contact' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Tester, Offline' })).toHaveCount(0);
  expect(saved).toBe(0);
});

test("offline: a page whose code is not loaded yet says it will load once connected, and does, instead of reloading into the browser's offline page; a layout part that cannot load keeps its place", async ({
  page,
  context,
}) => {
  // A secondary part of the layout loaded on demand whose code cannot be fetched (the search box, loaded once the page
  // is idle) leaves its placeholder in place; the layout stays.
  let searchAsked = 0;
  await page.route(/\/assets\/GlobalSearch-[^/]*\.js$/, (route) => {
    searchAsked++;
    return route.abort('internetdisconnected');
  });
  await signIn(page, 'finance', 'finance.careguardfinance');
  await expect.poll(() => searchAsked).toBeGreaterThan(0);
  await expect(page.getByTestId('page-error')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  let loads = 0;
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) loads++;
  });
  await context.setOffline(true);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Statements', exact: true }).click();
  const error = page.getByTestId('page-error');
  await expect(error).toContainText('This page could not be loaded because you are offline. It will load once you are connected again.');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  expect(page.url()).toMatch(/\/statements/);
  expect(loads).toBe(0);

  // The network is back: the tab loads again by itself, once, and the page is there.
  await context.setOffline(false);
  await expect.poll(() => loads).toBe(1);
  await expect(page.getByRole('heading', { level: 1, name: 'Statements' })).toBeVisible();
  await expect(error).toHaveCount(0);
});
