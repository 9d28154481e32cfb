import { signIn } from '../support';
import { expect, test } from '../test';
import { recordToasts } from '../toasts';

/**
 * A remote grid (the kit's DataGrid, the server paging) whose page fails to load says so once: in the grid, in the
 * server's words, with a Try again that loads it; no toast says the same failure a second time. The contacts list and
 * support's transactions list have theirs in their own journeys (contacts, support).
 */

const WORDS = 'The service is down for maintenance.';

const GRIDS: { grid: string; brand: string; user: string; path: string; api: string }[] = [
  { grid: 'Sample transactions', brand: 'staff', user: 'staff.superuser', path: '/kit-gallery?tab=remote', api: '/api/kit-gallery/rows' },
  { grid: 'Users', brand: 'staff', user: 'staff.caresupport', path: '/users', api: '/api/users/get' },
  { grid: 'Members', brand: 'staff', user: 'staff.caresupport', path: '/support-members', api: '/api/support/members' },
  {
    grid: 'Pending transactions',
    brand: 'staff',
    user: 'staff.caresupport',
    path: '/support-pendingtransactions',
    api: '/api/support/user/PendingTransactions/',
  },
  { grid: 'Coupons', brand: 'staff', user: 'staff.caresupport', path: '/coupons', api: '/api/payment/support/coupons/search' },
  { grid: 'Your messages, newest first', brand: 'finance', user: 'finance.careguardfinance', path: '/notes', api: '/api/notes/search' },
  { grid: 'Account activity', brand: 'card', user: 'card.careguard', path: '/transactions/activity', api: '/api/financials/search' },
  { grid: 'Reported transactions', brand: 'assist', user: 'assist.careassist', path: '/transactions/reported', api: '/api/transactions/search' },
  { grid: 'Card transactions', brand: 'assist', user: 'assist.careassist', path: '/careassist/transactions', api: '/api/financials/amethyst/search' },
];

for (const g of GRIDS) {
  test(`${g.grid} (${g.path}): a page that fails to load is said once, in the grid in the server's words, with a Try again that loads it`, async ({ page }) => {
    let failing = true;
    await page.route(
      (url) => url.pathname === g.api,
      (route) =>
        failing
          ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ Data: null, Unwrap: true, MsgText: WORDS, HasError: true }) })
          : route.continue(),
    );
    const toasts = await recordToasts(page);
    await signIn(page, g.brand, g.user, undefined, g.path);
    const grid = page.getByRole('grid', { name: g.grid });
    const failed = grid.getByRole('alert');
    await expect(failed).toContainText(WORDS);
    await expect(failed.getByRole('button', { name: 'Try again' })).toBeVisible();
    // No toast said it too (a read's toast, held back while the query asks again, comes in the task after its last
    // failure: well within this wait).
    await page.waitForTimeout(500);
    expect(await toasts()).toEqual([]);

    failing = false;
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect(grid.locator('tbody tr[aria-rowindex], tbody td[role="status"]').first()).toBeVisible();
    await expect(grid.getByRole('alert')).toHaveCount(0);
    await expect(grid).toHaveAttribute('aria-busy', 'false');
  });
}
