import { createInstance, type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { CLAIM_TYPE_IDS, REIMBURSEMENT_PAYEE } from '../../contract';
import en from '../i18n/en.json';
import es from '../i18n/es.json';
import { claimTypeChoice, claimTypeName, daysAgo, money, monthsAgo, statusName } from './format';
import { shownPayee } from './payee';

describe('claims display helpers', () => {
  it('shows statuses 29 and 30 as paid (8)', () => {
    const names = new Map([
      [8, 'Paid'],
      [29, 'Non Redeemed Payment'],
      [30, 'Ready for Reissue'],
      [2, 'In Review'],
    ]);
    expect(statusName(names, 29)).toBe('Paid');
    expect(statusName(names, 30)).toBe('Paid');
    expect(statusName(names, 2)).toBe('In Review');
  });
  it('formats money as dollars with 2 decimals and grouping, and leaves no amount empty', () => {
    expect(money(12.5)).toBe('$12.50');
    expect(money(16824.6)).toBe('$16,824.60');
    expect(money(null)).toBe('');
  });
  it('computes the default ranges: 6 months and 90 days back', () => {
    const now = new Date(2026, 10, 21);
    expect(monthsAgo(6, now)).toBe('2026-05-21');
    expect(daysAgo(90, now)).toBe('2026-08-23');
  });
  it('counts months back to the same day, or to the last day of a month too short for it (no overflow into the next)', () => {
    // Noon local time (the machine's zone, whichever it is): the day the user sees.
    const on = (iso: string) => {
      const [y, m, d] = iso.split('-').map(Number);
      return new Date(y as number, (m as number) - 1, d, 12);
    };
    expect(monthsAgo(6, on('2026-08-28'))).toBe('2026-02-28');
    expect(monthsAgo(6, on('2026-08-29'))).toBe('2026-02-28');
    expect(monthsAgo(6, on('2026-08-30'))).toBe('2026-02-28');
    expect(monthsAgo(6, on('2026-08-31'))).toBe('2026-02-28');
    expect(monthsAgo(6, on('2028-08-31'))).toBe('2028-02-29');
    expect(monthsAgo(6, on('2026-10-31'))).toBe('2026-04-30');
    expect(monthsAgo(6, on('2026-12-31'))).toBe('2026-06-30');
    expect(monthsAgo(6, on('2026-03-31'))).toBe('2025-09-30');
    expect(monthsAgo(6, on('2026-05-31'))).toBe('2025-11-30');
    expect(monthsAgo(6, on('2026-07-31'))).toBe('2026-01-31');
    expect(monthsAgo(120, on('2028-02-29'))).toBe('2018-02-28');
    expect(monthsAgo(120, on('2028-02-28'))).toBe('2018-02-28');
    // The user's own day: a minute after midnight local time is that day, whatever the UTC day.
    expect(monthsAgo(6, new Date(2026, 7, 31, 0, 1))).toBe('2026-02-28');
    expect(monthsAgo(6, new Date(2026, 7, 31, 23, 59))).toBe('2026-02-28');
  });
});

describe("a bill's payee as the pages show it", () => {
  const t = ((key: string) => (key === 'payee.reimbursement' ? 'Reembolso al miembro' : key)) as unknown as TFunction;
  it("shows a reimbursement's payee in the reader's language", () => {
    expect(shownPayee(t, { PayeeID: null, PayeeName: REIMBURSEMENT_PAYEE })).toBe('Reembolso al miembro');
  });
  it('shows any other payee as stored, a shared payee of that name too', () => {
    expect(shownPayee(t, { PayeeID: null, PayeeName: 'Dr. Ruiz' })).toBe('Dr. Ruiz');
    expect(shownPayee(t, { PayeeID: 7, PayeeName: REIMBURSEMENT_PAYEE })).toBe(REIMBURSEMENT_PAYEE);
  });
});

describe("the bill form's claim types", () => {
  it.each([
    ['en', en],
    ['es', es],
  ])('offers every claim type under a name of its own (%s), and the list keeps the display names', async (lng, strings) => {
    const i18n = createInstance();
    await i18n.init({ lng, resources: { [lng]: { claims: strings } }, defaultNS: 'claims' });
    const choices = CLAIM_TYPE_IDS.map((id) => claimTypeChoice(i18n.t, id));
    expect(new Set(choices).size).toBe(CLAIM_TYPE_IDS.length);
    // The form names CMS-1500 and UB04 apart; the bills list shows both as the spec's one name.
    expect(claimTypeName(i18n.t, 1)).toBe(claimTypeName(i18n.t, 2));
    expect(claimTypeChoice(i18n.t, 3)).toBe(claimTypeName(i18n.t, 3));
  });
});
