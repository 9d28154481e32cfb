import type { Page } from '@playwright/test';
import { axeAndReflow } from '../axe';
import { signIn, site } from '../support';
import { expect, test } from '../test';

/**
 * Opens the brand's trends page and reads the answers to the named calls as that page got them. The landing page the
 * sign-in opened asks for some of the same data: an answer that reaches it is not the trends page's, and its body is
 * gone once the page navigates, so answers count from when the browser is on /trend.
 */
async function openTrends(page: Page, brand: string, paths: string[]): Promise<unknown[]> {
  const answers = paths.map((path) => page.waitForResponse((r) => r.url().endsWith(path) && new URL(page.url()).pathname === '/trend'));
  await page.goto(site(brand, '/trend'));
  return Promise.all(answers.map(async (answer) => ((await (await answer).json()) as { Data: unknown }).Data));
}

/**
 * What apexcharts says in the console while the page draws: it warns when a chart asks for a chart type or feature
 * that is not registered with its core (the kit registers what its charts use and nothing more: kit/chart/apexChart.ts).
 */
function chartConsole(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (m) => {
    if ((m.type() === 'warning' || m.type() === 'error') && /apexcharts/i.test(m.text())) said.push(m.text());
  });
  return said;
}

test('the trends page draws its charts, and the table toggle shows the same numbers', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  const said = chartConsole(page);
  const [claimsData, billsData] = (await openTrends(page, 'finance', ['/api/dashboard/claims/month', '/api/dashboard/bills/month'])) as [
    { Date: string; NumberOfClaims: number }[],
    { Date: string; Amount: number }[],
  ];

  const claims = page.getByTestId('chart-claims');
  await expect(claims.getByRole('heading', { name: 'Claims over time' })).toBeVisible();
  await expect(claims.locator('.apexcharts-canvas')).toBeVisible();
  const total = claimsData.reduce((s, p) => s + p.NumberOfClaims, 0);
  await expect(claims.getByText(`${total.toLocaleString('en-US')} claims in ${claimsData.length} periods`)).toBeVisible();
  // The drawing's own name is the chart's title in the page's language, not apexcharts' English description.
  await expect(claims.locator('svg.apexcharts-svg')).toHaveAttribute('aria-label', 'Claims over time');

  await claims.getByRole('button', { name: 'Show as table' }).click();
  const rows = claims.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(claimsData.length);
  for (const [i, p] of claimsData.entries()) {
    await expect(rows.nth(i).getByRole('rowheader')).toHaveText(p.Date.slice(0, 7));
    await expect(rows.nth(i).getByRole('cell')).toHaveText(p.NumberOfClaims.toLocaleString('en-US'));
  }
  await claims.getByRole('button', { name: 'Show as chart' }).click();
  await expect(claims.locator('.apexcharts-canvas')).toBeVisible();

  // Money in dollars.
  const billTable = page.getByTestId('chart-bills');
  await expect(billTable.locator('.apexcharts-canvas')).toBeVisible();
  await billTable.getByRole('button', { name: 'Show as table' }).click();
  const last = billsData.at(-1) as { Amount: number };
  await expect(billTable.getByRole('table').locator('tbody tr').last().getByRole('cell')).toHaveText(
    `$${last.Amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
  );

  await expect(page.getByTestId('chart-cities').getByRole('heading', { name: 'Bills by city' })).toBeVisible();
  await page.getByRole('tab', { name: 'By quarter' }).click();
  await expect(page.getByTestId('chart-claims').locator('.apexcharts-canvas')).toBeVisible();
  // Every chart kind the page draws (line, bar, ranking) is registered: apexcharts said nothing.
  expect(said).toEqual([]);

  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(results.violations).toEqual([]);
});

test('a chart shown as a table before it is drawn does not hold back the charts after it', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  // The charts' code is held back, so every chart is still waiting to be drawn when the first one is turned into a
  // table (the page's charts take turns to be drawn, one at a time: kit/chart/drawTurns.ts).
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let heldBack = 0;
  await page.route('**/assets/apexChart-*.js', async (route) => {
    heldBack += 1;
    await held;
    await route.continue();
  });
  await page.goto(site('finance', '/trend'));
  const claims = page.getByTestId('chart-claims');
  await claims.getByRole('button', { name: 'Show as table' }).click();
  await expect(claims.getByRole('table')).toBeVisible();
  // The charts' code was asked for and is being held: the charts are waiting for it, not drawn yet.
  expect(heldBack).toBeGreaterThan(0);
  await expect(page.locator('.apexcharts-canvas')).toHaveCount(0);
  release();

  for (const id of ['chart-bills', 'chart-cities']) await expect(page.getByTestId(id).locator('.apexcharts-canvas')).toBeVisible();
  await expect(claims.getByRole('table')).toBeVisible();
  await claims.getByRole('button', { name: 'Show as chart' }).click();
  await expect(claims.locator('.apexcharts-canvas')).toBeVisible();
});

test('the charts library never loads on the sign-in page', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto(site('finance', '/login'));
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((u) => /apexcharts/i.test(u))).toEqual([]);
});

test("a member's trends page shows their spending, the balance by month carried forward and the balance gauge, each with its table", async ({ page }) => {
  await signIn(page, 'assist', 'assist.careassist');
  const said = chartConsole(page);
  const [monthData, balanceData] = (await openTrends(page, 'assist', ['/api/dashboard/balance/month', '/api/dashboard/account/balance'])) as [
    { Date: string; Balance: number }[],
    { Balance: number; InitialBalance: number },
  ];

  await expect(page.getByTestId('chart-spending').locator('.apexcharts-canvas')).toBeVisible();
  await expect(page.getByTestId('chart-member-bills')).toHaveCount(0); // CareAssist has no bills

  const chart = page.getByTestId('chart-balance');
  await expect(chart.locator('.apexcharts-canvas')).toBeVisible();
  await chart.getByRole('button', { name: 'Show as table' }).click();
  const rows = chart.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(12);
  let carried = 0;
  for (const [i, p] of monthData.entries()) {
    if (p.Balance !== 0) carried = p.Balance;
    await expect(rows.nth(i).getByRole('cell')).toHaveText(
      `${carried < 0 ? '-' : ''}$${Math.abs(carried).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
    );
  }

  const share = Math.min(100, Math.max(0, Math.round((balanceData.Balance / balanceData.InitialBalance) * 100)));
  const gauge = page.getByTestId('gauge-account');
  await expect(gauge.getByText(`${share}% left`)).toBeVisible();
  await gauge.getByRole('button', { name: 'Show as table' }).click();
  await expect(gauge.getByRole('table').getByRole('cell')).toHaveText(`${share}%`);
  // The gauge's radial bar is registered too.
  expect(said).toEqual([]);

  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(results.violations).toEqual([]);
});

test('a CareGuard member sees their own bills by date and city on the trends page', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  const [billsData] = (await openTrends(page, 'card', ['/api/dashboard/transactions/bills/month'])) as [{ Date: string; Amount: number }[]];
  const chart = page.getByTestId('chart-member-bills');
  await expect(chart.getByRole('heading', { name: 'Your bill amounts by date' })).toBeVisible();
  await chart.getByRole('button', { name: 'Show as table' }).click();
  await expect(chart.getByRole('table').locator('tbody tr')).toHaveCount(billsData.length);
  await expect(page.getByTestId('chart-member-cities').getByRole('heading', { name: 'Bills by city' })).toBeVisible();
  await expect(page.getByTestId('chart-claims')).toHaveCount(0); // every member's claims are the finance view
});
