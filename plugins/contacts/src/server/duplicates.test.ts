import { describe, expect, it } from 'vitest';
import { identityChanged, sameContact } from './duplicates';

const ana = { FirstName: 'Ana', LastName: 'Núñez', Email: 'ana@example.com', Phone: '5125550101', ContactTypeID: 2 };

describe('the same contact, twice', () => {
  it('is the same type and name, case, accents and spacing aside, with the same e-mail or the same phone digits', () => {
    expect(sameContact(ana, { ...ana })).toBe(true);
    expect(sameContact(ana, { ...ana, FirstName: '  ANA ', LastName: 'nunez' })).toBe(true);
    expect(sameContact({ ...ana, FirstName: 'Mary  Ann' }, { ...ana, FirstName: 'mary ann' })).toBe(true);
    expect(sameContact(ana, { ...ana, Email: 'ANA@Example.com', Phone: '5125550199' })).toBe(true);
    expect(sameContact(ana, { ...ana, Email: 'other@example.com', Phone: '(512) 555-0101' })).toBe(true);
    expect(sameContact(ana, { ...ana, Email: null })).toBe(true);
  });

  it('is the same for two of one name and type that neither has an e-mail nor a phone for', () => {
    const bare = { FirstName: 'Una', LastName: 'Keyless' };
    expect(sameContact(bare, { ...bare, Email: '', Phone: null, ContactTypeID: null })).toBe(true);
  });

  it('is another contact of another type, name, or with nothing in common to reach them by', () => {
    expect(sameContact(ana, { ...ana, ContactTypeID: 3 })).toBe(false);
    expect(sameContact(ana, { ...ana, ContactTypeID: null })).toBe(false);
    expect(sameContact(ana, { ...ana, FirstName: 'Anabel' })).toBe(false);
    expect(sameContact(ana, { ...ana, FirstName: 'Núñez', LastName: 'Ana' })).toBe(false);
    expect(sameContact(ana, { ...ana, Email: 'other@example.com', Phone: '5125550199' })).toBe(false);
    // One reached by phone only and one by e-mail only: nothing says they are one person.
    expect(sameContact({ ...ana, Email: null }, { ...ana, Phone: null })).toBe(false);
    // One with a phone and one with nothing at all.
    expect(sameContact({ ...ana, Email: null }, { ...ana, Email: null, Phone: null })).toBe(false);
  });
});

describe("an update's change of what tells a contact apart", () => {
  it('is a change of type, name, e-mail or phone as compared; the address, letter case or spacing are none', () => {
    expect(identityChanged(ana, { ...ana, FirstName: ' ana ', Email: 'ANA@example.com' })).toBe(false);
    expect(identityChanged(ana, { ...ana, ContactTypeID: 1 })).toBe(true);
    expect(identityChanged(ana, { ...ana, LastName: 'Reyes' })).toBe(true);
    expect(identityChanged(ana, { ...ana, Email: null })).toBe(true);
    expect(identityChanged(ana, { ...ana, Phone: '5125550199' })).toBe(true);
  });
});
