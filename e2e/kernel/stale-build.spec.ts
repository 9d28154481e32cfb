import type { Page } from '@playwright/test';
import { axeAndReflow } from '../axe';
import { signIn, site } from '../support';
import { expect, test } from '../test';

/** A page's chunk answered 404, as after a new deploy for a tab that still knows the old chunk names. */
const PAGE_CHUNK = /\/assets\/StatementsPage-[^/]*\.js$/;

/**
 * Counts the tab's stale-build checks (claimStaleReload, platform/web/src/shell/staleBuild.ts, run by each page that
 * shows the kernel's notice for code gone after a new deploy): each check reads the time of the tab's last such reload
 * (`cq.staleReloadAt`); one that reloads writes the time now and reloads, in the same task. The counts are kept in the
 * tab's sessionStorage, which outlives its reloads. Read from the page, in a task of its own, a check is counted with
 * its reload or not at all, so no wait is needed to tell whether it reloaded. (There is no timer for a clock to run
 * ahead: the window is a time the check compares once, as the notice mounts.)
 */
async function watchStaleChecks(page: Page) {
  await page.addInitScript(() => {
    const { getItem, setItem } = Storage.prototype;
    const count = (name: string) => setItem.call(sessionStorage, name, String(Number(getItem.call(sessionStorage, name)) + 1));
    Storage.prototype.getItem = function (key) {
      if (key === 'cq.staleReloadAt' && this === sessionStorage) count('e2e.staleChecks');
      return getItem.call(this, key);
    };
    Storage.prototype.setItem = function (key, value) {
      if (key === 'cq.staleReloadAt' && this === sessionStorage) count('e2e.staleReloads');
      setItem.call(this, key, value);
    };
  });
  // null while the tab is between two pages (a reload under way), so a poll asks again.
  return () =>
    page
      .evaluate(() => ({ checks: Number(sessionStorage.getItem('e2e.staleChecks')), reloads: Number(sessionStorage.getItem('e2e.staleReloads')) }))
      .catch((error: Error) => {
        if (/Execution context was destroyed|navigation/i.test(error.message)) return null;
        throw error;
      });
}

test('a page whose code is gone after a new deploy reloads the tab once and then opens', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  // The old build's chunk is gone until the tab reloads (the reload fetches the new index, whose chunks exist).
  let reloaded = false;
  let refused = 0;
  await page.route(PAGE_CHUNK, (route) => {
    if (reloaded) return route.continue();
    refused++;
    return route.fulfill({ status: 404, body: 'Not found' });
  });
  const reload = page
    .waitForRequest((r) => r.isNavigationRequest() && r.frame() === page.mainFrame())
    .then(() => {
      reloaded = true;
    });
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Statements', exact: true }).click();
  await reload;
  expect(refused).toBeGreaterThan(0);
  await expect(page).toHaveURL(/\/statements$/);
  await expect(page.getByRole('heading', { name: 'Statements', level: 1 })).toBeVisible();
  await expect(page.getByTestId('page-error')).toHaveCount(0);
});

test('a page whose code stays missing shows the kernel message with a Reload button inside the layout, reloading by itself only once', async ({ page }) => {
  const staleChecks = await watchStaleChecks(page);
  await signIn(page, 'finance', 'finance.careguardfinance');
  await page.route(PAGE_CHUNK, (route) => route.fulfill({ status: 404, body: 'Not found' }));
  let loads = 0;
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) loads++;
  });
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Statements', exact: true }).click();
  const error = page.getByTestId('page-error');
  await expect(error).toContainText('This page could not be loaded. Please reload and try again.');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
  // It reloaded once by itself; the reloaded page checked again and, within the window, did not reload: the message stays.
  await expect.poll(staleChecks).toEqual({ checks: 2, reloads: 1 });
  await expect(error).toBeVisible();
  expect(loads).toBe(1);
  const results = await axeAndReflow(page);
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  // The user's own Reload (by keyboard) loads the page again.
  const reload = error.getByRole('button', { name: 'Reload' });
  await reload.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => loads).toBe(2);
  // That page's own check did not reload it again either.
  await expect.poll(staleChecks).toEqual({ checks: 3, reloads: 1 });
  await expect(error).toBeVisible();
});

test('another page of the site still opens after one failed to load', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  await page.route(PAGE_CHUNK, (route) => route.fulfill({ status: 404, body: 'Not found' }));
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Statements', exact: true }).click();
  await expect(page.getByTestId('page-error')).toBeVisible();
  await nav.getByRole('link', { name: 'Contacts', exact: true }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  await expect(page.getByTestId('page-error')).toHaveCount(0);
});

test("a page's part whose code is missing shows the kernel's notice in its own frame, and the page's other parts still work", async ({ page }) => {
  // The dashboard's widgets come in one file with the page (apps/web/build.ts, landingModules); the trends page's chart
  // groups each come in their own, as every other contribution to an extension point does.
  await page.route(/\/assets\/MemberBillTrendCharts-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await signIn(page, 'card', 'card.careguard');
  await page.goto(site('card', '/trend'));
  const bills = page.locator('[data-trend-group="trends.memberBills"]');
  await expect(bills.getByTestId('part-error')).toContainText('This part of the page could not be loaded. Please reload and try again.');
  await expect(bills.getByRole('button', { name: 'Reload' })).toBeVisible();
  await expect(page.getByTestId('page-error')).toHaveCount(0);
  await expect(page.getByTestId('part-error')).toHaveCount(1);
  // The ledger's chart group beside it draws its chart.
  await expect(page.getByTestId('chart-spending').locator('.apexcharts-canvas')).toBeVisible();
});
