import { nextHeld } from '@portal/web';
import { describe, expect, it } from 'vitest';

const read = { Id: 4, Version: 2, FeeAmount: 100 };
const theirs = { Id: 4, Version: 3, FeeAmount: 250 };

describe('the workbench keeps the saved quote it was opened from', () => {
  it('a new quote (no id) holds nothing; a saved one is taken once read', () => {
    expect(nextHeld(null, undefined, null)).toBeNull();
    expect(nextHeld(null, undefined, 4)).toBeNull();
    expect(nextHeld(null, read, 4)).toEqual({ of: 4, record: read });
  });

  it("a refetch bringing another tab's save (reconnect, once stale) does not reset the form: typed values and Version stay", () => {
    const held = { of: 4, record: read };
    expect(nextHeld(held, theirs, 4)).toBe(held);
  });

  it('Reload or a save lets go of it: the quote as stored now, with its new Version, is taken', () => {
    expect(nextHeld(null, theirs, 4)).toEqual({ of: 4, record: theirs });
  });

  it('a new quote saved moves to its own id, and the workbench takes the saved one', () => {
    const created = { Id: 9, Version: 1, FeeAmount: 0 };
    expect(nextHeld(null, created, 9)).toEqual({ of: 9, record: created });
  });
});
