import { Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContactSearchResult, ContactsApi } from '../contract';

/**
 * The contacts grid's search: every word of the text in the name, e-mail or phone, or the name of the contact's type
 * in the reader's language, whatever the order, commas, spacing, case and accents; text typed as a phone number
 * (a leading country code 1 included) finds the phone by its digits.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let alice: Session;

beforeAll(async () => {
  server = await startTestServer();
  const aliceId = (await makeUser(server, { userName: 'cs-alice', roles: [Roles.CareGuardFinance], brand: 'finance', member: true })).memberId as number;
  alice = await signIn(server, 'cs-alice');
  await server.database.sql.query(
    `INSERT INTO contacts (member_id, first_name, last_name, phone, email, contact_type_id) VALUES
       ($1, 'Íñigo', 'Muñoz', '5125550101', 'Inigo@Example.com', 1),
       ($1, 'Bob', 'Stone', '2145550199', null, 4),
       ($1, 'Greg', 'House', null, null, 3)`,
    [aliceId],
  );
});
afterAll(() => server?.close());

const found = async (Query: string, language = 'en') => {
  const res = await server.app.inject({
    method: 'POST',
    url: ContactsApi.search.path,
    headers: { ...authHeaders(alice, 'finance'), cookie: `cq.lang=${language}` },
    payload: { Query },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().Data as ContactSearchResult).Items.map((c) => c.Name).sort();
};

describe('contacts search', () => {
  it('ignores accents, order, commas and spacing', async () => {
    for (const q of ['munoz', 'inigo', 'Muñoz, Íñigo', 'inigo munoz', 'INIGO@EXAMPLE.COM']) expect(await found(q), q).toEqual(['Muñoz, Íñigo']);
    for (const q of ['Stone Bob', 'Stone,Bob', 'bob  stone']) expect(await found(q), q).toEqual(['Stone, Bob']);
    expect(await found('bob munoz')).toEqual([]);
  });

  it('finds a phone typed any way, with or without the country code 1', async () => {
    for (const q of ['(512) 555-0101', '512-555-0101', '555 0101', '+1 512 555 0101', '1-512-555-0101', '15125550101', '+1 (512) 555-0101']) {
      expect(await found(q), q).toEqual(['Muñoz, Íñigo']);
    }
    expect(await found('555')).toEqual(['Muñoz, Íñigo', 'Stone, Bob']);
  });

  it('finds contacts by the type the grid shows, in the reader’s language', async () => {
    for (const q of ['physician', 'Physician', 'phys', 'house physician']) expect(await found(q), q).toEqual(['House, Greg']);
    expect(await found('pharmacy')).toEqual(['Stone, Bob']);
    expect(await found('medico', 'es')).toEqual(['House, Greg']);
    expect(await found('Médico', 'es')).toEqual(['House, Greg']);
    expect(await found('familiar munoz', 'es')).toEqual(['Muñoz, Íñigo']);
    expect(await found('family bob')).toEqual([]);
  });

  it('refuses more than 100 characters in the product’s words', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: ContactsApi.search.path,
      headers: { ...authHeaders(alice, 'finance'), cookie: 'cq.lang=es' },
      payload: { Query: 'x'.repeat(101) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toContain('debe tener como máximo 100 caracteres');
  });
});
