import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import es from '../i18n/es.json';

/** The coupon view's "Used by" row (detail.usedBy, plural by count), as i18next picks the form: Intl's plural rules. */
const usedBy = (catalogue: typeof en, language: 'en' | 'es', count: number) => {
  const form = new Intl.PluralRules(language).select(count) === 'one' ? 'usedBy_one' : 'usedBy_other';
  return `${catalogue.fields.UsedBy}: ${catalogue.detail[form].replace('{{count}}', String(count))}`;
};

describe("the coupon view's count of members using it", () => {
  it('says how many members in English and Spanish, one and many', () => {
    expect([0, 1, 3].map((n) => usedBy(en, 'en', n))).toEqual(['Used by: 0 members', 'Used by: 1 member', 'Used by: 3 members']);
    expect([0, 1, 3].map((n) => usedBy(es, 'es', n))).toEqual(['Usado por: 0 miembros', 'Usado por: 1 miembro', 'Usado por: 3 miembros']);
  });
});
