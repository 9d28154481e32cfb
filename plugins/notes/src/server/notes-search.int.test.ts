import { Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NoteSearchResult, NotesApi } from '../contract';

/**
 * The notes list's search box and the toolbar's search of notes: every word of the text in the note or its author's
 * name, whatever the order, commas, spacing, case and accents.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let alice: Session;

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: 'America/Chicago' });
  const aliceId = (await makeUser(server, { userName: 'ns-alice', roles: [Roles.CareGuardFinance], brand: 'finance', member: true })).memberId as number;
  alice = await signIn(server, 'ns-alice');
  await server.database.sql.query(
    `INSERT INTO notes (member_id, note_text, author_name, author_kind) VALUES
       ($1, 'Mi cita es MAÑANA en la CLÍNICA', 'Ana Pérez', 'Staff'),
       ($1, 'Refund my card please', 'Member', 'Member'),
       ($1, 'Discount 100% applied', 'Member', 'Member')`,
    [aliceId],
  );
});
afterAll(() => server?.close());

/** The notes' texts the list's search and the toolbar's search find, each sorted. */
async function found(q: string) {
  const res = await server.app.inject({ method: 'POST', url: NotesApi.search.path, headers: authHeaders(alice, 'finance'), payload: { Query: q } });
  expect(res.statusCode, res.body).toBe(200);
  const list = (res.json().Data as NoteSearchResult).Items.map((n) => n.NoteText).sort();
  const toolbar = await server.app.inject({
    method: 'GET',
    url: `${NotesApi.globalSearch.path}?q=${encodeURIComponent(q)}`,
    headers: authHeaders(alice, 'finance'),
  });
  expect(toolbar.statusCode, toolbar.body).toBe(200);
  expect((toolbar.json().Data as { NoteText: string }[]).map((n) => n.NoteText).sort(), `toolbar ${q}`).toEqual(list);
  return list;
}

describe('notes search', () => {
  it('needs every word, in any order and with any spacing: "card refund" finds "Refund my card please"', async () => {
    for (const q of ['card refund', 'refund  my', 'PLEASE, refund', 'refund card']) expect(await found(q), q).toEqual(['Refund my card please']);
    expect(await found('card clinic')).toEqual([]);
  });

  it('ignores accents: "clinica", "manana", "perez ana" find the note with CLÍNICA by Ana Pérez', async () => {
    for (const q of ['clinica', 'manana', 'perez ana', 'Clínica']) expect(await found(q), q).toEqual(['Mi cita es MAÑANA en la CLÍNICA']);
  });

  it('matches % and _ only as themselves', async () => {
    expect(await found('100%')).toEqual(['Discount 100% applied']);
    expect(await found('__')).toEqual([]);
  });
});
