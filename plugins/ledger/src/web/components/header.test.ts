import { describe, expect, it } from 'vitest';
import { headerRead, headerRefused, headerTyped, headerUnsaved, storedHeader } from './header';

const loaded = { HICN: '1EG4TE5MK73', DateOfInjury: '2020-01-02', DateOfSettlement: '2021-03-04', HeaderVersion: 1 };
const theirs = { HICN: '9ZZ9ZZ9ZZ99', DateOfInjury: '2020-01-02', DateOfSettlement: '2021-05-06', HeaderVersion: 2 };
const typedHeader = { HICN: '2AB3CD4EF56', DateOfInjury: '2020-01-02', DateOfSettlement: '2021-03-04' };

describe("the report header's copy on the ledger page", () => {
  it('the first read of the member gives the stored header and its HeaderVersion (none stored: empty fields)', () => {
    expect(headerRead(null, loaded)).toEqual({
      header: { HICN: '1EG4TE5MK73', DateOfInjury: '2020-01-02', DateOfSettlement: '2021-03-04' },
      stored: { HICN: '1EG4TE5MK73', DateOfInjury: '2020-01-02', DateOfSettlement: '2021-03-04' },
      version: 1,
      stale: false,
    });
    expect(headerRead(null, { HICN: null, DateOfInjury: null, DateOfSettlement: null, HeaderVersion: 1 }).header).toEqual({
      HICN: '',
      DateOfInjury: '',
      DateOfSettlement: '',
    });
  });

  it("a later read (a row saved, a reconnect) bringing someone else's header keeps the typed values and the version", () => {
    const copy = headerTyped(headerRead(null, loaded), typedHeader);
    expect(headerRead(copy, theirs)).toBe(copy);
  });

  it('a send refused as "header changed" keeps the typed header and its stale HeaderVersion: the next send is refused again', () => {
    const copy = headerTyped(headerRead(null, loaded), typedHeader);
    const refused = headerRefused(copy);
    expect(refused).toEqual({ header: typedHeader, stored: storedHeader(loaded).header, version: 1, stale: true });
    // Typing on and reading the member again do not make it current.
    const retyped = headerTyped(refused, { ...typedHeader, HICN: '3AB3CD4EF56' });
    expect(retyped).toMatchObject({ version: 1, stale: true });
    expect(headerRead(retyped, theirs)).toBe(retyped);
  });

  it('Reload (and a successful send) take the stored header and its HeaderVersion, no longer stale', () => {
    expect(storedHeader(theirs)).toEqual({
      header: { HICN: '9ZZ9ZZ9ZZ99', DateOfInjury: '2020-01-02', DateOfSettlement: '2021-05-06' },
      stored: { HICN: '9ZZ9ZZ9ZZ99', DateOfInjury: '2020-01-02', DateOfSettlement: '2021-05-06' },
      version: 2,
      stale: false,
    });
  });

  it('values typed before the member was read take the first read (no version to send them with)', () => {
    expect(headerRead(headerTyped(null, typedHeader), loaded)).toEqual(storedHeader(loaded));
  });

  it('holds unsaved values while what is typed differs from the header as read, refused or not, until a send or Reload', () => {
    const read = headerRead(null, loaded);
    expect(headerUnsaved(null)).toBe(false);
    expect(headerUnsaved(read)).toBe(false);
    const typed = headerTyped(read, typedHeader);
    expect(headerUnsaved(typed)).toBe(true);
    expect(headerUnsaved(headerRefused(typed))).toBe(true);
    // Typed back as it was read (spaces around the HICN are not kept): nothing to lose.
    expect(headerUnsaved(headerTyped(typed, { ...storedHeader(loaded).header, HICN: ' 1EG4TE5MK73 ' }))).toBe(false);
    expect(headerUnsaved(storedHeader(theirs))).toBe(false);
  });
});
