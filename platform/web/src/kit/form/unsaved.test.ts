import { describe, expect, it } from 'vitest';
import { anyUnsaved, valuesText } from './unsaved';

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

describe('anyUnsaved: what a move, or a sign-out, would lose', () => {
  const entry = (changed: boolean, keptAcrossPages: boolean) => ({ check: () => changed, keptAcrossPages });
  it('a move to another page loses only what the parts do not keep themselves', () => {
    expect(anyUnsaved([entry(true, true)], true)).toBe(false);
    expect(anyUnsaved([entry(true, true), entry(true, false)], true)).toBe(true);
  });
  it('a sign-out or closing the tab loses everything, kept or not; nothing changed loses nothing', () => {
    expect(anyUnsaved([entry(true, true)], false)).toBe(true);
    expect(anyUnsaved([entry(false, false), entry(false, true)], false)).toBe(false);
  });
});
