import { describe, expect, it } from 'vitest';
import { ProfileMessages } from '../../contract';
import { duplicateAddressOf } from './addressForm';

/** A failed call as the web's API client throws it: the status and the server's envelope. */
const failure = (status: number, MsgText: string, Data: unknown) =>
  Object.assign(new Error(MsgText), { status, body: { Data, Unwrap: true, MsgText, HasError: true } });

describe('an address save refused as a duplicate, told from a stale one', () => {
  it('names the address already there for a 409 whose Data says so', () => {
    expect(duplicateAddressOf(failure(409, ProfileMessages.addressDuplicate, { DuplicateAddressID: 7 }))).toBe(7);
  });

  it('is null for a stale Version (a 409 with no Data), another status, or anything that is no call failure', () => {
    expect(duplicateAddressOf(failure(409, ProfileMessages.addressStale, null))).toBeNull();
    expect(duplicateAddressOf(failure(404, ProfileMessages.addressNotFound, { DuplicateAddressID: 7 }))).toBeNull();
    expect(duplicateAddressOf(new Error('offline'))).toBeNull();
    expect(duplicateAddressOf(undefined)).toBeNull();
  });
});
