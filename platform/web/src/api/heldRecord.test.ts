import { describe, expect, it } from 'vitest';
import { nextHeld } from './heldRecord';

const read = { ContactID: 7, FirstName: 'Ana', Version: 3 };
const theirs = { ContactID: 7, FirstName: 'Anna', Version: 4 };

describe("a contact's open edit keeps the contact it started from", () => {
  it('opening the edit takes the contact as read; closed, nothing is held (the view shows the live one)', () => {
    expect(nextHeld(null, read, 7)).toEqual({ of: 7, record: read });
    expect(nextHeld({ of: 7, record: read }, theirs, null)).toBeNull();
  });

  it("a refetch bringing someone else's Version (reconnect, after a 409) does not replace it: typed values and Version stay", () => {
    const held = { of: 7, record: read };
    expect(nextHeld(held, theirs, 7)).toBe(held);
  });

  it('released (Reload after the 409), it takes the contact as read now, with its new Version', () => {
    expect(nextHeld(null, theirs, 7)).toEqual({ of: 7, record: theirs });
  });

  it('holds nothing until the contact is read, and a new contact (nothing read) holds nothing', () => {
    expect(nextHeld(null, undefined, 7)).toBeNull();
    expect(nextHeld(null, undefined, 'new')).toBeNull();
  });

  it('an edit opened for another contact does not keep the first one', () => {
    expect(nextHeld({ of: 7, record: read }, { ...theirs, ContactID: 8 }, 8)).toEqual({ of: 8, record: { ...theirs, ContactID: 8 } });
  });
});
