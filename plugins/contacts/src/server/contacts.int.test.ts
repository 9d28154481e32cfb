import { Roles } from '@portal/core';
import { CREATE_KEY_REUSED } from '@portal/server';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_NOT_FOUND, type Contact, ContactsApi, DUPLICATE_CONTACT_MESSAGE, STALE_CONTACT_MESSAGE } from '../contract';

/** The contacts API through the whole kernel guard on a fresh database: roles, scoping to the member, validation, versions. */
let server: Awaited<ReturnType<typeof startTestServer>>;
let alice: Session;
let bob: Session;
let support: Session;
let finance: Session;
let quoteUser: Session;
let aliceId: number;
let bobId: number;

type Headers = Record<string, string>;
const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: unknown) =>
  server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const data = <T>(res: { json(): unknown }) => (res.json() as { Data: T }).Data;
const count = async () => (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM contacts'))[0]?.n ?? 0;
const audits = async (action: string) =>
  (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE action = $1', [action]))[0]?.n ?? 0;

const NEW = { FirstName: 'Ana', LastName: 'Reyes', Phone: '(512) 555-0101', Email: 'ana@example.com', ContactTypeID: 2, PhoneTypeID: 3, AddressTypeID: 4 };

beforeAll(async () => {
  server = await startTestServer();
  aliceId = (await makeUser(server, { userName: 'c-alice', roles: [Roles.CareGuardFinance], brand: 'finance', member: true })).memberId as number;
  bobId = (await makeUser(server, { userName: 'c-bob', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
  await makeUser(server, { userName: 'c-support', roles: [Roles.CareSupport], brand: 'staff' });
  await makeUser(server, { userName: 'c-quote', roles: [Roles.CareQuote], brand: 'quote', member: true });
  await makeUser(server, { userName: 'c-finance', roles: [Roles.CareGuardFinance], brand: 'finance' });
  alice = await signIn(server, 'c-alice');
  bob = await signIn(server, 'c-bob');
  support = await signIn(server, 'c-support');
  quoteUser = await signIn(server, 'c-quote');
  finance = await signIn(server, 'c-finance');
});
afterAll(() => server?.close());

describe('contacts: own contacts', () => {
  let created: Contact;

  it('refuses anonymous (401), a role without contacts (403) and a brand without the plugin (404)', async () => {
    expect((await call('POST', ContactsApi.search.path, { host: 'finance.localhost' }, {})).statusCode).toBe(401);
    expect((await call('POST', ContactsApi.search.path, authHeaders(quoteUser, 'finance'), {})).statusCode).toBe(403);
    expect((await call('POST', ContactsApi.search.path, authHeaders(alice, 'quote'), {})).statusCode).toBe(404);
  });

  it('creates a contact for the signed-in member, audited, with Name as "Last, First"', async () => {
    const res = await call('POST', ContactsApi.create.path, authHeaders(alice, 'finance'), NEW);
    expect(res.statusCode, res.body).toBe(200);
    created = data<Contact>(res);
    expect(created).toMatchObject({ MemberID: aliceId, FirstName: 'Ana', LastName: 'Reyes', Name: 'Reyes, Ana', Phone: '5125550101', Version: 1 });
    await server.flushAudit();
    expect(await audits('contacts.contact.create')).toBe(1);
  });

  it('lists only the member’s own contacts, page size 100 by default, filtered by Query', async () => {
    await call('POST', ContactsApi.create.path, authHeaders(bob, 'card'), { FirstName: 'Zed', LastName: 'Other' });
    const mine = data<{ Items: Contact[]; ItemCount: number }>(await call('POST', ContactsApi.search.path, authHeaders(alice, 'finance'), {}));
    expect(mine.ItemCount).toBe(1);
    expect(mine.Items.map((c) => c.ContactID)).toEqual([created.ContactID]);
    const none = data<{ Items: Contact[] }>(await call('POST', ContactsApi.search.path, authHeaders(alice, 'finance'), { Query: 'zed' }));
    expect(none.Items).toEqual([]);
    const found = data<{ Items: Contact[] }>(await call('POST', ContactsApi.search.path, authHeaders(alice, 'finance'), { Query: 'REYES' }));
    expect(found.Items).toHaveLength(1);
    await server.flushAudit();
    expect(await audits('contacts.search')).toBeGreaterThanOrEqual(3);
  });

  it('finds a contact by its phone typed as the grid shows it, or in part; too few digits match no phone', async () => {
    const search = async (Query: string) =>
      data<{ Items: Contact[] }>(await call('POST', ContactsApi.search.path, authHeaders(alice, 'finance'), { Query })).Items.map((c) => c.ContactID);
    for (const Query of ['5125550101', '(512) 555-0101', '555-0101', '(512) 555', '512 555 0101'])
      expect(await search(Query), Query).toEqual([created.ContactID]);
    expect(await search('555-0199')).toEqual([]);
    // Two digits are not enough to search phones by (nearly every number has them); names and e-mail still match.
    expect(await search('(5')).toEqual([]);
    expect(await audits('contacts.search')).toBeGreaterThanOrEqual(3);
  });

  it('reads one by id, audited; another member’s id is 404 and changes nothing', async () => {
    const res = await call('GET', `/api/contacts/getById/${created.ContactID}`, authHeaders(alice, 'finance'));
    expect(res.statusCode).toBe(200);
    expect(data<Contact>(res).ContactID).toBe(created.ContactID);
    await server.flushAudit();
    expect(await audits('contacts.contact.read')).toBe(1);
    expect((await call('GET', `/api/contacts/getById/${created.ContactID}`, authHeaders(bob, 'card'))).statusCode).toBe(404);
    const before = await count();
    const stolen = await call('POST', ContactsApi.update.path, authHeaders(bob, 'card'), {
      ...NEW,
      ContactID: created.ContactID,
      Version: 1,
      FirstName: 'Hacked',
    });
    expect(stolen.statusCode).toBe(404);
    expect(await count()).toBe(before);
    const again = data<Contact>(await call('GET', `/api/contacts/getById/${created.ContactID}`, authHeaders(alice, 'finance')));
    expect(again.FirstName).toBe('Ana');
  });

  it('updates with the current Version and refuses a stale one with 409', async () => {
    const res = await call('POST', ContactsApi.update.path, authHeaders(alice, 'finance'), {
      ...NEW,
      ContactID: created.ContactID,
      Version: 1,
      City: 'Austin',
      StateCodeID: 44,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(data<Contact>(res)).toMatchObject({ City: 'Austin', StateCodeID: 44, Version: 2 });
    const stale = await call('POST', ContactsApi.update.path, authHeaders(alice, 'finance'), {
      ...NEW,
      ContactID: created.ContactID,
      Version: 1,
      City: 'Dallas',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().MsgText ?? stale.body).toContain(STALE_CONTACT_MESSAGE);
    const stored = data<Contact>(await call('GET', `/api/contacts/getById/${created.ContactID}`, authHeaders(alice, 'finance')));
    expect(stored).toMatchObject({ City: 'Austin', Version: 2 });
  });

  it('refuses bad input with 400 naming the field, and stores nothing', async () => {
    const before = await count();
    for (const body of [
      {},
      { FirstName: '', LastName: 'X' },
      { ...NEW, Email: 'not-an-email' },
      { ...NEW, Phone: '123' },
      { ...NEW, ContactTypeID: 99 },
      { ...NEW, StateCodeID: 999 },
      { ...NEW, Zip: 'abc' },
      { ...NEW, FirstName: 'x'.repeat(51) },
    ]) {
      const res = await call('POST', ContactsApi.create.path, authHeaders(alice, 'finance'), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('GET', '/api/contacts/getById/abc', authHeaders(alice, 'finance'))).statusCode).toBe(400);
    expect((await call('POST', ContactsApi.update.path, authHeaders(alice, 'finance'), { ...NEW, ContactID: -1, Version: 1 })).statusCode).toBe(400);
    expect(await count()).toBe(before);
  });

  it('refuses staff acting for nobody (400: the member header is missing) and scopes staff to the impersonated member', async () => {
    expect((await call('POST', ContactsApi.search.path, authHeaders(finance, 'finance'), {})).statusCode).toBe(400);
    const none = await call('POST', ContactsApi.search.path, authHeaders(support, 'staff'), {});
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Choose a member to act for first.');
    const asAlice = authHeaders(support, 'staff', { 'x-member-id': String(aliceId) });
    const list = data<{ Items: Contact[] }>(await call('POST', ContactsApi.search.path, asAlice, {}));
    expect(list.Items.map((c) => c.ContactID)).toEqual([created.ContactID]);
    const add = await call('POST', ContactsApi.create.path, asAlice, { FirstName: 'Staff', LastName: 'Added' });
    expect(data<Contact>(add).MemberID).toBe(aliceId);
    const asBob = authHeaders(support, 'staff', { 'x-member-id': String(bobId) });
    expect((await call('GET', `/api/contacts/getById/${created.ContactID}`, asBob)).statusCode).toBe(404);
  });
});

describe('contacts: support reads of a named member', () => {
  it('lists and reads a member’s contacts for CareSupport; members are refused (403)', async () => {
    const res = await call('POST', `/api/contacts/search/${aliceId}`, authHeaders(support, 'staff'), {});
    expect(res.statusCode, res.body).toBe(200);
    const items = data<{ Items: Contact[] }>(res).Items;
    expect(items.length).toBe(2);
    expect(items.every((c) => c.MemberID === aliceId)).toBe(true);
    const one = await call('GET', `/api/contacts/getById/${aliceId}/${items[0]?.ContactID}`, authHeaders(support, 'staff'));
    expect(one.statusCode).toBe(200);
    expect((await call('GET', `/api/contacts/getById/${bobId}/${items[0]?.ContactID}`, authHeaders(support, 'staff'))).statusCode).toBe(404);
    expect((await call('POST', `/api/contacts/search/${aliceId}`, authHeaders(bob, 'card'), {})).statusCode).toBe(403);
    expect((await call('POST', '/api/contacts/search/999999', authHeaders(support, 'staff'), {})).statusCode).toBe(404);
    expect((await call('POST', '/api/contacts/search/0', authHeaders(support, 'staff'), {})).statusCode).toBe(400);
  });

  it('refuses a member other than the impersonated one', async () => {
    const res = await call('POST', `/api/contacts/search/${aliceId}`, authHeaders(support, 'staff', { 'x-member-id': String(bobId) }), {});
    expect(res.statusCode).toBe(403);
  });
});

describe("contacts: messages in the user's language", () => {
  it('refuses in Spanish for a Spanish request: a stale version, an unknown contact, staff acting for nobody or for another member', async () => {
    const es = (s: Session, brand: string, extra: Headers = {}) => authHeaders(s, brand, { cookie: 'cq.lang=es', ...extra });
    const made = data<Contact>(await call('POST', ContactsApi.create.path, authHeaders(alice, 'finance'), { FirstName: 'Eva', LastName: 'Soto' }));
    const stale = await call('POST', ContactsApi.update.path, es(alice, 'finance'), {
      FirstName: 'Eva',
      LastName: 'Soto',
      ContactID: made.ContactID,
      Version: 9,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().MsgText).toBe('Otra persona cambió este contacto. Vuelva a cargarlo y haga su cambio de nuevo.');
    const missing = await call('GET', `/api/contacts/getById/${made.ContactID}`, es(bob, 'card'));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().MsgText).toBe('No se encontró el contacto.');
    const nobody = await call('POST', ContactsApi.search.path, es(support, 'staff'), {});
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().MsgText).toBe('Su cuenta no tiene contactos propios. Primero elija el miembro en cuyo nombre actuará.');
    const other = await call('POST', `/api/contacts/search/${aliceId}`, es(support, 'staff', { 'x-member-id': String(bobId) }), {});
    expect(other.statusCode).toBe(403);
    expect(other.json().MsgText).toBe('Está actuando en nombre de otro miembro. Primero deje de actuar en su nombre.');
    const unknown = await call('POST', '/api/contacts/search/999999', es(support, 'staff'), {});
    expect(unknown.json().MsgText).toBe('No se encontró el miembro.');
    // English without the choice.
    expect((await call('GET', `/api/contacts/getById/${made.ContactID}`, authHeaders(bob, 'card'))).json().MsgText).toBe(CONTACT_NOT_FOUND);
  });
});

describe('contacts: a create sent again with its IdempotencyKey adds the contact once', () => {
  const asAlice = () => authHeaders(alice, 'finance');
  const created = async () => {
    await server.flushAudit();
    return audits('contacts.contact.create');
  };

  it('answers the contact the first create made for the same key and body, adding no contact and no audit row', async () => {
    const body = { FirstName: 'Rita', LastName: 'Lost', Phone: '5125550199', IdempotencyKey: 'contact-retry-0001' };
    const first = await call('POST', ContactsApi.create.path, asAlice(), body);
    expect(first.statusCode, first.body).toBe(200);
    const [contacts, audited] = [await count(), await created()];
    const again = await call('POST', ContactsApi.create.path, asAlice(), body);
    expect(again.statusCode, again.body).toBe(200);
    expect(data<Contact>(again)).toEqual(data<Contact>(first));
    expect([await count(), await created()]).toEqual([contacts, audited]);
  });

  it('refuses the key with another contact, or for another member, with 409 and adds nothing', async () => {
    const key = 'contact-retry-0002';
    expect((await call('POST', ContactsApi.create.path, asAlice(), { FirstName: 'Sam', LastName: 'First', IdempotencyKey: key })).statusCode).toBe(200);
    const [contacts, audited] = [await count(), await created()];
    const other = await call('POST', ContactsApi.create.path, asAlice(), { FirstName: 'Sam', LastName: 'Second', IdempotencyKey: key });
    expect(other.statusCode).toBe(409);
    expect(other.json().MsgText).toBe(CREATE_KEY_REUSED);
    // Staff acting for one member, then for another, with the same key and contact.
    const same = { FirstName: 'Tom', LastName: 'Twice', IdempotencyKey: 'contact-retry-0003' };
    const forAlice = await call('POST', ContactsApi.create.path, authHeaders(support, 'staff', { 'x-member-id': String(aliceId) }), same);
    expect(forAlice.statusCode).toBe(200);
    const forBob = await call('POST', ContactsApi.create.path, authHeaders(support, 'staff', { 'x-member-id': String(bobId) }), same);
    expect(forBob.statusCode).toBe(409);
    expect([await count(), await created()]).toEqual([contacts + 1, audited + 1]);
  });

  it('adds a contact for each create without a key, and keeps keys apart by user', async () => {
    const before = await count();
    // Two people of one name, told apart by their phones (the same contact twice is refused: its own tests below).
    const body = { FirstName: 'Una', LastName: 'Keyless', Phone: '5125550170' };
    const [a, b] = [
      await call('POST', ContactsApi.create.path, asAlice(), body),
      await call('POST', ContactsApi.create.path, asAlice(), { ...body, Phone: '5125550171' }),
    ];
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(data<Contact>(a).ContactID).not.toBe(data<Contact>(b).ContactID);
    const keyed = { FirstName: 'Una', LastName: 'Keyed', IdempotencyKey: 'contact-retry-0004' };
    const mine = await call('POST', ContactsApi.create.path, asAlice(), keyed);
    const bobs = await call('POST', ContactsApi.create.path, authHeaders(bob, 'card'), keyed);
    expect([mine.statusCode, bobs.statusCode]).toEqual([200, 200]);
    expect(data<Contact>(bobs)).toMatchObject({ MemberID: bobId });
    expect(await count()).toBe(before + 4);
  });

  it('refuses a bad key with 400 naming it, and adds nothing', async () => {
    const before = await count();
    for (const IdempotencyKey of ['x', 'has spaces in it', 'k'.repeat(101), 42]) {
      const res = await call('POST', ContactsApi.create.path, asAlice(), { ...NEW, IdempotencyKey });
      expect(res.statusCode, String(IdempotencyKey)).toBe(400);
      expect(res.body).toContain('IdempotencyKey');
    }
    expect(await count()).toBe(before);
  });
});

describe('contacts: the same contact added twice', () => {
  let carla: Session;
  let carlaId: number;
  const asCarla = () => authHeaders(carla, 'card');
  const carlas = async () =>
    (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM contacts WHERE member_id = $1', [carlaId]))[0]?.n ?? 0;
  const DR = { FirstName: 'José', LastName: 'Núñez', Phone: '5125550123', Email: 'jose@example.com', ContactTypeID: 3 };
  let first: Contact;

  beforeAll(async () => {
    carlaId = (await makeUser(server, { userName: 'c-carla', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
    carla = await signIn(server, 'c-carla');
    first = data<Contact>(await call('POST', ContactsApi.create.path, asCarla(), DR));
  });

  it('refuses a second add of a contact the member has (409 naming it), case, accents, spacing and phone punctuation aside; adds nothing', async () => {
    await server.flushAudit();
    const [before, audited] = [await carlas(), await audits('contacts.contact.create')];
    for (const again of [
      DR,
      { ...DR, FirstName: '  JOSE ', LastName: 'nunez', Phone: '(512) 555-0123', Email: null },
      { ...DR, Phone: null, Email: 'JOSE@example.com' },
      // Another key is another submission: the key does not make a second copy either.
      { ...DR, IdempotencyKey: 'contact-dup-0001' },
    ]) {
      const res = await call('POST', ContactsApi.create.path, asCarla(), again);
      expect(res.statusCode, JSON.stringify(again)).toBe(409);
      expect(res.json().MsgText).toBe(DUPLICATE_CONTACT_MESSAGE);
      expect(res.json().Data).toEqual({ DuplicateContactID: first.ContactID });
    }
    await server.flushAudit();
    expect([await carlas(), await audits('contacts.contact.create')]).toEqual([before, audited]);
    // The key of the refused create was not spent: it adds another contact.
    const other = await call('POST', ContactsApi.create.path, asCarla(), { ...DR, FirstName: 'Josefa', IdempotencyKey: 'contact-dup-0001' });
    expect(other.statusCode, other.body).toBe(200);
  });

  it('says it in Spanish for a Spanish request, and refuses staff acting for the member the same way', async () => {
    const es = await call('POST', ContactsApi.create.path, authHeaders(carla, 'card', { cookie: 'cq.lang=es' }), DR);
    expect(es.statusCode).toBe(409);
    expect(es.json().MsgText).toBe('Este contacto ya está en su lista.');
    const staff = await call('POST', ContactsApi.create.path, authHeaders(support, 'staff', { 'x-member-id': String(carlaId) }), DR);
    expect(staff.statusCode).toBe(409);
    expect(staff.json().Data).toEqual({ DuplicateContactID: first.ContactID });
  });

  it('adds one of another type, another name, another way to reach them, or for another member', async () => {
    for (const body of [
      { ...DR, ContactTypeID: 1 },
      { ...DR, FirstName: 'Jose Luis' },
      { ...DR, Phone: '5125550124', Email: 'jluis@example.com' },
      { ...DR, Phone: null, Email: null },
    ]) {
      const res = await call('POST', ContactsApi.create.path, asCarla(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
    }
    expect((await call('POST', ContactsApi.create.path, authHeaders(bob, 'card'), DR)).statusCode).toBe(200);
  });

  it('refuses an update that would make a contact another one the member has; other changes, and changes of a pair stored before, go through', async () => {
    const other = data<Contact>(await call('POST', ContactsApi.create.path, asCarla(), { ...DR, FirstName: 'Pepe', Phone: '5125550125', Email: null }));
    const res = await call('POST', ContactsApi.update.path, asCarla(), { ...DR, ContactID: other.ContactID, Version: other.Version });
    expect(res.statusCode).toBe(409);
    expect(res.json().MsgText).toBe(DUPLICATE_CONTACT_MESSAGE);
    expect(res.json().Data).toEqual({ DuplicateContactID: first.ContactID });
    const kept = data<Contact>(await call('GET', `/api/contacts/getById/${other.ContactID}`, asCarla()));
    expect(kept).toMatchObject({ FirstName: 'Pepe', Version: other.Version });
    // The contact itself, saved with its name typed otherwise and a new city: not a duplicate of itself.
    const own = await call('POST', ContactsApi.update.path, asCarla(), { ...DR, FirstName: 'JOSÉ', City: 'Austin', ContactID: first.ContactID, Version: 1 });
    expect(own.statusCode, own.body).toBe(200);
    // Two copies stored before the check existed: a change that leaves them as alike as they were is not refused.
    await server.database.sql.query(
      "INSERT INTO contacts (member_id, first_name, last_name, phone, email, contact_type_id) VALUES ($1, 'Old', 'Twin', '5125550126', NULL, 1), ($1, 'Old', 'Twin', '5125550126', NULL, 1)",
      [carlaId],
    );
    const twins = data<{ Items: Contact[] }>(await call('POST', ContactsApi.search.path, asCarla(), { Query: 'old twin' })).Items;
    expect(twins).toHaveLength(2);
    const [twin] = twins;
    if (!twin) throw new Error('no twin');
    const moved = await call('POST', ContactsApi.update.path, asCarla(), { ...twin, City: 'Dallas' });
    expect(moved.statusCode, moved.body).toBe(200);
  });

  it('lets one of four adds of the same contact at once through, refusing the others: the check and the add are one step', async () => {
    const before = await carlas();
    const same = { FirstName: 'Concurrent', LastName: 'Caller', Phone: '5125550127' };
    const answers = await Promise.all(Array.from({ length: 4 }, () => call('POST', ContactsApi.create.path, asCarla(), same)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await carlas()).toBe(before + 1);
  });
});
