import { Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupportApi, type SupportTransaction } from '../contract';

/**
 * The search boxes of support's lists: the transactions grid finds a charge by every word of the text in its ids,
 * description, status or member (name, number, e-mail), whatever the order, commas, case and accents; by the status
 * name the grid shows (Paid for Charged); and by its amount typed as money. Text longer than the box is refused in the
 * product's words.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let support: Session;

beforeAll(async () => {
  server = await startTestServer();
  await makeUser(server, { userName: 'ss-support', roles: [Roles.CareSupport], brand: 'staff' });
  support = await signIn(server, 'ss-support');
  const member = async (number: string, first: string, last: string, email: string) =>
    (
      await server.database.sql.query<{ member_id: number }>(
        `INSERT INTO members (member_number, brand, first_name, last_name, email) VALUES ($1, 'finance', $2, $3, $4) RETURNING member_id`,
        [number, first, last, email],
      )
    )[0]?.member_id;
  const jose = await member('R000111222', 'José', 'Núñez', 'Jose.Nunez@Example.com');
  const alvaro = await member('R000333444', 'ÁLVARO', 'GARCÍA', 'alvaro@example.com');
  await server.database.sql.query(
    `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, pa_number, message) VALUES
       ($1, 'charge', 'Charged', 1250, 'Prescription copay', null, 'ok'),
       ($2, 'charge', 'Declined', 120000, 'Monthly membership', 'PA-77', 'no'),
       ($2, 'charge', 'Voided', 4000, 'Lab work', null, 'ok')`,
    [jose, alvaro],
  );
});
afterAll(() => server?.close());

/** The charges the grid lists for a search (every status), as 'Last amount status'. */
const listed = async (SearchString: string, language = 'en') => {
  const res = await server.app.inject({
    method: 'POST',
    url: SupportApi.transactions.path,
    headers: { ...authHeaders(support), cookie: `cq.lang=${language}` },
    payload: { Query: { Status: 'All', SearchString } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().Data.Items as SupportTransaction[]).map((t) => `${t.Member.LastName} ${t.Amount} ${t.Status}`).sort();
};

describe("support's transactions search", () => {
  it('finds the member by name in any order, with or without accents or commas, and by e-mail', async () => {
    for (const q of ['josé núñez', 'Núñez, José', 'nunez jose', 'Jose.Nunez@Example.com', 'jose.nunez', 'r000111222']) {
      expect(await listed(q), q).toEqual(['Núñez 12.5 Charged']);
    }
    expect(await listed('garcia')).toEqual(['GARCÍA 1200 Declined', 'GARCÍA 40 Voided']);
  });

  it('finds a charge by its amount typed as money: "12.50", "$12.50", "1,200", "1200", "$1,200.00"', async () => {
    for (const q of ['12.50', '$12.50', '$ 12.5', '12,50']) expect(await listed(q), q).toEqual(['Núñez 12.5 Charged']);
    for (const q of ['1,200', '1200', '$1,200.00']) expect(await listed(q), q).toEqual(['GARCÍA 1200 Declined']);
    expect(await listed('$99.99')).toEqual([]);
  });

  it('finds a status by the name the grid shows, in the reader’s language: Paid is Charged, Refunded is Voided too', async () => {
    expect(await listed('Paid')).toEqual(['Núñez 12.5 Charged']);
    expect(await listed('refunded')).toEqual(['GARCÍA 40 Voided']);
    expect(await listed('pagada', 'es')).toEqual(['Núñez 12.5 Charged']);
    expect(await listed('reembolsada garcia', 'es')).toEqual(['GARCÍA 40 Voided']);
    expect(await listed('paid garcia')).toEqual([]);
  });

  it('refuses more than 100 characters in the product’s words (transactions and members)', async () => {
    for (const [url, payload] of [
      [SupportApi.transactions.path, { Query: { Status: 'All', SearchString: 'x'.repeat(101) } }],
      [SupportApi.members.path, { Query: { SearchString: 'x'.repeat(101) } }],
    ] as const) {
      const res = await server.app.inject({ method: 'POST', url, headers: { ...authHeaders(support), cookie: 'cq.lang=es' }, payload });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().MsgText, url).toContain('debe tener como máximo 100 caracteres');
    }
  });
});

describe("support's members search", () => {
  it('finds a member by a name typed "Last, First" without accents', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: SupportApi.members.path,
      headers: authHeaders(support),
      payload: { Query: { Status: 'All', SearchString: 'Nunez, Jose' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data.Items.map((m: { LastName: string }) => m.LastName)).toEqual(['Núñez']);
  });
});
