import { describe, expect, it } from 'vitest';
import { CONTACT_TYPE_IDS, CONTACT_TYPE_NAMES, contactCreateSchema, contactDisplayName } from './contract';
import serverEs from './server/i18n/es.json';
import webEn from './web/i18n/en.json';
import webEs from './web/i18n/es.json';

describe('contactDisplayName', () => {
  it("shows 'Last, First', or either alone", () => {
    expect(contactDisplayName({ FirstName: 'Ana', LastName: 'Reyes' })).toBe('Reyes, Ana');
    expect(contactDisplayName({ FirstName: ' Ana ', LastName: '' })).toBe('Ana');
    expect(contactDisplayName({ FirstName: null, LastName: 'Reyes' })).toBe('Reyes');
    expect(contactDisplayName({})).toBe('');
  });
});

describe('contactCreateSchema', () => {
  it('keeps phone digits, treats empty optional fields as absent and refuses unknown lookup keys', () => {
    const ok = contactCreateSchema.parse({ FirstName: 'Ana', LastName: 'Reyes', Phone: '(512) 555-0101', Email: '', Zip: '', StateCodeID: '44' });
    expect(ok).toMatchObject({ Phone: '5125550101', Email: null, Zip: null, StateCodeID: 44 });
    expect(contactCreateSchema.safeParse({ FirstName: 'Ana', LastName: 'Reyes', PhoneTypeID: 9 }).success).toBe(false);
    expect(contactCreateSchema.safeParse({ FirstName: 'Ana', LastName: 'Reyes', Zip: '1234' }).success).toBe(false);
  });
});

describe('the create’s IdempotencyKey (ours, not the spec’s)', () => {
  it('is optional, trimmed, 8 to 100 letters, digits or - _ . :', () => {
    const contact = { FirstName: 'Ana', LastName: 'Reyes' };
    expect(contactCreateSchema.parse(contact).IdempotencyKey).toBeUndefined();
    expect(contactCreateSchema.parse({ ...contact, IdempotencyKey: ' contact-1a2b3c4d ' }).IdempotencyKey).toBe('contact-1a2b3c4d');
    for (const bad of ['x', 'has spaces in it', 'contact/1a2b3c4d', 'k'.repeat(101), 42]) {
      expect(contactCreateSchema.safeParse({ ...contact, IdempotencyKey: bad }).error?.issues[0]?.path, JSON.stringify(bad)).toEqual(['IdempotencyKey']);
    }
  });
});

describe('the contact types’ names the search matches', () => {
  it('are the names the grid shows, in English and in Spanish', () => {
    for (const id of CONTACT_TYPE_IDS) {
      const english = CONTACT_TYPE_NAMES[id];
      expect(webEn.type[id], `type ${id}`).toBe(english);
      expect((serverEs as Record<string, string>)[english], `type ${id}`).toBe(webEs.type[id]);
    }
  });
});
