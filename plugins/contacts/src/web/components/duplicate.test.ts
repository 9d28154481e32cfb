import { describe, expect, it } from 'vitest';
import { DUPLICATE_CONTACT_MESSAGE, STALE_CONTACT_MESSAGE } from '../../contract';
import { duplicateOf } from './duplicate';

/** A failed call as the web's API client throws it: the status and the server's envelope. */
const failure = (status: number, MsgText: string, Data: unknown) =>
  Object.assign(new Error(MsgText), { status, body: { Data, Unwrap: true, MsgText, HasError: true } });

describe('a contact save refused as a duplicate, told from a stale one', () => {
  it('names the contact already there for a 409 whose Data says so', () => {
    expect(duplicateOf(failure(409, DUPLICATE_CONTACT_MESSAGE, { DuplicateContactID: 12 }))).toBe(12);
  });

  it('is null for a stale Version (a 409 with no Data), another status, or anything that is no call failure', () => {
    expect(duplicateOf(failure(409, STALE_CONTACT_MESSAGE, null))).toBeNull();
    expect(duplicateOf(failure(400, 'body.Email: Enter a valid e-mail address.', { DuplicateContactID: 12 }))).toBeNull();
    expect(duplicateOf(failure(409, DUPLICATE_CONTACT_MESSAGE, { DuplicateContactID: 'x' }))).toBeNull();
    expect(duplicateOf(new Error('offline'))).toBeNull();
    expect(duplicateOf(null)).toBeNull();
  });
});
