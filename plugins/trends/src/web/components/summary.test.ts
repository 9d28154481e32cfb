import { type Language, seriesViewer, setFormatLocale } from '@portal/core';
import { createI18n } from '@portal/web/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import type { CityPoint } from '../../contract';
import { withoutOverlaps } from './groups';
import { citiesCut, citySummary, summaryOf } from './summary';

/** The trends catalogue as the portal loads it, in one language. */
async function trends(language: Language) {
  const { i18n, ready } = createI18n({
    plugins: [{ id: 'trends', i18n: { namespace: 'trends', load: (lng) => import(`../i18n/${lng}.json`) } }],
    brand: { copy: {}, displayName: 'CareGuard' },
    language,
  });
  await ready;
  await i18n.loadNamespaces(['trends']);
  return i18n.getFixedT(language, 'trends');
}

afterEach(() => setFormatLocale('en-US'));

const months = (values: number[]) => values.map((value, i) => ({ label: `2026-${String(i + 1).padStart(2, '0')}`, value }));

describe('summaryOf: a series with nothing in it names no "most"', () => {
  it('says there is nothing when every point is 0 (month and quarter series always have their points)', async () => {
    const t = await trends('en');
    expect(summaryOf(t, months(Array(24).fill(0)), 'claims')).toBe('No claims in this period.');
    expect(summaryOf(t, months(Array(8).fill(0)), 'bills')).toBe('No bills in this period.');
    expect(summaryOf(t, [], 'claims')).toBe('No claims in this period.');
  });
  it('names the total and the largest period otherwise', async () => {
    const t = await trends('en');
    expect(summaryOf(t, months([0, 3, 1]), 'claims')).toBe('4 claims in 3 periods; the most, 3, in 2026-02.');
    expect(summaryOf(t, months([0, 12.5]), 'bills')).toBe('$12.50 billed in 2 periods; the most, $12.50, in 2026-02.');
  });
});

const city = (City: string, NumberOfClaims: number, TotalCities: number, TotalClaims: number): CityPoint => ({
  City,
  NumberOfClaims,
  TotalCities,
  TotalClaims,
});

describe('citySummary: the top cities are told from the whole', () => {
  it('says "top N of M" and how many of the bills they hold when cities are left out', async () => {
    const t = await trends('en');
    const top = [city('Austin, TX', 400, 37, 861), city('Baton Rouge, LA', 346, 37, 861)];
    expect(citiesCut(top)).toBe(true);
    expect(citySummary(t, top)).toBe('746 of 861 bills from providers in the top 2 cities of 37; the most, 400, in Austin, TX.');
    expect(t('cities.titleTop', { count: 2 })).toBe('Bills by city: top 2');
    const es = await trends('es');
    setFormatLocale('es-US');
    expect(citySummary(es, top)).toBe('746 de 861 facturas de proveedores en las 2 ciudades principales de 37; el máximo, 400, en Austin, TX.');
  });
  it('reads as the whole when every city is there, and as none when there is no bill', async () => {
    const t = await trends('en');
    const all = [city('Austin, TX', 3, 2, 4), city('Waco, TX', 1, 2, 4)];
    expect(citiesCut(all)).toBe(false);
    expect(citySummary(t, all)).toBe('4 bills from providers in 2 cities; the most, 3, in Austin, TX.');
    expect(citySummary(t, [])).toBe('No bills from providers in a known city in the last 24 months.');
  });
});

describe('the bill groups of /trend: named for whose bills they hold, never twice', () => {
  it("names the finance group every member's only for staff acting for nobody", async () => {
    const t = await trends('en');
    expect(t('trend.bills', seriesViewer(['SuperUser'], null))).toBe('Bills of every member');
    expect(t('trend.bills', seriesViewer(['CareGuardFinance'], 12))).toBe('Your bills');
    expect(t('trend.bills', seriesViewer(['SuperUser'], 42))).toBe('Bills of member 42');
    expect(t('trend.memberBills', seriesViewer(['CareGuard'], 3))).toBe('Your bills');
    expect(t('trend.memberBills', seriesViewer(['CareSupport'], 42))).toBe('Bills of member 42');
    expect(t('bills.memberTitle', seriesViewer(['CareSupport'], 42))).toBe('Bill amounts of member 42 by date');
    expect(t('bills.memberTitle', seriesViewer(['CareGuard'], 3))).toBe('Your bill amounts by date');
    const es = await trends('es');
    expect(es('trend.bills', seriesViewer(['SuperUser'], 42))).toBe('Facturas del miembro 42');
  });
  it("leaves out the member's own bills for a user who sees the finance bills (a SuperUser)", () => {
    const ids = (groups: { id: string }[]) => withoutOverlaps(groups).map((g) => g.id);
    expect(ids([{ id: 'trends.bills' }, { id: 'ledger.adminGauge' }, { id: 'ledger.trend' }, { id: 'trends.memberBills' }])).toEqual([
      'trends.bills',
      'ledger.adminGauge',
      'ledger.trend',
    ]);
    expect(ids([{ id: 'ledger.trend' }, { id: 'trends.memberBills' }])).toEqual(['ledger.trend', 'trends.memberBills']);
  });
  it('marks the current period as to date', async () => {
    expect((await trends('en'))('period.toDate', { label: '2026-12' })).toBe('2026-12 (to date)');
    expect((await trends('es'))('period.toDate', { label: '2026-12' })).toBe('2026-12 (hasta la fecha)');
  });
});
