import { Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NoteSearchResult, NotesApi } from '../contract';

/**
 * The notes list's search box and the toolbar's search of notes: every word of the text in the note or its author's
 * name, or in who wrote it as the pages say it (Member, Support team), whatever the order, commas, spacing, case and
 * accents.
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
       ($1, 'Discount 100% applied', 'Member', 'Member'),
       ($1, 'Thanks for the help', 'Alicia Gómez', 'Member'),
       ($1, 'We paid the bill', 'Bruno Staffer', 'Staff')`,
    [aliceId],
  );
});
afterAll(() => server?.close());

/** The notes' texts the list's search and the toolbar's search find, each sorted (`extra`: more headers, the language). */
async function found(q: string, extra: Record<string, string> = {}) {
  const headers = authHeaders(alice, 'finance', extra);
  const res = await server.app.inject({ method: 'POST', url: NotesApi.search.path, headers, payload: { Query: q } });
  expect(res.statusCode, res.body).toBe(200);
  const list = (res.json().Data as NoteSearchResult).Items.map((n) => n.NoteText).sort();
  const toolbar = await server.app.inject({ method: 'GET', url: `${NotesApi.globalSearch.path}?q=${encodeURIComponent(q)}`, headers });
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

describe('notes search by who wrote the note, as the pages say it', () => {
  const STAFF_NOTES = ['Mi cita es MAÑANA en la CLÍNICA', 'We paid the bill'];
  const MEMBER_NOTES = ['Discount 100% applied', 'Refund my card please', 'Thanks for the help'];

  it('finds the staff\'s notes by "support", "support team" or part of it, as the pages show them (Support team)', async () => {
    for (const q of ['support', 'support team', 'SUPPORT,  Team', 'team', 'supp']) expect(await found(q), q).toEqual(STAFF_NOTES);
    // With the other words still required: the author's name, or the text.
    expect(await found('support team ana')).toEqual(['Mi cita es MAÑANA en la CLÍNICA']);
    expect(await found('paid support')).toEqual(['We paid the bill']);
    // A word longer than the name's own is no part of it.
    expect(await found('supportive')).toEqual([]);
  });

  it('finds the member\'s own notes by "member"', async () => {
    expect(await found('member')).toEqual(MEMBER_NOTES);
    expect(await found('member thanks')).toEqual(['Thanks for the help']);
  });

  it('says it in the reader\'s language too: "equipo de soporte" and "miembro" for a Spanish reader', async () => {
    const es = { cookie: 'cq.lang=es' };
    expect(await found('equipo de soporte', es)).toEqual(STAFF_NOTES);
    expect(await found('soporte', es)).toEqual(STAFF_NOTES);
    expect(await found('miembro', es)).toEqual(MEMBER_NOTES);
    // The English names still find them for a Spanish reader (the words the spec and the support staff use).
    expect(await found('support team', es)).toEqual(STAFF_NOTES);
    // Not for an English reader, whose pages never say them.
    expect(await found('soporte')).toEqual([]);
  });
});
