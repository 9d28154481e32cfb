import type { Language } from '@portal/core';
import { createI18n } from '@portal/web/i18n';
import { describe, expect, it } from 'vitest';

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

describe("the ledger table's caption counts its transactions in the singular and the plural", () => {
  const range = { from: '01/01/2026', to: '12/31/2026' };
  it('in English', async () => {
    const t = await ledger('en');
    expect(t('caption', { count: 1, ...range })).toBe('1 transaction from 01/01/2026 to 12/31/2026');
    expect(t('caption', { count: 2, ...range })).toBe('2 transactions from 01/01/2026 to 12/31/2026');
    expect(t('caption', { count: 0, ...range })).toBe('0 transactions from 01/01/2026 to 12/31/2026');
  });
  it('in Spanish', async () => {
    const t = await ledger('es');
    expect(t('caption', { count: 1, ...range })).toBe('1 transacción del 01/01/2026 al 12/31/2026');
    expect(t('caption', { count: 2, ...range })).toBe('2 transacciones del 01/01/2026 al 12/31/2026');
  });
});
