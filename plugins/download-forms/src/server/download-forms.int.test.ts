import { Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadFormsApi } from '../contract';

/** The download-forms call through the whole kernel guard: the caller's variant's letters, filled for the acting member. */
let server: Awaited<ReturnType<typeof startTestServer>>;
let finance: Session;
let guard: Session;
let support: Session;
let financeId: number;

const get = (id: string | number, headers: Record<string, string>) =>
  server.app.inject({ method: 'GET', url: `${DownloadFormsApi.getByID.path}?id=${id}`, headers });
const pdfText = async (raw: Buffer) => (await extractText(await getDocumentProxy(new Uint8Array(raw)), { mergePages: true })).text;

beforeAll(async () => {
  server = await startTestServer();
  const f = await makeUser(server, { userName: 'forms-finance', roles: [Roles.CareGuardFinance], brand: 'finance', member: true });
  financeId = f.memberId ?? 0;
  finance = await signIn(server, 'forms-finance', undefined, '10.0.0.1', 'finance');
  await makeUser(server, { userName: 'forms-guard', roles: [Roles.CareGuard], brand: 'card', member: true });
  guard = await signIn(server, 'forms-guard', undefined, '10.0.0.1', 'card');
  await makeUser(server, { userName: 'forms-support', roles: [Roles.CareSupport], brand: 'staff' });
  support = await signIn(server, 'forms-support');
  await server.database.sql.query('UPDATE members SET first_name = $2, last_name = $3 WHERE member_id = $1', [financeId, 'Rosa', 'Delgado']);
  await server.database.sql.query(
    "INSERT INTO profile_addresses (member_id, address1, address2, city, state, zip, is_current) VALUES ($1, '12 Elm St', 'Apt 4', 'Tulsa', 'OK', '74103', true)",
    [financeId],
  );
});
afterAll(() => server?.close());

describe('GET /api/downloadforms/getByID', () => {
  it('answers 401 anonymous, 403 to a role without a forms screen, 400 on a bad id', async () => {
    expect((await get(1, { host: 'finance.localhost' })).statusCode).toBe(401);
    expect((await get(1, authHeaders(support, 'staff'))).statusCode).toBe(403);
    expect((await get('1.5', authHeaders(finance))).statusCode).toBe(400);
  });

  it("fills a finance letter with the member's name, member number and address", async () => {
    const res = await get(1, authHeaders(finance));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-filename']).toBe('authorization-to-release-information.pdf');
    const number = (await server.database.sql.query<{ n: string }>('SELECT member_number AS n FROM members WHERE member_id = $1', [financeId]))[0]?.n ?? '-';
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'Authorization to Release Information',
      'Rosa Delgado',
      number,
      '12 Elm St',
      'Apt 4',
      'Tulsa, OK 74103',
      'CareGuard Finance',
      'Page 1 of',
    ]) {
      expect(text).toContain(expected);
    }
    expect((await get(2, authHeaders(finance))).statusCode).toBe(200);
  });

  it("answers 404 for another variant's letter and a letter that does not exist", async () => {
    expect((await get(3, authHeaders(finance))).statusCode).toBe(404);
    expect((await get(1, authHeaders(guard))).statusCode).toBe(404);
    expect((await get(99, authHeaders(finance))).statusCode).toBe(404);
    const own = await get(3, authHeaders(guard));
    expect(own.statusCode, own.body).toBe(200);
    expect(await pdfText(own.rawPayload)).toContain('No address on file');
  });
});

