import type { Page } from '@playwright/test';
import { axeAndReflow } from '../axe';
import { holdRequests, signIn, site } from '../support';
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
    // The last month is the current one, not over yet.
    await expect(rows.nth(i).getByRole('rowheader')).toHaveText(i === claimsData.length - 1 ? `${p.Date.slice(0, 7)} (to date)` : p.Date.slice(0, 7));
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
  let heldBack = 0;
  const release = await holdRequests(page, '**/assets/apexChart-*.js', () => {
    heldBack += 1;
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

test("a member's trends page shows their spending, the balance by month as the server counts it and the balance gauge, each with its table", async ({
  page,
}) => {
  await signIn(page, 'assist', 'assist.careassist');
  const said = chartConsole(page);
  const [monthData, balanceData] = (await openTrends(page, 'assist', ['/api/dashboard/balance/month', '/api/dashboard/account/balance'])) as [
    { Date: string; Balance: number }[],
    { Balance: number; InitialBalance: number; AsOf: string },
  ];

  await expect(page.getByTestId('chart-spending').locator('.apexcharts-canvas')).toBeVisible();
  await expect(page.getByTestId('chart-member-bills')).toHaveCount(0); // CareAssist has no bills

  const chart = page.getByTestId('chart-balance');
  await expect(chart.locator('.apexcharts-canvas')).toBeVisible();
  await chart.getByRole('button', { name: 'Show as table' }).click();
  const rows = chart.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(12);
  // Each month's balance as the server sent it (running balances: a 0 is $0.00, never the balance before it).
  const dollars = (v: number) => `${v < 0 ? '-' : ''}$${Math.abs(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  for (const [i, p] of monthData.entries()) await expect(rows.nth(i).getByRole('cell')).toHaveText(dollars(p.Balance));
  // This month's, to date, is the tile's balance as of the business's day.
  await expect(rows.last().getByRole('rowheader')).toHaveText(`${monthData.at(-1)?.Date.slice(0, 7)} (to date)`);
  const asOf = new Date(`${balanceData.AsOf}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  await expect(chart.getByText(`${dollars(monthData.at(-1)?.Balance ?? 0)} as of ${asOf}.`)).toBeVisible();
  expect(monthData.at(-1)?.Balance).toBe(balanceData.Balance);

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

/** The value axis labels of a chart as drawn. */
const axisLabels = (chart: ReturnType<Page['getByTestId']>, axis: 'x' | 'y') => chart.locator(`.apexcharts-${axis}axis-label`).allTextContents();

test('count axes read whole numbers from 0, days are every day, and the cities chart says when it shows the top of them', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  const [cities] = (await openTrends(page, 'finance', ['/api/dashboard/cities/bill'])) as [
    { City: string; NumberOfClaims: number; TotalCities: number; TotalClaims: number }[],
  ];
  const cityChart = page.getByTestId('chart-cities');
  await expect(cityChart.locator('.apexcharts-canvas')).toBeVisible();
  // apexcharts draws the labels from the largest down: in any order, they are whole, unrepeated and start at 0.
  const cityTicks = (await axisLabels(cityChart, 'x')).map((l) => l.trim()).filter(Boolean);
  expect(cityTicks.every((l) => /^\d[\d,]*$/.test(l))).toBe(true);
  expect(Math.min(...cityTicks.map((l) => Number(l.replace(/,/g, ''))))).toBe(0);
  expect(new Set(cityTicks).size).toBe(cityTicks.length);
  const shown = cities.reduce((s, c) => s + c.NumberOfClaims, 0);
  const all = cities[0] as { TotalCities: number; TotalClaims: number };
  if (all.TotalCities > cities.length) {
    await expect(cityChart.getByRole('heading', { name: `Bills by city: top ${cities.length}` })).toBeVisible();
    await expect(
      cityChart.getByText(`${shown} of ${all.TotalClaims} bills from providers in the top ${cities.length} cities of ${all.TotalCities}`),
    ).toBeVisible();
  } else {
    expect(shown).toBe(all.TotalClaims);
    await expect(cityChart.getByText(`${shown} bills from providers in ${cities.length} ${cities.length === 1 ? 'city' : 'cities'}`)).toBeVisible();
  }

  const days = page.waitForResponse((r) => r.url().endsWith('/api/dashboard/claims/time'));
  await page.getByRole('tab', { name: 'By day' }).click();
  const dayData = ((await (await days).json()) as { Data: { Date: string; NumberOfClaims: number }[] }).Data;
  // Every day of the last 12 months, the days without bills as 0.
  expect(dayData.length).toBeGreaterThanOrEqual(366);
  const claims = page.getByTestId('chart-claims');
  await expect(claims.locator('.apexcharts-canvas')).toBeVisible();
  const ticks = (await axisLabels(claims, 'y')).map((l) => l.trim());
  expect(Math.min(...ticks.map((l) => Number(l.replace(/,/g, ''))))).toBe(0);
  expect(new Set(ticks).size).toBe(ticks.length);
  expect(ticks.every((l) => /^\d[\d,]*$/.test(l))).toBe(true);
});

test('the trends page names whose bills and set-aside each group holds, and staff acting for a member get each chart once', async ({ page, browser }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/trend');
  await expect(page.getByRole('region', { name: 'Your bills', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Balance left of your set-aside', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: /every/ })).toHaveCount(0);

  const member = await (await browser.newContext()).newPage();
  await signIn(member, 'card', 'card.careguard');
  const memberId = await member.evaluate(async () => {
    const r = await fetch('/api/account/user/identity', { headers: { authorization: `Bearer ${sessionStorage.getItem('cq.accessToken')}` } });
    return (await r.json()).Data.MemberID as number;
  });
  await member.context().close();

  const staff = await (await browser.newContext()).newPage();
  await signIn(staff, 'staff', 'staff.superuser');
  await staff.goto(site('staff', '/trend'));
  await expect(staff.getByRole('region', { name: 'Bills of every member', exact: true })).toBeVisible();
  // Acting for nobody: the groups of one member's data are left out, and how to choose a member is said once.
  await expect(staff.getByTestId('trends-choose-member')).toHaveText(/^The charts of one member's transactions and bills show once you act for that member/);
  await expect(staff.getByTestId('ledger-no-member')).toHaveCount(0);
  await expect(staff.getByTestId('chart-balance')).toHaveCount(0);
  await staff.getByLabel('Member ID or number to act for').fill(String(memberId));
  await staff.getByRole('button', { name: 'Act for member' }).click();
  await expect(staff.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();
  await expect(staff.getByRole('region', { name: `Bills of member ${memberId}`, exact: true })).toBeVisible();
  await expect(staff.getByRole('region', { name: `Balance left of member ${memberId}'s set-aside`, exact: true })).toBeVisible();
  await expect(staff.getByTestId('chart-bills')).toHaveCount(1);
  await expect(staff.getByTestId('chart-cities')).toHaveCount(1);
  await expect(staff.getByTestId('gauge-admin')).toHaveCount(1);
  await expect(staff.getByTestId('chart-balance')).toHaveCount(1);
  await expect(staff.getByTestId('chart-member-bills')).toHaveCount(0);
  await expect(staff.getByTestId('chart-member-cities')).toHaveCount(0);
  await expect(staff.getByTestId('gauge-account')).toHaveCount(0);
  await expect(staff.getByRole('region', { name: /every|Your/ })).toHaveCount(0);
  await expect(staff.getByTestId('trends-choose-member')).toHaveCount(0);
  await staff.context().close();
});

test('a chart group is busy while its code loads, and no longer once it is in', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  // The admin gauge's code is its own chunk: held, its group shows the skeleton.
  const release = await holdRequests(page, '**/assets/BalanceGauge-*.js');
  await page.goto(site('finance', '/trend'));
  const group = page.locator('[data-trend-group="ledger.adminGauge"]');
  await expect(group).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(page.getByTestId('gauge-admin')).toBeVisible();
  await expect(group).not.toHaveAttribute('aria-busy');
});
