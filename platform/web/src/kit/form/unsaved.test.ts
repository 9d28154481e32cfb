import { describe, expect, it } from 'vitest';
import { valuesText } from './unsaved';

describe('valuesText: the form values a leave guard compares', () => {
  it('the same values give the same text, and any changed field another', () => {
    expect(valuesText({ a: 'x', b: 1 })).toBe(valuesText({ a: 'x', b: 1 }));
    expect(valuesText({ a: 'x', b: 1 })).not.toBe(valuesText({ a: 'y', b: 1 }));
  });

  it('a file picked after the last Save is a change (JSON alone sees every File as {})', () => {
    const receipt = new File(['one'], 'receipt.pdf', { lastModified: 1 });
    const other = new File(['other'], 'scan.pdf', { lastModified: 1 });
    expect(valuesText({ Files: [receipt] })).not.toBe(valuesText({ Files: [other] }));
    expect(valuesText({ Files: [receipt] })).toBe(valuesText({ Files: [new File(['one'], 'receipt.pdf', { lastModified: 1 })] }));
    expect(valuesText({ Files: [receipt] })).not.toBe(valuesText({ Files: [] }));
  });
});