describe("messages in the user's language", () => {
  const es = { cookie: 'cq.lang=es' };

  it('refuses a Spanish request in Spanish', async () => {
    const missing = await get(99, authHeaders(finance, undefined, es));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().MsgText).toBe('No se encontró el formulario.');
    await makeUser(server, { userName: 'forms-nomember', roles: [Roles.CareGuardFinance], brand: 'finance', member: false });
    const nobody = await signIn(server, 'forms-nomember', undefined, '10.0.0.1', 'finance');
    const none = await get(1, authHeaders(nobody, undefined, es));
    expect(none.statusCode).toBe(400);
    // Advice a member can follow (only staff act for a member, and staff have no forms screen): the brand's phone.
    expect(none.json().MsgText).toBe('Su cuenta todavía no tiene un registro de miembro, por lo que no tiene formularios. Llámenos al (800) 555-0140.');
    expect((await get(1, authHeaders(nobody))).json().MsgText).toBe(
      'Your account has no member record yet, so it has no forms. Please call us at (800) 555-0140.',
    );
  });

  it("writes the letter in Spanish for a Spanish reader: title, labels, text, the member's data as given, footer", async () => {
    const letter = await get(1, authHeaders(finance, undefined, es));
    expect(letter.statusCode, letter.body).toBe(200);
    // The file's name stays English and stable.
    expect(letter.headers['x-filename']).toBe('authorization-to-release-information.pdf');
    const text = await pdfText(letter.rawPayload);
    for (const expected of [
      'Autorización para divulgar información',
      'Número de miembro',
      'Dirección',
      'Autorizo que CareGuard Finance reciba',
      'Firma:',
      'Rosa Delgado',
      'Tulsa, OK 74103',
      'Página 1 de',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Authorization to Release Information');
    expect(text).not.toContain('Page 1 of');
  });

  it('translates a computed word in the letter: a member without an address', async () => {
    const own = await get(3, authHeaders(guard, undefined, es));
    expect(own.statusCode, own.body).toBe(200);
    const text = await pdfText(own.rawPayload);
    for (const expected of ['Carta de disputa de la tarjeta prepagada', 'Miembro', 'No hay dirección registrada', 'Página 1 de'])
      expect(text).toContain(expected);
    expect(text).not.toContain('No address on file');
  });
});

describe('a membership that has ended', () => {
  it('refuses every letter, the enrollment letter first, with 409 once the termination date has come, in English and Spanish', async () => {
    const { memberId } = await makeUser(server, { userName: 'forms-ended', roles: [Roles.CareAssist], brand: 'assist', member: true });
    const ended = await signIn(server, 'forms-ended', undefined, '10.0.0.1', 'assist');
    await server.database.sql.query("UPDATE members SET termination_date = now() - interval '3 days' WHERE member_id = $1", [memberId]);
    for (const id of [5, 6]) {
      const res = await get(id, authHeaders(ended));
      expect(res.statusCode, String(id)).toBe(409);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json().MsgText).toBe('Your membership has ended, so these forms can no longer be downloaded. Questions? Call us at (800) 555-0150.');
    }
    const es = await get(5, authHeaders(ended, undefined, { cookie: 'cq.lang=es' }));
    expect(es.statusCode).toBe(409);
    expect(es.json().MsgText).toBe(
      'Su membresía terminó, por lo que estos formularios ya no se pueden descargar. ¿Tiene preguntas? Llámenos al (800) 555-0150.',
    );
  });

  it('still gives the letters while a termination is only scheduled', async () => {
    const { memberId } = await makeUser(server, { userName: 'forms-leaving', roles: [Roles.CareAssist], brand: 'assist', member: true });
    const leaving = await signIn(server, 'forms-leaving', undefined, '10.0.0.1', 'assist');
    await server.database.sql.query("UPDATE members SET termination_date = now() + interval '10 days' WHERE member_id = $1", [memberId]);
    expect((await get(5, authHeaders(leaving))).statusCode).toBe(200);
  });
});

describe("the phone a message gives: the member's brand's", () => {
  it("is the member's brand's, not the site's, when the member signs in on another brand's site: the letter and the refusal", async () => {
    // A CareGuard member of the assist brand ((800) 555-0150, CareAssist) signed in on the card site ((800) 555-0170).
    const { memberId } = await makeUser(server, { userName: 'forms-elsewhere', roles: [Roles.CareGuard], brand: 'card', member: true });
    await server.database.sql.query("UPDATE members SET brand = 'assist' WHERE member_id = $1", [memberId]);
    const elsewhere = await signIn(server, 'forms-elsewhere', undefined, '10.0.0.1', 'card');
    const letter = await get(3, authHeaders(elsewhere));
    expect(letter.statusCode, letter.body).toBe(200);
    const text = await pdfText(letter.rawPayload);
    expect(text).toContain('Questions? Call CareAssist at (800) 555-0150.');
    expect(text).not.toContain('(800) 555-0170');
    await server.database.sql.query("UPDATE members SET termination_date = now() - interval '1 day' WHERE member_id = $1", [memberId]);
    const ended = await get(3, authHeaders(elsewhere));
    expect(ended.statusCode).toBe(409);
    expect(ended.json().MsgText).toBe('Your membership has ended, so these forms can no longer be downloaded. Questions? Call us at (800) 555-0150.');
  });
});
