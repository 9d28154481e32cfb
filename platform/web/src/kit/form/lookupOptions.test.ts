import { LOOKUP_ITEMS, LookupCategory, US_STATES } from '@portal/core';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import kitEn from '../i18n/en.json';
import kitEs from '../i18n/es.json';
import { findLookupLabel, type LookupLabel, lookupDefault, lookupKey, lookupLabel, lookupNames, lookupOptions, stateName, stateOptions } from './lookupOptions';

/** The kit's strings in one language, as the app loads them (fallbackLng false: nothing falls back to English). */
function kitT(language: 'en' | 'es') {
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: language,
    fallbackLng: false,
    resources: { en: { kit: kitEn }, es: { kit: kitEs } },
    initAsync: false,
    showSupportNotice: false,
  });
  return i18n.getFixedT(language, 'kit');
}

function kitLabel(language: 'en' | 'es'): LookupLabel {
  const t = kitT(language);
  return (item) => lookupLabel(t, item);
}

describe('lookup options', () => {
  it('filters by category in sort order and finds the default', () => {
    const items = [
      { Category: LookupCategory.PhoneType, Key: 3, Value: 'Mobile', Sort: 3, IsDefault: true },
      { Category: LookupCategory.PhoneType, Key: 1, Value: 'Home', Sort: 1, IsDefault: false },
      { Category: LookupCategory.NoteType, Key: 9, Value: 'Other', Sort: 0, IsDefault: false },
    ];
    expect(lookupOptions(items, LookupCategory.PhoneType, (item) => item.Value)).toEqual([
      { value: 1, label: 'Home' },
      { value: 3, label: 'Mobile' },
    ]);
    expect(lookupDefault(items, LookupCategory.PhoneType)).toBe(3);
    expect(lookupDefault(items, LookupCategory.NoteType)).toBeUndefined();
    expect(lookupDefault(LOOKUP_ITEMS, LookupCategory.AddressType)).toBe(4);
  });

  it('lists states by abbreviation, named and sorted in the page language', () => {
    const en = stateOptions(kitT('en'), 'en');
    const es = stateOptions(kitT('es'), 'es');
    expect(en.find((o) => o.value === 'DC')?.label).toBe('District Of Columbia');
    expect(es.find((o) => o.value === 'DC')?.label).toBe('Distrito de Columbia');
    expect(es.find((o) => o.value === 'NY')?.label).toBe('Nueva York');
    // Every state, DC and territory once, in each language's alphabetical order ('Carolina del Norte' among the C's).
    for (const options of [en, es]) {
      expect(options.map((o) => o.value).sort()).toEqual(US_STATES.map((s) => s.abbreviation).sort());
      expect(options.map((o) => o.label)).toEqual(options.map((o) => o.label).sort(new Intl.Collator(options === en ? 'en' : 'es').compare));
    }
    expect(es.findIndex((o) => o.value === 'NC')).toBeLessThan(es.findIndex((o) => o.value === 'CO'));
  });

  it("names a state in the page's language from its abbreviation, English exactly as the core's list, an unknown one as given", () => {
    const [en, es] = [kitT('en'), kitT('es')];
    for (const s of US_STATES) {
      expect(stateName(en, s.abbreviation)).toBe(s.name);
      expect(stateName(es, s.abbreviation), s.abbreviation).toBeTruthy();
    }
    expect(stateName(es, 'LA')).toBe('Luisiana');
    expect(stateName(es, 'ZZ')).toBe('ZZ');
  });
});

describe('lookup names in the page language', () => {
  const es = kitLabel('es');
  const en = kitLabel('en');

  it('keys a name by the category as LookupCategory names it', () => {
    expect(lookupKey(LookupCategory.ClaimStatus, 8)).toBe('lookup.ClaimStatus.8');
    expect(lookupKey(LookupCategory.BillEntryType, 21)).toBe('lookup.BillEntryType.21');
  });

  it('shows the options of a LookupSelectField in Spanish, keeping the keys the server sent', () => {
    expect(lookupOptions(LOOKUP_ITEMS, LookupCategory.PhoneType, es)).toEqual([
      { value: 1, label: 'Casa' },
      { value: 2, label: 'Trabajo' },
      { value: 3, label: 'Celular' },
    ]);
    expect(lookupOptions(LOOKUP_ITEMS, LookupCategory.AddressType, es).map((o) => o.label)).toEqual([
      'Facturación',
      'Envío',
      'Correspondencia',
      'Casa',
      'Trabajo',
    ]);
    expect(lookupOptions(LOOKUP_ITEMS, LookupCategory.AddressType, en).map((o) => o.label)).toEqual(['Billing', 'Shipping', 'Mailing', 'Home', 'Work']);
  });

  it('names claim statuses and bill types by key, and finds one item', () => {
    const statuses = lookupNames(
      LOOKUP_ITEMS.filter((i) => i.Category === LookupCategory.ClaimStatus),
      es,
    );
    expect(statuses.get(8)).toBe('Pagada');
    expect(statuses.get(2)).toBe('En revisión');
    expect(findLookupLabel(LOOKUP_ITEMS, LookupCategory.BillEntryType, 21, es)).toBe('Receta');
    expect(findLookupLabel(LOOKUP_ITEMS, LookupCategory.BillEntryType, 99, es)).toBeUndefined();
  });

  it("shows the server's value for an item the kit has no name for (a new key, a state, a vendor)", () => {
    expect(es({ Category: LookupCategory.ClaimStatus, Key: 77, Value: 'On Hold' })).toBe('On Hold');
    expect(findLookupLabel(LOOKUP_ITEMS, LookupCategory.StateCode, 1, es)).toBe('AL');
    expect(findLookupLabel(LOOKUP_ITEMS, LookupCategory.PbmVendor, 2, es)).toBe('Express Scripts');
  });

  it("words every item of the kit's lookup categories in English exactly as the server does, and has each in Spanish", () => {
    const byCategory = kitEn.lookup as Record<string, Record<string, string>>;
    const spanish = kitEs.lookup as Record<string, Record<string, string>>;
    for (const [category, names] of Object.entries(byCategory)) {
      const name = LookupCategory[category as keyof typeof LookupCategory];
      expect(name, `lookup.${category} is not a LookupCategory`).toBeDefined();
      const items = LOOKUP_ITEMS.filter((i) => i.Category === name);
      expect(Object.fromEntries(items.map((i) => [String(i.Key), i.Value]))).toEqual(names);
      for (const item of items) expect(spanish[category]?.[String(item.Key)], `${category} ${item.Key}`).toBeTruthy();
    }
  });
});
