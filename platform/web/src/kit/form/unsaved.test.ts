import { describe, expect, it } from 'vitest';
import { anyUnsaved, type KeptEdits, keepEditsForTab, keptEdits, valuesText } from './unsaved';

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

describe('keepEditsForTab: stores whose edits outlive the page', () => {
  /** A store with one switch for "holds an edit" and one for "its edit holds changes". */
  function store() {
    const listeners = new Set<() => void>();
    const state = { holds: false, changed: false };
    const kept: KeptEdits = {
      holdsAny: () => state.holds,
      unsaved: () => state.changed,
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const set = (holds: boolean, changed: boolean) => {
      Object.assign(state, { holds, changed });
      for (const l of listeners) l();
    };
    return { kept, set };
  }

  it('answers for every store kept, tells the guard when one opens or ends an edit, and forgets a store given back', () => {
    const a = store();
    const b = store();
    let told = 0;
    const stop = keptEdits.subscribe(() => told++);
    const undoA = keepEditsForTab(a.kept);
    const undoB = keepEditsForTab(b.kept);
    expect(keptEdits.holdsAny()).toBe(false);
    told = 0;
    b.set(true, false);
    expect(told).toBe(1);
    expect(keptEdits.holdsAny()).toBe(true);
    expect(keptEdits.unsaved()).toBe(false);
    b.set(true, true);
    expect(keptEdits.unsaved()).toBe(true);
    undoB();
    expect(keptEdits.holdsAny()).toBe(false);
    expect(keptEdits.unsaved()).toBe(false);
    // A store given back no longer tells the guard anything.
    told = 0;
    b.set(true, true);
    expect(told).toBe(0);
    a.set(true, true);
    expect(keptEdits.unsaved()).toBe(true);
    undoA();
    stop();
  });
});
