import { type Language, seriesViewer, setFormatLocale } from '@portal/core';
import { createI18n } from '@portal/web/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { balanceSummary, monthLabels, toDateLabels } from './balanceLabels';
import { adminBalanceText } from './share';

/** The ledger's catalogue as the portal loads it, in one language. */
async function ledger(language: Language) {
  const { i18n, ready } = createI18n({
    plugins: [{ id: 'ledger', i18n: { namespace: 'ledger', load: (lng) => import(`../i18n/${lng}.json`) } }],
    brand: { copy: {}, displayName: 'CareGuard' },
    language,
  });
  await ready;
  await i18n.loadNamespaces(['ledger']);
  return i18n.getFixedT(language, 'ledger');
}

afterEach(() => setFormatLocale('en-US'));

describe("the dashboard's balance by month: months by name, this one as of the business's day", () => {
  it('labels each month-end balance with its month, and the last with the day it is as of', async () => {
    const t = await ledger('en');
    expect(monthLabels(t, ['2026-10-01', '2026-11-01', '2026-12-01'], '2026-12-01')).toEqual(['Oct 2026', 'Nov 2026', 'Dec 2026, as of Dec 1, 2026']);
    // Until the account balance answers, the last month reads "to date".
    expect(monthLabels(t, ['2026-11-01', '2026-12-01'], null)).toEqual(['Nov 2026', 'Dec 2026 (to date)']);
  });
  it("in the page's language", async () => {
    setFormatLocale('es-US');
    const t = await ledger('es');
    const labels = monthLabels(t, ['2026-11-01', '2026-12-01'], '2026-12-01');
    expect(labels[0]).toMatch(/^nov\.? 2026$/);
    expect(labels[1]).toMatch(/^dic\.? 2026, al 1 dic 2026$/);
  });
});

describe("the /trend balance chart: the server's balances as they are, the last month to date", () => {
  it('says a depleted account is at $0.00 as of the day, not the balance before it', async () => {
    const t = await ledger('en');
    // The server's running balances: $500 set aside, $300 after a $200 expense, $0.00 once the last $300 went.
    const points = [500, 500, 300, 300, 0].map((value) => ({ value }));
    expect(balanceSummary(t, points, '2026-12', '2026-12-01')).toBe(
      'The balance at the end of each of 5 months, the last one to date: $0.00 as of Dec 1, 2026.',
    );
    expect(balanceSummary(t, points, '2026-12', null)).toBe('The balance at the end of each of 5 months, the last one to date: $0.00 so far in 2026-12.');
    expect(balanceSummary(t, [], '', null)).toBe('No balance yet.');
  });
  it('marks the last period of a series to date', async () => {
    const t = await ledger('en');
    expect(toDateLabels(t, ['2026-10', '2026-11', '2026-12'])).toEqual(['2026-10', '2026-11', '2026-12 (to date)']);
    expect(toDateLabels(await ledger('es'), ['2026 T4'])).toEqual(['2026 T4 (hasta la fecha)']);
  });
});

describe('whose set-aside the admin balance and the gauges name', () => {
  it("says 'your account' to the member, the member's number to staff acting for one", async () => {
    const t = await ledger('en');
    const text = adminBalanceText('member', 40);
    expect(t(text.key, { ...text.values, ...seriesViewer(['CareGuardFinance'], 5), initial: '$1,000.00', count: 1 })).toBe(
      '40% left of the $1,000.00 set aside on your account.',
    );
    expect(t(text.key, { ...text.values, ...seriesViewer(['SuperUser'], 42), initial: '$1,000.00', count: 1 })).toBe(
      '40% left of the $1,000.00 set aside for member 42.',
    );
    expect(t('trend.gauge.adminTitle', seriesViewer(['SuperUser'], null))).toBe('Balance left of every set-aside');
    expect(t('trend.gauge.adminTitle', seriesViewer(['CareGuardFinance'], 5))).toBe('Balance left of your set-aside');
    expect(t('trend.gauge.adminTitle', seriesViewer(['SuperUser'], 42))).toBe("Balance left of member 42's set-aside");
    expect(t('trend.gauge.accountTitle', seriesViewer(['CareSupport'], 42))).toBe("Balance left of member 42's set-aside");
  });
});
