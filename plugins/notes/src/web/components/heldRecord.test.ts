import { nextHeld } from '@portal/web';
import { describe, expect, it } from 'vitest';

const read = { NoteID: 12, NoteText: 'My receipt', Version: 1 };
const theirs = { NoteID: 12, NoteText: 'My receipt (from another tab)', Version: 2 };

describe("a note's edit keeps the note it started from", () => {
  it('Edit takes the note as read; closed (Cancel, a save), nothing is held and the thread shows the live one', () => {
    expect(nextHeld(null, read, 12)).toEqual({ of: 12, record: read });
    expect(nextHeld({ of: 12, record: read }, theirs, null)).toBeNull();
  });

  it("a refetch bringing someone else's Version (reconnect, after a 409) does not start the form over", () => {
    const held = { of: 12, record: read };
    expect(nextHeld(held, theirs, 12)).toBe(held);
  });

  it('Reload lets go of it: the note as read now, with its new Version, is taken', () => {
    expect(nextHeld(null, theirs, 12)).toEqual({ of: 12, record: theirs });
  });

  it('an edit open while the page moved to another note takes that note', () => {
    const other = { NoteID: 13, NoteText: 'Another', Version: 1 };
    expect(nextHeld({ of: 12, record: read }, other, 13)).toEqual({ of: 13, record: other });
  });
});
