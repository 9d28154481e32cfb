import { Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileApi } from '../contract';

/**
 * The members list's search (POST /api/members/list, support's list, and GET /api/members/list?name=, the member
 * picker): every word of the text in the name, member number or e-mail, whatever the order, commas, spacing, case and
 * accents; or a phone holding the digits of text that reads as a phone number.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let support: Session;

const SEEDED: [number: string, first: string, last: string, email: string, mobile: string | null][] = [
  ['S000111222', 'José', 'Núñez', 'Jose.Nunez@Example.com', '5125550101'],
  ['S000333444', 'ÁLVARO', 'GARCÍA', 'alvaro@example.com', null],
  ['S000121212', 'Zoë', 'Peña', 'zp@example.com', null],
  ['S000777888', 'Anne-Marie', 'Smith Jones', 'am@example.com', null],
  ['S000999000', 'Percent', '100%Test', 'pct@example.com', null],
];

beforeAll(async () => {
  server = await startTestServer();
  await makeUser(server, { userName: 'ms-support', roles: [Roles.CareSupport], brand: 'staff' });
  support = await signIn(server, 'ms-support');
  for (const [number, first, last, email, mobile] of SEEDED) {
    await server.database.sql.query(
      `INSERT INTO members (member_number, brand, first_name, last_name, email, mobile_phone, approved_date) VALUES ($1, 'finance', $2, $3, $4, $5, now())`,
      [number, first, last, email, mobile],
    );
  }
});
afterAll(() => server?.close());

const listed = async (SearchString: string) => {
  const res = await server.app.inject({
    method: 'POST',
    url: ProfileApi.list.path,
    headers: authHeaders(support),
    payload: { Status: 'All', SearchString, PageSize: 50 },
  });
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json().Data as { Items: { FirstName: string; LastName: string }[]; ItemCount: number };
  expect(page.ItemCount).toBe(page.Items.length);
  return page.Items.map((m) => `${m.FirstName} ${m.LastName}`).sort();
};

describe('the members list finds a member however the name is typed', () => {
  it('ignores accents and case: "pena", "zoe", "Zoe Pena" find Zoë Peña; "garcia alvaro" finds ÁLVARO GARCÍA', async () => {
    for (const q of ['pena', 'PEÑA', 'zoe', 'Zoe Pena', 'Zoë Peña']) expect(await listed(q), q).toEqual(['Zoë Peña']);
    expect(await listed('garcia alvaro')).toEqual(['ÁLVARO GARCÍA']);
  });

  it('ignores order, commas and spacing: "Núñez, José", "Núñez José", "José  Núñez", "nunez,jose" find José Núñez', async () => {
    for (const q of ['José Núñez', 'Núñez, José', 'Núñez José', 'José  Núñez', 'nunez,jose']) expect(await listed(q), q).toEqual(['José Núñez']);
  });

  it('splits on hyphens: "Anne Marie" and "marie jones" find Anne-Marie Smith Jones', async () => {
    expect(await listed('Anne Marie')).toEqual(['Anne-Marie Smith Jones']);
    expect(await listed('marie jones')).toEqual(['Anne-Marie Smith Jones']);
  });

  it('still finds by member number and e-mail, and every word must match', async () => {
    expect(await listed('s000111222')).toEqual(['José Núñez']);
    expect(await listed('JOSE.NUNEZ@EXAMPLE.COM')).toEqual(['José Núñez']);
    expect(await listed('100%')).toEqual(['Percent 100%Test']);
    expect(await listed('jose garcia')).toEqual([]);
  });

  it('finds a member by a phone typed any way, a leading country code 1 included', async () => {
    for (const q of ['(512) 555-0101', '512-555-0101', '+1 512 555 0101', '15125550101']) expect(await listed(q), q).toEqual(['José Núñez']);
  });

  it('the picker (GET ?name=) finds the same way', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: `${ProfileApi.list.path}?name=${encodeURIComponent('Núñez, José')}`,
      headers: authHeaders(support),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().Data as { FirstName: string }[]).map((m) => m.FirstName)).toEqual(['José']);
  });

  it('refuses more than 100 characters in the product’s words, in the reader’s language', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: ProfileApi.list.path,
      headers: { ...authHeaders(support), cookie: 'cq.lang=es' },
      payload: { Status: 'All', SearchString: 'x'.repeat(101) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toContain('debe tener como máximo 100 caracteres');
  });
});
