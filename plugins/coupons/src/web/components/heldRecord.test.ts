import { nextHeld } from '@portal/web';
import { describe, expect, it } from 'vitest';

const read = { ID: 5, Code: 'SPRING', Version: 2 };
const theirs = { ID: 5, Code: 'SPRING-26', Version: 3 };

describe("a coupon's edit keeps the coupon it started from", () => {
  it('takes the coupon once it is read', () => {
    expect(nextHeld(null, undefined, '5')).toBeNull();
    expect(nextHeld(null, read, '5')).toEqual({ of: '5', record: read });
  });

  it("a refetch bringing someone else's Version (reconnect, after a 409) does not start the form over", () => {
    const held = { of: '5', record: read };
    expect(nextHeld(held, theirs, '5')).toBe(held);
  });

  it('Reload lets go of it: the coupon as read now, with its new Version, is taken', () => {
    expect(nextHeld(null, theirs, '5')).toEqual({ of: '5', record: theirs });
  });

  it("the edit of another coupon (the address changed) takes that one's", () => {
    const other = { ID: 6, Code: 'FALL', Version: 1 };
    expect(nextHeld({ of: '5', record: read }, other, '6')).toEqual({ of: '6', record: other });
  });
});
