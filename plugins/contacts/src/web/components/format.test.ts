import { LOOKUP_ITEMS, LookupCategory } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { lookupValue } from './format';

/** As the kit's useLookupLabel names items in Spanish: its own names, else the server's value. */
const SPANISH: Record<string, string> = { 'Phone Type 3': 'Celular', 'Address Type 4': 'Casa' };
const spanish = (item: { Category: string; Key: number; Value: string }) => SPANISH[`${item.Category} ${item.Key}`] ?? item.Value;

describe('contact lookup values', () => {
  it("shows a contact's phone and address types by the page's names, not the server's English", () => {
    expect(lookupValue(spanish, LOOKUP_ITEMS, LookupCategory.PhoneType, 3)).toBe('Celular');
    expect(lookupValue(spanish, LOOKUP_ITEMS, LookupCategory.AddressType, 4)).toBe('Casa');
    expect(lookupValue(spanish, LOOKUP_ITEMS, LookupCategory.StateCode, 1)).toBe('AL');
  });

  it('shows nothing for no value, or for a key the lookup cache does not have', () => {
    expect(lookupValue(spanish, LOOKUP_ITEMS, LookupCategory.PhoneType, null)).toBe('');
    expect(lookupValue(spanish, LOOKUP_ITEMS, LookupCategory.PhoneType, 42)).toBe('');
    expect(lookupValue(spanish, [], LookupCategory.PhoneType, 3)).toBe('');
  });
});
