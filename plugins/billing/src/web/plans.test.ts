import { type Language, setFormatLocale } from '@portal/core';
import { createI18n } from '@portal/web/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { MEMBERSHIP_KEYS } from '../contract';
import { formatPlanPrice, planLabel } from './plans';

/** The billing and registration catalogues as the portal loads them, in one language. */
async function catalogues(language: Language) {
  const { i18n, ready } = createI18n({
    plugins: [
      { id: 'billing', i18n: { namespace: 'billing', load: (lng) => import(`./i18n/${lng}.json`) } },
      { id: 'registration', i18n: { namespace: 'registration', load: (lng) => import(`../../../registration/src/web/i18n/${lng}.json`) } },
    ],
    brand: { copy: {}, displayName: 'CareGuard' },
    language,
  });
  await ready;
  await i18n.loadNamespaces(['billing', 'registration']);
  return { billing: i18n.getFixedT(language, 'billing'), registration: i18n.getFixedT(language, 'registration') };
}

afterEach(() => setFormatLocale('en-US'));

describe('the membership types’ price labels (spec 01 section 3)', () => {
  it('reads 1 month, $12/month; 1 year, $125/annually; Lifetime, $1,000 in billing and in the registration wizard', async () => {
    const { billing, registration } = await catalogues('en');
    const expected = ['1 month, $12/month', '1 year, $125/annually', 'Lifetime, $1,000'];
    expect(MEMBERSHIP_KEYS.map((k) => planLabel(billing, k))).toEqual(expected);
    expect(MEMBERSHIP_KEYS.map((k) => planLabel(registration, k, 'subscription.prices'))).toEqual(expected);
  });

  it('words them in Spanish with the same amounts', async () => {
    const { billing, registration } = await catalogues('es');
    expect(MEMBERSHIP_KEYS.map((k) => planLabel(billing, k))).toEqual(['1 mes, $12/mes', '1 año, $125/anual', 'Vitalicia, $1,000']);
    expect(MEMBERSHIP_KEYS.map((k) => planLabel(registration, k, 'subscription.prices'))).toEqual([
      '1 mes, $12/mes',
      '1 año, $125/anual',
      'De por vida, $1,000',
    ]);
  });

  it('shows whole dollars with grouping, and cents only when the price has them', () => {
    expect(formatPlanPrice(100_000, 'en-US')).toBe('$1,000');
    expect(formatPlanPrice(1_200, 'en-US')).toBe('$12');
    expect(formatPlanPrice(1_250, 'en-US')).toBe('$12.50');
    expect(formatPlanPrice(100_000, 'es-US')).toBe('$1,000');
  });
});
