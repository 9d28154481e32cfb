import { LOOKUP_ITEMS, LookupCategory } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { lookupDefault, lookupOptions, STATE_OPTIONS } from './lookupOptions';

describe('lookup options', () => {
  it('filters by category in sort order and finds the default', () => {
    const items = [
      { Category: LookupCategory.PhoneType, Key: 3, Value: 'Mobile', Sort: 3, IsDefault: true },
      { Category: LookupCategory.PhoneType, Key: 1, Value: 'Home', Sort: 1, IsDefault: false },
      { Category: LookupCategory.NoteType, Key: 9, Value: 'Other', Sort: 0, IsDefault: false },
    ];
    expect(lookupOptions(items, LookupCategory.PhoneType)).toEqual([
      { value: 1, label: 'Home' },
      { value: 3, label: 'Mobile' },
    ]);
    expect(lookupDefault(items, LookupCategory.PhoneType)).toBe(3);
    expect(lookupDefault(items, LookupCategory.NoteType)).toBeUndefined();
    expect(lookupDefault(LOOKUP_ITEMS, LookupCategory.AddressType)).toBe(4);
  });

  it('lists states by abbreviation', () => {
    expect(STATE_OPTIONS.find((o) => o.value === 'DC')?.label).toBe('District Of Columbia');
  });
});
