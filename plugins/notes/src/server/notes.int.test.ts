import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { dayIn, Roles } from '@portal/core';
import { CREATE_KEY_REUSED } from '@portal/server';
import { LocalFileStore } from '@portal/server/kernel';
import { fixtures } from '@portal/testing/files';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_ATTACHMENTS, type Note, type NoteDetail, type NoteSearchResult, NotesApi, type OpenConversations, STALE_NOTE_MESSAGE } from '../contract';
import { migrations } from './migrations';

/**
 * My Messages through the whole kernel guard, on a fresh database and a local file store in a temporary folder (so
 * "nothing was stored" is checked on disk): scoping to the member, staff replies while impersonating, unread replies,
 * attachments checked by content, downloads, versions and the global search.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let filesDir: string;
let alice: Session;
let bob: Session;
let support: Session;
let quoteUser: Session;
let aliceId: number;
let bobId: number;

type Headers = Record<string, string>;
const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: unknown) =>
  server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const data = <T>(res: { json(): unknown }) => (res.json() as { Data: T }).Data;
const b64 = async (kind: keyof typeof fixtures) => (await fixtures[kind]()).toString('base64');
const asAlice = () => authHeaders(alice, 'finance');
const supportAsAlice = () => authHeaders(support, 'staff', { 'x-member-id': String(aliceId) });
const noteCount = async () => (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM notes'))[0]?.n ?? 0;
const attachmentCount = async () => (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM note_attachments'))[0]?.n ?? 0;
/** Every stored file under the store's folder (the metadata sidecars and temporary folder left out). */
async function storedFiles(dir = join(filesDir, 'files')): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    if (e.isDirectory()) out.push(...(await storedFiles(join(dir, e.name))));
    else out.push(join(dir, e.name));
  }
  return out;
}
const audits = async (action: string) => {
  await server.flushAudit();
  return (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE action = $1', [action]))[0]?.n ?? 0;
};

beforeAll(async () => {
  filesDir = await mkdtemp(join(tmpdir(), 'notes-int-'));
  // The business's zone pinned: a search without x-time-zone takes its days in it.
  server = await startTestServer({ fileStore: { kind: 'local', dir: join(filesDir, 'files') }, businessTimeZone: 'America/Chicago' });
  aliceId = (await makeUser(server, { userName: 'n-alice', roles: [Roles.CareGuardFinance], brand: 'finance', member: true })).memberId as number;
  bobId = (await makeUser(server, { userName: 'n-bob', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
  await makeUser(server, { userName: 'n-support', roles: [Roles.CareSupport], brand: 'staff' });
  await makeUser(server, { userName: 'n-quote', roles: [Roles.CareQuote], brand: 'quote', member: true });
  alice = await signIn(server, 'n-alice');
  bob = await signIn(server, 'n-bob');
  support = await signIn(server, 'n-support');
  quoteUser = await signIn(server, 'n-quote');
});
afterAll(async () => {
  await server?.close();
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
});

describe('notes: the conversation', () => {
  let question: Note;
  let reply: Note;

  it('refuses anonymous (401), a role without notes (403), a brand without the plugin (404), staff acting for nobody (400)', async () => {
    expect((await call('POST', NotesApi.search.path, { host: 'finance.localhost' }, {})).statusCode).toBe(401);
    expect((await call('POST', NotesApi.search.path, authHeaders(quoteUser, 'finance'), {})).statusCode).toBe(403);
    expect((await call('POST', NotesApi.search.path, authHeaders(alice, 'quote'), {})).statusCode).toBe(404);
    const none = await call('POST', NotesApi.search.path, authHeaders(support, 'staff'), {});
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Choose a member to act for first.');
  });

  it('a member writes to support with an attachment: Member Notes by default, the author by name, stored and audited', async () => {
    const res = await call('POST', NotesApi.create.path, asAlice(), {
      NoteText: 'Please check my pharmacy bill.',
      Attachments: [{ FileName: 'receipt.pdf', Content: await b64('pdf') }],
    });
    expect(res.statusCode, res.body).toBe(200);
    question = data<Note>(res);
    expect(question).toMatchObject({ MemberID: aliceId, NoteTypeID: 1, CreatedBy: 'Test n-alice', CreatedByKind: 'Member', IsRead: true, CanEdit: true });
    expect(question.Attachments).toEqual([expect.objectContaining({ FileName: 'receipt.pdf', ContentType: 'application/pdf' })]);
    expect(await storedFiles()).toHaveLength(1);
    expect(await audits('notes.note.create')).toBe(1);
  });

  it('staff impersonating the member reply as staff, by name; the member sees it unread, then read once opened', async () => {
    const res = await call('POST', NotesApi.create.path, supportAsAlice(), { NoteText: 'We are on it.', ReplyToID: question.NoteID, NoteTypeID: 2 });
    expect(res.statusCode, res.body).toBe(200);
    reply = data<Note>(res);
    // Read for the staff who wrote it (their own reply is never new to staff); unread for the member, below.
    expect(reply).toMatchObject({ MemberID: aliceId, CreatedBy: 'Test n-support', CreatedByKind: 'Staff', ReplyToID: question.NoteID, IsRead: true });

    expect(data<{ Count: number }>(await call('GET', NotesApi.unread.path, asAlice())).Count).toBe(1);
    const list = data<NoteSearchResult>(await call('POST', NotesApi.search.path, asAlice(), {}));
    expect(list.Items.map((n) => n.NoteID)).toEqual([reply.NoteID, question.NoteID]);
    expect(list.UnreadCount).toBe(1);
    expect(list.Items[0]?.CanEdit).toBe(false);

    // Staff looking at the thread leave it unread.
    const staffView = data<NoteDetail>(await call('GET', `/api/notes/getById/${question.NoteID}`, supportAsAlice()));
    expect(staffView.Thread.map((n) => n.NoteID)).toEqual([question.NoteID, reply.NoteID]);
    expect(data<{ Count: number }>(await call('GET', NotesApi.unread.path, asAlice())).Count).toBe(1);

    const detail = data<NoteDetail>(await call('GET', `/api/notes/getById/${reply.NoteID}`, asAlice()));
    expect(detail.NoteID).toBe(reply.NoteID);
    expect(detail.Thread.map((n) => [n.NoteID, n.CreatedByKind])).toEqual([
      [question.NoteID, 'Member'],
      [reply.NoteID, 'Staff'],
    ]);
    expect(data<{ Count: number }>(await call('GET', NotesApi.unread.path, asAlice())).Count).toBe(0);
    expect(await audits('notes.note.read')).toBe(2);
  });

  it('members may not write Support Notes; bad input is 400 and stores nothing', async () => {
    const before = await noteCount();
    for (const body of [
      {},
      { NoteText: '   ' },
      { NoteText: 'x'.repeat(4001) },
      { NoteText: 'hi', NoteTypeID: 2 },
      { NoteText: 'hi', NoteTypeID: 3 },
      { NoteText: 'hi', ReplyToID: 'abc' },
      { NoteText: 'hi', Attachments: [{ FileName: 'a.pdf', Content: '***' }] },
    ]) {
      const res = await call('POST', NotesApi.create.path, asAlice(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await noteCount()).toBe(before);
  });

  it('downloads an attachment with x-filename, to the member only', async () => {
    const a = question.Attachments[0];
    const url = `/api/notes/attachment/${question.NoteID}/${a?.AttachmentID}`;
    const res = await call('GET', url, asAlice());
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-filename']).toBe('receipt.pdf');
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.equals(await fixtures.pdf())).toBe(true);
    expect(await audits('notes.attachment.download')).toBe(1);
    expect((await call('GET', url, authHeaders(bob, 'card'))).statusCode).toBe(404);
    expect((await call('GET', `/api/notes/attachment/${reply.NoteID}/${a?.AttachmentID}`, asAlice())).statusCode).toBe(404);
  });

  it('another member cannot read or change the note by id: 404, nothing changes', async () => {
    expect((await call('GET', `/api/notes/getById/${question.NoteID}`, authHeaders(bob, 'card'))).statusCode).toBe(404);
    const supportAsBob = authHeaders(support, 'staff', { 'x-member-id': String(bobId) });
    expect((await call('GET', `/api/notes/getById/${question.NoteID}`, supportAsBob)).statusCode).toBe(404);
    const res = await call('POST', NotesApi.update.path, authHeaders(bob, 'card'), { NoteID: question.NoteID, Version: 1, NoteText: 'Hacked' });
    expect(res.statusCode).toBe(404);
    const reply2 = await call('POST', NotesApi.create.path, authHeaders(bob, 'card'), { NoteText: 'Into her thread', ReplyToID: question.NoteID });
    expect(reply2.statusCode).toBe(400);
    const stored = data<NoteDetail>(await call('GET', `/api/notes/getById/${question.NoteID}`, asAlice()));
    expect(stored.NoteText).toBe('Please check my pharmacy bill.');
    expect(stored.Thread).toHaveLength(2);
    expect(data<NoteSearchResult>(await call('POST', NotesApi.search.path, authHeaders(bob, 'card'), {})).ItemCount).toBe(0);
  });

  it('the author edits with the current Version (409 when stale); others may not', async () => {
    const res = await call('POST', NotesApi.update.path, asAlice(), { NoteID: question.NoteID, Version: 1, NoteText: 'Please check my pharmacy bill (June).' });
    expect(res.statusCode, res.body).toBe(200);
    expect(data<Note>(res)).toMatchObject({ Version: 2, NoteText: 'Please check my pharmacy bill (June).' });
    const stale = await call('POST', NotesApi.update.path, asAlice(), { NoteID: question.NoteID, Version: 1, NoteText: 'Old' });
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain(STALE_NOTE_MESSAGE);
    expect((await call('POST', NotesApi.update.path, asAlice(), { NoteID: reply.NoteID, Version: 1, NoteText: 'Mine now' })).statusCode).toBe(403);
    expect(await audits('notes.note.update')).toBe(1);
  });

  it('adds and removes attachments on update, at most 10 in all', async () => {
    const png = await b64('png');
    const add = await call('POST', NotesApi.update.path, asAlice(), {
      NoteID: question.NoteID,
      Version: 2,
      NoteText: 'With a photo',
      Attachments: [{ FileName: 'photo.png', Content: png }],
    });
    expect(add.statusCode, add.body).toBe(200);
    const added = data<Note>(add);
    expect(added.Attachments.map((a) => a.FileName)).toEqual(['receipt.pdf', 'photo.png']);
    const tooMany = await call('POST', NotesApi.update.path, asAlice(), {
      NoteID: question.NoteID,
      Version: 3,
      NoteText: 'Too many',
      Attachments: Array.from({ length: MAX_ATTACHMENTS - 1 }, (_, i) => ({ FileName: `p${i}.png`, Content: png })),
    });
    expect(tooMany.statusCode).toBe(400);
    const removed = await call('POST', NotesApi.update.path, asAlice(), {
      NoteID: question.NoteID,
      Version: 3,
      NoteText: 'Without the photo',
      RemoveAttachmentIDs: [added.Attachments[1]?.AttachmentID],
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(data<Note>(removed).Attachments.map((a) => a.FileName)).toEqual(['receipt.pdf']);
    expect(await storedFiles()).toHaveLength(1);
  });
});

describe('notes: the note type by name (spec 02 section 3: NoteType, default Member Notes)', () => {
  it('every answer carrying a note names its type; absent, it is Member Notes', async () => {
    const res = await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'Typed by name' });
    expect(res.statusCode, res.body).toBe(200);
    const note = data<Note>(res);
    expect(note).toMatchObject({ NoteType: 'Member Notes', NoteTypeID: 1 });
    const detail = data<NoteDetail>(await call('GET', `/api/notes/getById/${note.NoteID}`, asAlice()));
    expect(detail.NoteType).toBe('Member Notes');
    expect(detail.Thread.map((n) => n.NoteType)).toEqual(['Member Notes']);
    const list = data<NoteSearchResult>(await call('POST', NotesApi.search.path, asAlice(), { Query: 'Typed by name' }));
    expect(list.Items.map((n) => n.NoteType)).toEqual(['Member Notes']);
    expect(data<Note[]>(await call('GET', NotesApi.recent.path, asAlice())).every((n) => typeof n.NoteType === 'string')).toBe(true);
    expect(data<Note[]>(await call('GET', `${NotesApi.globalSearch.path}?q=typed%20by`, asAlice())).map((n) => n.NoteType)).toEqual(['Member Notes']);
  });

  it('takes NoteType by name on create and update (any case), and NoteTypeID still works', async () => {
    const staff = await call('POST', NotesApi.create.path, supportAsAlice(), { NoteText: 'Support by name', NoteType: 'Support Notes' });
    expect(staff.statusCode, staff.body).toBe(200);
    expect(data<Note>(staff)).toMatchObject({ NoteType: 'Support Notes', NoteTypeID: 2 });
    const byId = await call('POST', NotesApi.create.path, supportAsAlice(), { NoteText: 'Support by id', NoteTypeID: 2 });
    expect(data<Note>(byId)).toMatchObject({ NoteType: 'Support Notes', NoteTypeID: 2 });
    const mine = data<Note>(await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'Mine by name', NoteType: ' member notes ' }));
    expect(mine).toMatchObject({ NoteType: 'Member Notes', NoteTypeID: 1 });
    const edited = await call('POST', NotesApi.update.path, supportAsAlice(), {
      NoteID: data<Note>(staff).NoteID,
      Version: 1,
      NoteText: 'Now a member note',
      NoteType: 'Member Notes',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(data<Note>(edited)).toMatchObject({ NoteType: 'Member Notes', NoteTypeID: 1, Version: 2 });
    const stored = await server.database.sql.query<{ note_type_id: number }>('SELECT note_type_id FROM notes WHERE note_id = $1', [data<Note>(staff).NoteID]);
    expect(stored).toEqual([{ note_type_id: 1 }]);
  });

  it('refuses an unknown name, System Notes, a name that contradicts NoteTypeID and a member writing Support Notes: 400, nothing stored', async () => {
    const before = await noteCount();
    const refused = async (headers: Headers, body: object, text: string) => {
      const res = await call('POST', NotesApi.create.path, headers, { NoteText: 'hi', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as { MsgText: string }).MsgText).toBe(text);
    };
    const unknown = 'body.NoteType: must be a note type: Member Notes or Support Notes';
    await refused(supportAsAlice(), { NoteType: 'Urgent Notes' }, unknown);
    await refused(supportAsAlice(), { NoteType: 'System Notes' }, unknown);
    await refused(supportAsAlice(), { NoteType: 2 }, unknown);
    await refused(supportAsAlice(), { NoteType: 'Support Notes', NoteTypeID: 1 }, 'body.NoteType: does not match NoteTypeID');
    await refused(asAlice(), { NoteType: 'Support Notes' }, 'body.NoteType: members write Member Notes only.');
    const note = data<Note>(await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'To edit' }));
    const update = await call('POST', NotesApi.update.path, asAlice(), { NoteID: note.NoteID, Version: 1, NoteText: 'x', NoteType: 'Notes' });
    expect(update.statusCode).toBe(400);
    expect(await noteCount()).toBe(before + 1);
    const es = await call('POST', NotesApi.create.path, authHeaders(support, 'staff', { 'x-member-id': String(aliceId), cookie: 'cq.lang=es' }), {
      NoteText: 'hi',
      NoteType: 'Urgent Notes',
    });
    expect((es.json() as { MsgText: string }).MsgText).toBe('body.NoteType: debe ser un tipo de nota: Member Notes o Support Notes');
  });
});

describe('notes: attachments are checked by content', () => {
  it.each([
    ['a text file named .pdf', 'statement.pdf', 'text'],
    ['a JPEG named .png', 'photo.png', 'jpg'],
    ['a workbook named .docx', 'letter.docx', 'xlsx'],
    ['a plain zip named .xlsx', 'sheet.xlsx', 'zip'],
  ] as const)('refuses %s and stores nothing', async (_, name, kind) => {
    const [notes, rows, files] = [await noteCount(), await attachmentCount(), (await storedFiles()).length];
    const res = await call('POST', NotesApi.create.path, asAlice(), {
      NoteText: 'See attached',
      Attachments: [
        { FileName: 'good.pdf', Content: await b64('pdf') },
        { FileName: name, Content: await b64(kind) },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(`The content of '${name}'`);
    expect([await noteCount(), await attachmentCount(), (await storedFiles()).length]).toEqual([notes, rows, files]);
  });

  it('removes the files it stored when the save fails after them (the audit row refused), and keeps nothing', async () => {
    const existing = data<Note>(await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'kept before the failure' }));
    const [notes, rows, files] = [await noteCount(), await attachmentCount(), (await storedFiles()).length];
    const sql = server.database.sql;
    // The audit row of a note write is refused at the database: the files are stored by then, the commit never comes.
    await sql.query(`CREATE FUNCTION refuse_note_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused'; END $$`);
    await sql.query(
      `CREATE TRIGGER refuse_note_audit BEFORE INSERT ON audit_log FOR EACH ROW WHEN (NEW.action IN ('notes.note.create', 'notes.note.update')) EXECUTE FUNCTION refuse_note_audit()`,
    );
    try {
      const created = await call('POST', NotesApi.create.path, asAlice(), {
        NoteText: 'lost',
        Attachments: [{ FileName: 'a.pdf', Content: await b64('pdf') }],
      });
      expect(created.statusCode).toBe(500);
      const updated = await call('POST', NotesApi.update.path, asAlice(), {
        NoteID: existing.NoteID,
        Version: existing.Version,
        NoteText: 'changed',
        Attachments: [{ FileName: 'b.pdf', Content: await b64('pdf') }],
      });
      expect(updated.statusCode).toBe(500);
    } finally {
      await sql.query('DROP TRIGGER refuse_note_audit ON audit_log');
      await sql.query('DROP FUNCTION refuse_note_audit()');
    }
    expect([await noteCount(), await attachmentCount(), (await storedFiles()).length]).toEqual([notes, rows, files]);
  });

  it.each([
    ['an extension outside the list', 'setup.exe'],
    ['no extension', 'receipt'],
    ['a path', '../etc/receipt.pdf'],
  ])('refuses a file with %s and stores nothing', async (_, name) => {
    const [notes, files] = [await noteCount(), (await storedFiles()).length];
    const res = await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'See attached', Attachments: [{ FileName: name, Content: await b64('pdf') }] });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Attachments');
    expect([await noteCount(), (await storedFiles()).length]).toEqual([notes, files]);
  });

  it('keeps odd names clean (a line break, a control character, only an extension) and downloads them by that name', async () => {
    const png = await b64('png');
    for (const [name, kept] of [
      ['line\nbreak.png', 'line break.png'],
      ['a\u0001b\u202E.png', 'ab.png'],
      ['.png', 'file.png'],
      ['  spaced   out .png ', 'spaced out .png'],
    ] as const) {
      const res = await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'Named', Attachments: [{ FileName: name, Content: png }] });
      expect(res.statusCode, res.body).toBe(200);
      const note = data<Note>(res);
      expect(note.Attachments.map((a) => a.FileName)).toEqual([kept]);
      const got = await call('GET', `/api/notes/attachment/${note.NoteID}/${note.Attachments[0]?.AttachmentID}`, asAlice());
      expect(got.statusCode).toBe(200);
      expect(decodeURIComponent(String(got.headers['x-filename']))).toBe(kept);
    }
  });

  it('takes a name over 200 characters cut to 200, its extension kept; refuses one over 1,000 with a worded 400', async () => {
    const png = await b64('png');
    const res = await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'Long', Attachments: [{ FileName: `${'陈'.repeat(250)}.png`, Content: png }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(data<Note>(res).Attachments.map((a) => a.FileName)).toEqual([`${'陈'.repeat(196)}.png`]);
    const notes = await noteCount();
    const tooLong = await call('POST', NotesApi.create.path, asAlice(), {
      NoteText: 'Long',
      Attachments: [{ FileName: `${'a'.repeat(1000)}.png`, Content: png }],
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().MsgText).toBe('body.Attachments.0.FileName: must be at most 1000 characters');
    expect(await noteCount()).toBe(notes);
  });

  it('refuses more than 10 files', async () => {
    const png = await b64('png');
    const res = await call('POST', NotesApi.create.path, asAlice(), {
      NoteText: 'Many',
      Attachments: Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => ({ FileName: `p${i}.png`, Content: png })),
    });
    expect(res.statusCode).toBe(400);
  });

  it('accepts every allowed kind by its content', async () => {
    const kinds = ['pdf', 'gif', 'jpg', 'png', 'doc', 'docx', 'xls', 'xlsx'] as const;
    const res = await call('POST', NotesApi.create.path, asAlice(), {
      NoteText: 'All kinds',
      Attachments: [
        ...(await Promise.all(kinds.map(async (k) => ({ FileName: `file.${k}`, Content: await b64(k) })))),
        { FileName: 'x.jpeg', Content: await b64('jpg') },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(data<Note>(res).Attachments).toHaveLength(9);
  });
});

describe('notes: dashboard, badge and global search', () => {
  it('lists recent notes and searches the member’s notes only, at most 5', async () => {
    const recent = data<Note[]>(await call('GET', NotesApi.recent.path, asAlice()));
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((n) => n.MemberID === aliceId)).toBe(true);
    await call('POST', NotesApi.create.path, authHeaders(bob, 'card'), { NoteText: 'Without a photo, from bob' });
    const found = data<Note[]>(await call('GET', `${NotesApi.globalSearch.path}?q=WITHOUT&s=5`, asAlice()));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((n) => n.MemberID === aliceId)).toBe(true);
    const many = await Promise.all(Array.from({ length: 6 }, (_, i) => call('POST', NotesApi.create.path, asAlice(), { NoteText: `needle ${i}` })));
    expect(many.every((r) => r.statusCode === 200)).toBe(true);
    expect(data<Note[]>(await call('GET', `${NotesApi.globalSearch.path}?q=needle&s=50`, asAlice()))).toHaveLength(5);
    expect((await call('GET', `${NotesApi.globalSearch.path}?q=n`, asAlice())).statusCode).toBe(400);
    expect(data<Note[]>(await call('GET', `${NotesApi.globalSearch.path}?q=needle`, authHeaders(support, 'staff')))).toEqual([]);
    expect(data<{ Count: number }>(await call('GET', NotesApi.unread.path, authHeaders(support, 'staff'))).Count).toBe(0);
  });

  it("audits the badge's unread count under the member it counts, for the member and for staff acting for them", async () => {
    const unreadRows = async () => {
      await server.flushAudit();
      return server.database.sql.query<{ member_id: number | null; actor_name: string | null }>(
        `SELECT member_id, actor_name FROM audit_log WHERE action = 'notes.unread' AND entity_id = $1 ORDER BY id`,
        [String(aliceId)],
      );
    };
    const before = (await unreadRows()).length;
    expect((await call('GET', NotesApi.unread.path, asAlice())).statusCode).toBe(200);
    expect((await call('GET', NotesApi.unread.path, supportAsAlice())).statusCode).toBe(200);
    expect((await unreadRows()).slice(before)).toEqual([
      { member_id: aliceId, actor_name: 'n-alice' },
      { member_id: aliceId, actor_name: 'n-support' },
    ]);
  });

  it('keeps to the default range of 4 years and a date range', async () => {
    await server.database.sql.query(`UPDATE notes SET created_at = now() - interval '5 years' WHERE note_text = 'needle 0'`);
    const all = data<NoteSearchResult>(await call('POST', NotesApi.search.path, asAlice(), { Query: 'needle' }));
    expect(all.ItemCount).toBe(5);
    const old = data<NoteSearchResult>(await call('POST', NotesApi.search.path, asAlice(), { Query: 'needle', DateFrom: '2000-01-01' }));
    expect(old.ItemCount).toBe(6);
    expect((await call('POST', NotesApi.search.path, asAlice(), { DateFrom: '2024-02-30' })).statusCode).toBe(400);
    expect((await call('POST', NotesApi.search.path, asAlice(), { DateFrom: '2024-03-01', DateTo: '2024-02-01' })).statusCode).toBe(400);
    expect((await call('POST', NotesApi.search.path, asAlice(), { PageSize: 7 })).statusCode).toBe(400);
  });
});

describe("notes: messages in the user's language", () => {
  const es = { cookie: 'cq.lang=es' };
  const msgText = (res: { json(): unknown }) => (res.json() as { MsgText: string }).MsgText;

  it('answers a Spanish request with Spanish errors, the refused file and the counts in them', async () => {
    const none = await call('POST', NotesApi.search.path, authHeaders(support, 'staff', es), {});
    expect(none.statusCode).toBe(400);
    expect(msgText(none)).toBe('Su cuenta no tiene mensajes propios. Primero elija el miembro en cuyo nombre actuar.');
    const missing = await call('GET', '/api/notes/getById/999999', authHeaders(alice, 'finance', es));
    expect(missing.statusCode).toBe(404);
    expect(msgText(missing)).toBe('No se encontró el mensaje.');

    const bad = await call('POST', NotesApi.create.path, authHeaders(alice, 'finance', es), {
      NoteText: 'See attached',
      Attachments: [
        { FileName: 'good.pdf', Content: await b64('pdf') },
        { FileName: 'statement.pdf', Content: await b64('text') },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(msgText(bad)).toBe("body.Attachments.1: El contenido de 'statement.pdf' no es un documento PDF.");

    const created = await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'Full', Attachments: [{ FileName: 'a.pdf', Content: await b64('pdf') }] });
    const note = data<Note>(created);
    const png = await b64('png');
    const tooMany = await call('POST', NotesApi.update.path, authHeaders(alice, 'finance', es), {
      NoteID: note.NoteID,
      Version: note.Version,
      NoteText: 'Too many',
      Attachments: Array.from({ length: MAX_ATTACHMENTS }, (_, i) => ({ FileName: `p${i}.png`, Content: png })),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(msgText(tooMany)).toBe('body.Attachments: Se pueden adjuntar como máximo 10 archivos a un mensaje.');
    const notMine = await call('POST', NotesApi.update.path, authHeaders(alice, 'finance', es), {
      NoteID: note.NoteID,
      Version: note.Version,
      NoteText: 'Remove',
      RemoveAttachmentIDs: [999999],
    });
    expect(msgText(notMine)).toBe('body.RemoveAttachmentIDs: 999999 no es un archivo adjunto de este mensaje.');
    // English stays the spec's words.
    const english = await call('POST', NotesApi.update.path, asAlice(), {
      NoteID: note.NoteID,
      Version: note.Version,
      NoteText: 'Remove',
      RemoveAttachmentIDs: [999999],
    });
    expect(msgText(english)).toBe('body.RemoveAttachmentIDs: 999999 is not an attachment of this message.');
  });
});

describe('notes: files are stored before the transaction, the rows in a short one after', () => {
  const original = LocalFileStore.prototype.put;
  /** Runs `during` inside every file store put, before the file is written. */
  const onPut = (during: (key: string, call: number) => Promise<void>) => {
    let calls = 0;
    return vi.spyOn(LocalFileStore.prototype, 'put').mockImplementation(async function (this: LocalFileStore, key, body, options) {
      await during(key, ++calls);
      return original.call(this, key, body, options);
    });
  };
  /** The call, or 'waited' when it did not finish within 2 s (a transaction held the database or the row it needs). */
  const within = async <T>(work: Promise<T>): Promise<T | 'waited'> => {
    work.catch(() => {});
    return Promise.race([work, sleep(2_000).then(() => 'waited' as const)]);
  };
  const counts = async () => [await noteCount(), await attachmentCount(), (await storedFiles()).length];
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('saves several files on create and update under notes/<member>/<note>/<attachment>; each downloads byte for byte', async () => {
    const [pdf, png, docx, gif] = await Promise.all([fixtures.pdf(), fixtures.png(), fixtures.docx(), fixtures.gif()]);
    const created = await call('POST', NotesApi.create.path, asAlice(), {
      NoteText: 'Three files',
      Attachments: [
        { FileName: 'bill.pdf', Content: pdf.toString('base64') },
        { FileName: 'photo.png', Content: png.toString('base64') },
        { FileName: 'letter.docx', Content: docx.toString('base64') },
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    const note = data<Note>(created);
    const updated = await call('POST', NotesApi.update.path, asAlice(), {
      NoteID: note.NoteID,
      Version: note.Version,
      NoteText: 'Three files, one swapped',
      Attachments: [{ FileName: 'card.gif', Content: gif.toString('base64') }],
      RemoveAttachmentIDs: [note.Attachments[1]?.AttachmentID],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const files = data<Note>(updated).Attachments;
    expect(files.map((a) => [a.FileName, a.Size])).toEqual([
      ['bill.pdf', pdf.length],
      ['letter.docx', docx.length],
      ['card.gif', gif.length],
    ]);
    const sent: Record<string, Buffer> = { 'bill.pdf': pdf, 'letter.docx': docx, 'card.gif': gif };
    for (const a of files) {
      const res = await call('GET', `/api/notes/attachment/${note.NoteID}/${a.AttachmentID}`, asAlice());
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(sent[a.FileName] as Buffer), a.FileName).toBe(true);
    }
    const keys = await server.database.sql.query<{ file_key: string }>('SELECT file_key FROM note_attachments WHERE note_id = $1 ORDER BY attachment_id', [
      note.NoteID,
    ]);
    expect(keys.map((k) => k.file_key)).toEqual(files.map((a) => `notes/${aliceId}/${note.NoteID}/${a.AttachmentID}`));
    expect(await storedFiles(join(filesDir, 'files', 'notes', String(aliceId), String(note.NoteID)))).toHaveLength(3);
  });

  it('writes every file while no transaction is open: the database answers other calls during the put', async () => {
    const probes: unknown[] = [];
    // On PGlite a transaction holds the one connection, so the probe would wait; on PostgreSQL it finds the
    // request's connection idle in a transaction.
    const put = onPut(async () => {
      const open = server.database.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`,
      );
      probes.push(await within(open.then((r) => r[0]?.n)));
    });
    const created = await call('POST', NotesApi.create.path, asAlice(), {
      NoteText: 'Stored first',
      Attachments: [{ FileName: 'a.pdf', Content: await b64('pdf') }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const note = data<Note>(created);
    const updated = await call('POST', NotesApi.update.path, asAlice(), {
      NoteID: note.NoteID,
      Version: note.Version,
      NoteText: 'Stored first, edited',
      Attachments: [{ FileName: 'b.png', Content: await b64('png') }],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(put).toHaveBeenCalledTimes(2);
    expect(probes).toEqual([0, 0]);
  });

  it('an edit saved by another request while the files are stored makes this one stale: 409, its files removed, nothing inserted', async () => {
    const note = data<Note>(await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'Edited twice at once' }));
    const before = await counts();
    const other: unknown[] = [];
    onPut(async (_, n) => {
      if (n > 1) return;
      const res = call('POST', NotesApi.update.path, asAlice(), { NoteID: note.NoteID, Version: note.Version, NoteText: 'The other save' });
      other.push(await within(res.then((r) => r.statusCode)));
    });
    const res = await call('POST', NotesApi.update.path, asAlice(), {
      NoteID: note.NoteID,
      Version: note.Version,
      NoteText: 'This save',
      Attachments: [
        { FileName: 'a.pdf', Content: await b64('pdf') },
        { FileName: 'b.pdf', Content: await b64('pdf') },
      ],
    });
    expect(other).toEqual([200]);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain(STALE_NOTE_MESSAGE);
    expect(await counts()).toEqual(before);
    const stored = data<NoteDetail>(await call('GET', `/api/notes/getById/${note.NoteID}`, asAlice()));
    expect(stored).toMatchObject({ NoteText: 'The other save', Version: note.Version + 1, Attachments: [] });
  });

  it('a file store write that fails inserts nothing and removes the files written before it', async () => {
    const note = data<Note>(await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'Before the broken store' }));
    const before = await counts();
    const [creates, updates] = [await audits('notes.note.create'), await audits('notes.note.update')];
    const put = onPut(async (_, n) => {
      if (n % 2 === 0) throw new Error('the file store is down');
    });
    const two = [
      { FileName: 'a.pdf', Content: await b64('pdf') },
      { FileName: 'b.pdf', Content: await b64('pdf') },
    ];
    expect((await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'Lost', Attachments: two })).statusCode).toBe(500);
    const update = await call('POST', NotesApi.update.path, asAlice(), { NoteID: note.NoteID, Version: note.Version, NoteText: 'Lost too', Attachments: two });
    expect(update.statusCode).toBe(500);
    expect(put).toHaveBeenCalledTimes(4);
    expect(await counts()).toEqual(before);
    expect([await audits('notes.note.create'), await audits('notes.note.update')]).toEqual([creates, updates]);
    expect(data<NoteDetail>(await call('GET', `/api/notes/getById/${note.NoteID}`, asAlice()))).toMatchObject({
      NoteText: 'Before the broken store',
      Version: note.Version,
    });
  });

  it('a reply or an edit refused stores no file at all (checked before the files go)', async () => {
    const mine = data<Note>(await call('POST', NotesApi.create.path, asAlice(), { NoteText: 'Refusals below' }));
    const staffNote = data<Note>(await call('POST', NotesApi.create.path, supportAsAlice(), { NoteText: 'Not hers to edit', ReplyToID: mine.NoteID }));
    const before = await counts();
    const put = onPut(async () => {});
    const file = [{ FileName: 'a.pdf', Content: await b64('pdf') }];
    const intoHers = await call('POST', NotesApi.create.path, authHeaders(bob, 'card'), {
      NoteText: 'Into her thread',
      ReplyToID: mine.NoteID,
      Attachments: file,
    });
    expect(intoHers.statusCode).toBe(400);
    const edit = (headers: Headers, NoteID: number, Version: number) =>
      call('POST', NotesApi.update.path, headers, { NoteID, Version, NoteText: 'x', Attachments: file }).then((r) => r.statusCode);
    expect(await edit(asAlice(), mine.NoteID, mine.Version + 1)).toBe(409);
    expect(await edit(asAlice(), staffNote.NoteID, staffNote.Version)).toBe(403);
    expect(await edit(authHeaders(bob, 'card'), mine.NoteID, mine.Version)).toBe(404);
    expect(put).not.toHaveBeenCalled();
    expect(await counts()).toEqual(before);
  });
});

describe('notes: a create sent again with its IdempotencyKey adds the note once', () => {
  const counts = async () => [await noteCount(), await attachmentCount(), (await storedFiles()).length, await audits('notes.note.create')];
  const create = (headers: Headers, body: object) => call('POST', NotesApi.create.path, headers, body);
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers the note the first create made for the same key and body: no second note, file or audit row', async () => {
    const body = { NoteText: 'Sent twice', Attachments: [{ FileName: 'a.pdf', Content: await b64('pdf') }], IdempotencyKey: 'note-retry-0001' };
    const first = await create(asAlice(), body);
    expect(first.statusCode, first.body).toBe(200);
    const after = await counts();
    const put = vi.spyOn(LocalFileStore.prototype, 'put');
    const again = await create(asAlice(), body);
    expect(again.statusCode, again.body).toBe(200);
    expect(data<Note>(again)).toEqual(data<Note>(first));
    expect(put).not.toHaveBeenCalled();
    expect(await counts()).toEqual(after);
  });

  it('adds a reply once for its key, in its conversation', async () => {
    const question = data<Note>(await create(asAlice(), { NoteText: 'A question' }));
    const body = { NoteText: 'An answer', NoteTypeID: 2, ReplyToID: question.NoteID, IdempotencyKey: 'note-retry-0002' };
    const first = await create(supportAsAlice(), body);
    expect(first.statusCode, first.body).toBe(200);
    const after = await counts();
    const again = await create(supportAsAlice(), body);
    expect(again.statusCode, again.body).toBe(200);
    expect(data<Note>(again)).toEqual(data<Note>(first));
    expect(await counts()).toEqual(after);
    const thread = data<NoteDetail>(await call('GET', `/api/notes/getById/${question.NoteID}`, supportAsAlice())).Thread;
    expect(thread.map((n) => n.NoteText)).toEqual(['A question', 'An answer']);
  });

  it('refuses the key with another note, or for another member, with 409: nothing added, no file stored', async () => {
    const key = 'note-retry-0003';
    expect((await create(asAlice(), { NoteText: 'The first', IdempotencyKey: key })).statusCode).toBe(200);
    const after = await counts();
    const put = vi.spyOn(LocalFileStore.prototype, 'put');
    const other = await create(asAlice(), { NoteText: 'Another', Attachments: [{ FileName: 'a.pdf', Content: await b64('pdf') }], IdempotencyKey: key });
    expect(other.statusCode).toBe(409);
    expect(other.json().MsgText).toBe(CREATE_KEY_REUSED);
    expect(put).not.toHaveBeenCalled();
    // Staff acting for one member, then for another, with the same key and note.
    const same = { NoteText: 'For whom?', IdempotencyKey: 'note-retry-0004' };
    expect((await create(supportAsAlice(), same)).statusCode).toBe(200);
    expect((await create(authHeaders(support, 'staff', { 'x-member-id': String(bobId) }), same)).statusCode).toBe(409);
    const [notes, rows, files, audited] = after as [number, number, number, number];
    expect(await counts()).toEqual([notes + 1, rows, files, audited + 1]);
  });

  it('adds a note for each create without a key, and keeps keys apart by user', async () => {
    const before = await noteCount();
    const [a, b] = [await create(asAlice(), { NoteText: 'No key' }), await create(asAlice(), { NoteText: 'No key' })];
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(data<Note>(a).NoteID).not.toBe(data<Note>(b).NoteID);
    const keyed = { NoteText: 'Same key, two users', IdempotencyKey: 'note-retry-0005' };
    const mine = await create(asAlice(), keyed);
    const bobs = await create(authHeaders(bob, 'card'), keyed);
    expect([mine.statusCode, bobs.statusCode]).toEqual([200, 200]);
    expect(data<Note>(bobs).MemberID).toBe(bobId);
    expect(await noteCount()).toBe(before + 4);
  });

  it('the same create made by another request while its files are stored: answers that note and removes its own files', async () => {
    const body = { NoteText: 'Pressed twice', Attachments: [{ FileName: 'a.pdf', Content: await b64('pdf') }], IdempotencyKey: 'note-retry-0006' };
    const before = await counts();
    const original = LocalFileStore.prototype.put;
    const other: Note[] = [];
    let puts = 0;
    vi.spyOn(LocalFileStore.prototype, 'put').mockImplementation(async function (this: LocalFileStore, key, bytes, options) {
      // The first put is this request's: the other one is sent during it, and commits before this one's transaction.
      if (++puts === 1) other.push(data<Note>(await create(asAlice(), body)));
      return original.call(this, key, bytes, options);
    });
    const res = await create(asAlice(), body);
    expect(res.statusCode, res.body).toBe(200);
    expect(data<Note>(res)).toEqual(other[0]);
    expect(puts).toBe(2);
    const [notes, rows, files, audited] = before as [number, number, number, number];
    expect(await counts()).toEqual([notes + 1, rows + 1, files + 1, audited + 1]);
  });

  it('refuses a bad key with 400 naming it: nothing added, no file stored', async () => {
    const before = await counts();
    const pdf = await b64('pdf');
    for (const IdempotencyKey of ['x', 'has spaces in it', 'k'.repeat(101), 42]) {
      const res = await create(asAlice(), { NoteText: 'Bad key', Attachments: [{ FileName: 'a.pdf', Content: pdf }], IdempotencyKey });
      expect(res.statusCode, String(IdempotencyKey)).toBe(400);
      expect(res.body).toContain('IdempotencyKey');
    }
    expect(await counts()).toEqual(before);
  });
});

describe("notes: a range of days is taken in the reader's time zone (x-time-zone), as the page shows the notes' times", () => {
  const LA = { 'x-time-zone': 'America/Los_Angeles' };
  const sql = () => server.database.sql;
  /** A note written by `headers`, then dated at the moment `at` (a timestamp with its zone). */
  async function noteAt(headers: Headers, body: Record<string, unknown>, at: string): Promise<Note> {
    const res = await call('POST', NotesApi.create.path, headers, body);
    expect(res.statusCode, res.body).toBe(200);
    const note = data<Note>(res);
    await sql().query('UPDATE notes SET created_at = $2::timestamptz WHERE note_id = $1', [note.NoteID, at]);
    return note;
  }
  const search = async (headers: Headers, body: Record<string, unknown>) => {
    const res = await call('POST', NotesApi.search.path, headers, body);
    expect(res.statusCode, res.body).toBe(200);
    return data<NoteSearchResult>(res);
  };
  const ids = (r: NoteSearchResult) => r.Items.map((n) => n.NoteID);

  let lateEvening: Note;
  let morning: Note;
  let evening: Note;
  beforeAll(async () => {
    // 11:30 pm PDT on 03/09 (US daylight time began on 03/08).
    lateEvening = await noteAt(asAlice(), { NoteText: 'tz-range: late on the ninth' }, '2026-03-10T06:30:00Z');
    // 12:30 am PDT on 03/10.
    morning = await noteAt(asAlice(), { NoteText: 'tz-range: early on the tenth' }, '2026-03-10T07:30:00Z');
    // Support answers at 6:30 pm PDT on 03/10 (2026-03-11T01:30Z, already 03/11 in UTC): unread by the member.
    evening = await noteAt(
      { ...supportAsAlice(), ...LA },
      { NoteText: 'tz-range: the evening answer', ReplyToID: morning.NoteID, NoteTypeID: 2 },
      '2026-03-11T01:30:00Z',
    );
  });

  it('From = To = 03/10 in Los Angeles holds the notes written on 03/10 there, the 6:30 pm answer too; 03/11 holds none of them', async () => {
    const tenth = await search({ ...asAlice(), ...LA }, { Query: 'tz-range', DateFrom: '2026-03-10', DateTo: '2026-03-10' });
    expect(ids(tenth)).toEqual([evening.NoteID, morning.NoteID]);
    expect(tenth.ItemCount).toBe(2);
    expect(ids(await search({ ...asAlice(), ...LA }, { Query: 'tz-range', DateFrom: '2026-03-11', DateTo: '2026-03-11' }))).toEqual([]);
    expect(ids(await search({ ...asAlice(), ...LA }, { Query: 'tz-range', DateFrom: '2026-03-09', DateTo: '2026-03-09' }))).toEqual([lateEvening.NoteID]);
  });

  it("the page's default range (4 years back to the member's today) shows the evening answer the unread count counts", async () => {
    const page = await search({ ...asAlice(), ...LA }, { DateFrom: '2022-03-10', DateTo: '2026-03-10', PageSize: 100 });
    const shown = page.Items.find((n) => n.NoteID === evening.NoteID);
    expect(shown).toMatchObject({ CreatedDate: '2026-03-11T01:30:00.000Z', IsRead: false, CreatedByKind: 'Staff' });
    // Every unread answer the count counts that was written by the end of 03/10 in Los Angeles (07:00Z on 03/11) is on the page.
    const counted = await sql().query<{ note_id: number }>(
      `SELECT note_id FROM notes WHERE member_id = $1 AND author_kind = 'Staff' AND read_at IS NULL AND created_at < '2026-03-11T07:00:00Z' ORDER BY note_id`,
      [aliceId],
    );
    expect(counted.map((r) => r.note_id)).toContain(evening.NoteID);
    expect(
      page.Items.filter((n) => !n.IsRead)
        .map((n) => n.NoteID)
        .sort((a, b) => a - b),
    ).toEqual(counted.map((r) => r.note_id));
  });

  it('without x-time-zone the days are the business zone’s (America/Chicago): 6:30 pm PDT is 8:30 pm CDT on 03/10', async () => {
    const tenth = await search(asAlice(), { Query: 'tz-range', DateFrom: '2026-03-10', DateTo: '2026-03-10' });
    expect(ids(tenth)).toEqual([evening.NoteID, morning.NoteID, lateEvening.NoteID]);
  });

  it('takes a zone named in any case or by an alias, and answers a name that is no zone (or an offset) in the business zone, never a 500', async () => {
    const la = ids(await search({ ...asAlice(), ...LA }, { Query: 'tz-range', DateFrom: '2026-03-10', DateTo: '2026-03-10' }));
    for (const zone of ['america/los_angeles', 'US/Pacific']) {
      expect(ids(await search({ ...asAlice(), 'x-time-zone': zone }, { Query: 'tz-range', DateFrom: '2026-03-10', DateTo: '2026-03-10' })), zone).toEqual(la);
    }
    for (const zone of ['Mars/Olympus_Mons', '+05:00', "America/Chicago'; drop table notes; --"]) {
      const tenth = await search({ ...asAlice(), 'x-time-zone': zone }, { Query: 'tz-range', DateFrom: '2026-03-10', DateTo: '2026-03-10' });
      expect(ids(tenth), zone).toEqual([evening.NoteID, morning.NoteID, lateEvening.NoteID]);
    }
  });

  it("without dates, the last 4 years start at midnight of the reader's day 4 years ago", async () => {
    const today = dayIn('America/Los_Angeles');
    const start = (
      await sql().query<{ at: string }>(
        `SELECT to_char((($1::date - interval '4 years')::date::timestamp AT TIME ZONE 'America/Los_Angeles') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at`,
        [today],
      )
    )[0]?.at as string;
    const minutes = (n: number) => new Date(Date.parse(start) + n * 60_000).toISOString();
    const inside = await noteAt(asAlice(), { NoteText: 'tz-default: just inside' }, minutes(1));
    await noteAt(asAlice(), { NoteText: 'tz-default: just before' }, minutes(-1));
    expect(ids(await search({ ...asAlice(), ...LA }, { Query: 'tz-default' }))).toEqual([inside.NoteID]);
  });
});

describe('notes: an edit is news to the other side, and support sees what members wrote', () => {
  let carol: Session;
  let dave: Session;
  let support2: Session;
  let superUser: Session;
  let carolId: number;
  let daveId: number;
  const asCarol = () => authHeaders(carol, 'finance');
  const as = (s: Session, memberId: number) => authHeaders(s, 'staff', { 'x-member-id': String(memberId) });
  const count = async (h: Headers) => data<{ Count: number }>(await call('GET', NotesApi.unread.path, h)).Count;
  const create = async (h: Headers, body: object) => {
    const res = await call('POST', NotesApi.create.path, h, body);
    expect(res.statusCode, res.body).toBe(200);
    return data<Note>(res);
  };
  const open = async (h: Headers) => {
    const res = await call('GET', NotesApi.open.path, h);
    expect(res.statusCode, res.body).toBe(200);
    return data<OpenConversations>(res);
  };

  beforeAll(async () => {
    carolId = (await makeUser(server, { userName: 'n-carol', roles: [Roles.CareGuardFinance], brand: 'finance', member: true })).memberId as number;
    daveId = (await makeUser(server, { userName: 'n-dave', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
    await makeUser(server, { userName: 'n-support2', roles: [Roles.CareSupport], brand: 'staff' });
    await makeUser(server, { userName: 'n-super', roles: [Roles.SuperUser], brand: 'staff' });
    carol = await signIn(server, 'n-carol');
    dave = await signIn(server, 'n-dave');
    support2 = await signIn(server, 'n-support2');
    superUser = await signIn(server, 'n-super');
  });

  it('a staff reply edited after the member read it is unread again, and answers UpdatedDate after CreatedDate', async () => {
    const q = await create(asCarol(), { NoteText: 'My bill is wrong' });
    const r = await create(as(support, carolId), { NoteText: 'Refund of $50.00 approved', ReplyToID: q.NoteID });
    expect(r.UpdatedDate).toBe(r.CreatedDate);
    await call('GET', `/api/notes/getById/${r.NoteID}`, asCarol());
    expect(await count(asCarol())).toBe(0);
    await sleep(5);
    const ed = await call('POST', NotesApi.update.path, as(support, carolId), { NoteID: r.NoteID, Version: r.Version, NoteText: 'Refund of $5.00 approved' });
    expect(ed.statusCode, ed.body).toBe(200);
    const edited = data<Note>(ed);
    expect(Date.parse(edited.UpdatedDate)).toBeGreaterThan(Date.parse(edited.CreatedDate));
    expect(edited.CreatedDate).toBe(r.CreatedDate);
    expect(await count(asCarol())).toBe(1);
    const list = data<NoteSearchResult>(await call('POST', NotesApi.search.path, asCarol(), { Query: 'Refund' }));
    expect(list.Items.map((n) => [n.NoteText, n.IsRead])).toEqual([['Refund of $5.00 approved', false]]);
    // An edit without a type keeps the note's (Support Notes, staff's default).
    expect(edited).toMatchObject({ NoteTypeID: 2, NoteType: 'Support Notes' });
    // Reading it again clears it.
    await call('GET', `/api/notes/getById/${q.NoteID}`, asCarol());
    expect(await count(asCarol())).toBe(0);
  });

  it('a member note staff had read is new to staff again once the member edits it', async () => {
    const q = await create(asCarol(), { NoteText: 'Question to be edited' });
    await call('GET', `/api/notes/getById/${q.NoteID}`, as(support, carolId));
    const before = await count(as(support, carolId));
    const ed = await call('POST', NotesApi.update.path, asCarol(), { NoteID: q.NoteID, Version: q.Version, NoteText: 'Question, edited' });
    expect(ed.statusCode, ed.body).toBe(200);
    expect(await count(as(support, carolId))).toBe(before + 1);
    await call('GET', `/api/notes/getById/${q.NoteID}`, as(support2, carolId));
    expect(await count(as(support, carolId))).toBe(before);
  });

  it('staff replies default to Support Notes, a member’s notes to Member Notes; NoteType given still wins', async () => {
    const q = await create(asCarol(), { NoteText: 'Default type, member' });
    expect(q).toMatchObject({ NoteTypeID: 1, NoteType: 'Member Notes' });
    const r = await create(as(support, carolId), { NoteText: 'Default type, staff', ReplyToID: q.NoteID });
    expect(r).toMatchObject({ NoteTypeID: 2, NoteType: 'Support Notes', CreatedByKind: 'Staff' });
    const m = await create(as(support, carolId), { NoteText: 'Explicit member type', NoteTypeID: 1 });
    expect(m).toMatchObject({ NoteTypeID: 1 });
  });

  it('for staff, a member note is new until a staff user opens it; their own replies are never new; the member’s view is unchanged', async () => {
    const q = await create(authHeaders(dave, 'card'), { NoteText: 'Dave asks' });
    // The member's own note is read for the member; nothing unread for them.
    expect(q.IsRead).toBe(true);
    expect(await count(authHeaders(dave, 'card'))).toBe(0);
    // For support acting for Dave: one new member note, marked unread in the list and the dashboard.
    expect(await count(as(support, daveId))).toBe(1);
    const staffList = data<NoteSearchResult>(await call('POST', NotesApi.search.path, as(support, daveId), {}));
    expect(staffList.UnreadCount).toBe(1);
    expect(staffList.Items.map((n) => [n.NoteID, n.IsRead])).toEqual([[q.NoteID, false]]);
    expect(data<Note[]>(await call('GET', NotesApi.recent.path, as(support, daveId))).map((n) => n.IsRead)).toEqual([false]);
    // Staff acting for nobody: nothing.
    expect(await count(authHeaders(support, 'staff'))).toBe(0);
    // Another staff user opening the conversation marks it read for all staff, audited as a read.
    const reads = await audits('notes.note.read');
    const opened = data<NoteDetail>(await call('GET', `/api/notes/getById/${q.NoteID}`, as(support2, daveId)));
    expect(opened.Thread.map((n) => n.IsRead)).toEqual([true]);
    expect(await audits('notes.note.read')).toBe(reads + 1);
    expect(await count(as(support, daveId))).toBe(0);
    // Support's reply: not new for staff (theirs), unread for Dave; the staff badge stays 0.
    const r = await create(as(support, daveId), { NoteText: 'Support answers', ReplyToID: q.NoteID });
    expect(r.IsRead).toBe(true);
    expect(await count(as(support, daveId))).toBe(0);
    expect(await count(authHeaders(dave, 'card'))).toBe(1);
    const daveList = data<NoteSearchResult>(await call('POST', NotesApi.search.path, authHeaders(dave, 'card'), {}));
    expect(daveList.Items.map((n) => [n.NoteText, n.IsRead])).toEqual([
      ['Support answers', false],
      ['Dave asks', true],
    ]);
    // Dave writes again: counted for staff; a staff reply into that thread marks it read by staff.
    const q2 = await create(authHeaders(dave, 'card'), { NoteText: 'Dave asks again' });
    expect(await count(as(support, daveId))).toBe(1);
    await create(as(superUser, daveId), { NoteText: 'Answered without opening', ReplyToID: q2.NoteID });
    expect(await count(as(support, daveId))).toBe(0);
    // The member reading staff replies leaves staff's marks alone, and staff reading leaves the member's.
    expect(await count(authHeaders(dave, 'card'))).toBe(2);
  });

  it('lists the members whose latest note is an unanswered member note, to CareSupport and SuperUser only', async () => {
    const q = await create(authHeaders(dave, 'card'), { NoteText: 'Still waiting for an answer please' });
    const listed = (await open(authHeaders(support, 'staff'))).Items.find((i) => i.MemberID === daveId);
    expect(listed).toMatchObject({ NoteID: q.NoteID, MemberName: 'Test n-dave', Excerpt: 'Still waiting for an answer please', UnreadCount: 1 });
    expect(listed?.MemberNumber).toMatch(/\S/);
    // The same list acting for another member, and for a SuperUser.
    expect((await open(as(support, carolId))).Items.some((i) => i.MemberID === daveId)).toBe(true);
    const all = await open(authHeaders(superUser, 'staff'));
    expect(all.Count).toBeGreaterThanOrEqual(all.Items.length);
    expect(all.Items.some((i) => i.MemberID === daveId)).toBe(true);
    // Opening it leaves it listed (not answered yet) with nothing unread; answering takes it off.
    await call('GET', `/api/notes/getById/${q.NoteID}`, as(support, daveId));
    expect((await open(authHeaders(support, 'staff'))).Items.find((i) => i.MemberID === daveId)?.UnreadCount).toBe(0);
    await create(as(support, daveId), { NoteText: 'Answered', ReplyToID: q.NoteID });
    expect((await open(authHeaders(support, 'staff'))).Items.some((i) => i.MemberID === daveId)).toBe(false);
    // Oldest waiting first.
    const dates = (await open(authHeaders(support, 'staff'))).Items.map((i) => i.CreatedDate);
    expect(dates).toEqual([...dates].sort());
    // Members are refused, anonymous callers too; the list is audited.
    expect((await call('GET', NotesApi.open.path, authHeaders(dave, 'card'))).statusCode).toBe(403);
    expect((await call('GET', NotesApi.open.path, asCarol())).statusCode).toBe(403);
    expect((await call('GET', NotesApi.open.path, { host: 'staff.localhost' })).statusCode).toBe(401);
    expect(await audits('notes.open')).toBeGreaterThan(0);
  });
});

describe('notes: migration 0002 on a filled table', () => {
  it('adds staff_read_at and counts member notes support already answered as read by staff, the rest new', async () => {
    class Rollback extends Error {}
    const seen = await server.database.sql
      .transaction(async (tx) => {
        // The table as it was before 0002, with rows in it (rolled back at the end).
        await tx.query('DROP INDEX notes_staff_unread_idx');
        await tx.query('ALTER TABLE notes DROP COLUMN staff_read_at');
        const ins = async (kind: 'Member' | 'Staff', replyTo: number | null, minutes: number) =>
          (
            await tx.query<{ note_id: number }>(
              `INSERT INTO notes (member_id, note_text, reply_to_id, author_name, author_kind, created_at)
               VALUES ($1, 'migration', $2, 'x', $3, now() + make_interval(mins => $4)) RETURNING note_id`,
              [aliceId, replyTo, kind, minutes],
            )
          )[0]?.note_id as number;
        const answered = await ins('Member', null, 100);
        await ins('Staff', answered, 101);
        const after = await ins('Member', answered, 102);
        const alone = await ins('Member', null, 103);
        const migration = migrations.find((m) => m.id === '0002_notes_staff_read');
        const sqlText = migration && 'sql' in migration ? migration.sql : '';
        for (const statement of sqlText
          .split(';')
          .map((s: string) => s.trim())
          .filter(Boolean))
          await tx.query(statement);
        const rows = await tx.query<{ note_id: number; read: boolean }>(
          'SELECT note_id, staff_read_at IS NOT NULL AS read FROM notes WHERE note_id = ANY($1::int[]) AND author_kind = $2 ORDER BY note_id',
          [[answered, after, alone], 'Member'],
        );
        throw new Rollback(JSON.stringify(rows.map((r) => [r.note_id === answered ? 'answered' : r.note_id === after ? 'after' : 'alone', r.read])));
      })
      .catch((e: unknown) => (e instanceof Rollback ? JSON.parse(e.message) : Promise.reject(e)));
    expect(seen).toEqual([
      ['answered', true],
      ['after', false],
      ['alone', false],
    ]);
    // Rolled back: the column is there as the migration left it.
    expect(await server.database.sql.query(`SELECT staff_read_at FROM notes LIMIT 1`)).toBeDefined();
  });
});
