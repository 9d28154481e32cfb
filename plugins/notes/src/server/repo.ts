import { dayIn, hasAnyRole, msg } from '@portal/core';
import {
  allWordsSql,
  badRequest,
  type CreateKeyRef,
  checkContent,
  conflict,
  forbidden,
  notFound,
  type RouteContext,
  type SqlClient,
  type SqlParam,
  searchWords,
  sendDownload,
  sqlParams,
  uploadFileName,
} from '@portal/server';
import { NOTES_STAFF_ROLES } from '../access';
import {
  type Attachment,
  type AttachmentUpload,
  DEFAULT_NOTE_TYPE_ID,
  MAX_ATTACHMENTS,
  NOTE_AUTHOR_KIND_NAMES,
  NOTE_AUTHOR_KINDS,
  NOTE_DEFAULT_RANGE_YEARS,
  NOTE_NOT_FOUND,
  type Note,
  type NoteAuthorKind,
  type NoteCreate,
  type NoteDetail,
  type NoteSearch,
  type NoteSearchResult,
  NoteType,
  type NoteUpdate,
  noteTypeIdOf,
  noteTypeName,
  OPEN_CONVERSATIONS_LIMIT,
  type OpenConversation,
  type OpenConversations,
  RECENT_NOTES,
  STAFF_DEFAULT_NOTE_TYPE_ID,
  STALE_NOTE_MESSAGE,
  TOO_MANY_ATTACHMENTS,
} from '../contract';

type Ctx = Pick<RouteContext, 'user' | 'memberId' | 'impersonating' | 'database' | 'services' | 'audit' | 'auditRead' | 'timeZone' | 't'>;

export const NO_MEMBER_MESSAGE = 'Your account has no messages of its own. Choose a member to act for first.';

/** The member whose conversation this request works on: the member's own, or the impersonated one. Staff acting for nobody are refused. */
export function memberOf(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId === null) throw badRequest(NO_MEMBER_MESSAGE);
  return ctx.memberId;
}

/** Staff (writing while impersonating) are recorded as staff; a member's own login as the member. */
const isStaff = (ctx: Pick<RouteContext, 'user' | 'impersonating'>) => ctx.impersonating || (!!ctx.user && hasAnyRole(ctx.user.roles, NOTES_STAFF_ROLES));
/** The author as people know them: the user's first and last name, else the user name. */
async function authorName(ctx: Ctx, tx: SqlClient): Promise<string> {
  if (!ctx.user) return 'Unknown';
  const u = await ctx.services.identity.findById(ctx.user.id, tx);
  return [u?.first_name, u?.last_name].filter((p) => p?.trim()).join(' ') || ctx.user.name;
}
/** Only the member reading their own conversation marks staff replies read; staff looking at it do not. */
const readsAsMember = (ctx: Pick<RouteContext, 'user' | 'impersonating'>) => !isStaff(ctx);

interface Row {
  note_id: number;
  member_id: number;
  note_text: string;
  note_type_id: number;
  reply_to_id: number | null;
  author_user_id: string | null;
  author_name: string;
  author_kind: 'Member' | 'Staff';
  read_at: string | null;
  staff_read_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}
const ISO = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const COLUMNS = `n.note_id, n.member_id, n.note_text, n.note_type_id, n.reply_to_id, n.author_user_id, n.author_name, n.author_kind,
  n.read_at, n.staff_read_at, n.version, ${ISO('n.created_at')} AS created_at, ${ISO('n.updated_at')} AS updated_at`;

async function attachmentsOf(sql: SqlClient, noteIds: number[]): Promise<Map<number, Attachment[]>> {
  const out = new Map<number, Attachment[]>();
  if (noteIds.length === 0) return out;
  const rows = await sql.query<Attachment & { note_id: number }>(
    `SELECT note_id, attachment_id AS "AttachmentID", file_name AS "FileName", content_type AS "ContentType", size AS "Size"
     FROM note_attachments WHERE note_id = ANY($1::int[]) ORDER BY attachment_id`,
    [noteIds],
  );
  for (const { note_id, ...a } of rows) out.set(note_id, [...(out.get(note_id) ?? []), a]);
  return out;
}

/**
 * Whether the note is read for who is looking. The member: a staff reply is new until they open it, their own notes are
 * read. Staff (acting for the member): a member note is new until a staff user opens it (staff_read_at), staff replies
 * (their own and colleagues') are read, so staff never see their own replies as new.
 */
const isReadBy = (staffViewer: boolean, r: Pick<Row, 'author_kind' | 'read_at' | 'staff_read_at'>) =>
  staffViewer ? r.author_kind === 'Staff' || r.staff_read_at !== null : r.author_kind === 'Member' || r.read_at !== null;

async function toWire(ctx: Ctx, sql: SqlClient, rows: Row[]): Promise<Note[]> {
  const staffViewer = isStaff(ctx);
  const files = await attachmentsOf(
    sql,
    rows.map((r) => r.note_id),
  );
  return rows.map((r) => ({
    NoteID: r.note_id,
    MemberID: r.member_id,
    NoteText: r.note_text,
    NoteTypeID: r.note_type_id,
    NoteType: noteTypeName(r.note_type_id),
    CreatedBy: r.author_name,
    CreatedByKind: r.author_kind,
    CreatedDate: r.created_at,
    UpdatedDate: r.updated_at,
    ReplyToID: r.reply_to_id,
    IsRead: isReadBy(staffViewer, r),
    CanEdit: !!ctx.user && r.author_user_id === ctx.user.id,
    Version: r.version,
    Attachments: files.get(r.note_id) ?? [],
  }));
}

/** The notes new to the viewer in the member's whole conversation: staff replies for the member, member notes for staff. */
const unreadCount = async (sql: SqlClient, memberId: number, staffViewer: boolean) =>
  (
    await sql.query<{ n: number }>(
      staffViewer
        ? `SELECT count(*)::int AS n FROM notes WHERE member_id = $1 AND author_kind = 'Member' AND staff_read_at IS NULL`
        : `SELECT count(*)::int AS n FROM notes WHERE member_id = $1 AND author_kind = 'Staff' AND read_at IS NULL`,
      [memberId],
    )
  )[0]?.n ?? 0;

/**
 * What a note search looks in: the note's text and its author's name. Every word of the search (the kernel's
 * searchWords: any order, commas, spacing, case and accents aside) must be in one or the other, or stand for who wrote
 * the note (kindsOfWord).
 */
const NOTE_TEXT = `n.note_text || ' ' || n.author_name`;

/** A search word this long or longer stands for the author kinds with a word it begins; a shorter one only for a whole word ('de'). */
const KIND_WORD_MIN = 3;

/**
 * The author kinds a search word stands for: those whose name, as the pages show it beside the author (Member, Support
 * team; in English or the reader's language, folded), has a word the search word begins ('support', 'team', 'equipo',
 * 'miembro') or is ('de' of 'Equipo de soporte'). So "support team" finds the staff's notes, as the member sees them.
 */
export function kindsOfWord(t: (message: string) => string, word: string): NoteAuthorKind[] {
  return NOTE_AUTHOR_KINDS.filter((kind) =>
    [NOTE_AUTHOR_KIND_NAMES[kind], t(NOTE_AUTHOR_KIND_NAMES[kind])]
      .flatMap((name) => searchWords(name))
      .some((w) => w === word || (word.length >= KIND_WORD_MIN && w.startsWith(word))),
  );
}

/** The condition that every word of a search is in the note's text or author's name, or stands for the note's author kind. */
function noteWordsSql(ctx: Pick<Ctx, 't'>, words: readonly string[], param: SqlParam): string {
  return allWordsSql(NOTE_TEXT, words, param, (word) => {
    const kinds = kindsOfWord((m) => ctx.t(m), word);
    return kinds.length ? `n.author_kind = ANY(${param(kinds)}::text[])` : null;
  });
}

/**
 * The member's notes, newest first. DateFrom and DateTo are days in the reader's time zone (`ctx.timeZone`: the page's
 * x-time-zone, else the business's), as the page shows the notes' times: a note written at 6:30 pm in Los Angeles on
 * 03/10 is in 03/10, not in 03/11 as in UTC. The bounds are moments (midnight of From, midnight after To, in that zone),
 * compared with created_at as it is stored, so the member's index on it serves. Without dates: the last 4 years, from
 * midnight of the reader's day 4 years ago. The unread count is the whole conversation's, as the badge's.
 */
export async function searchNotes(ctx: Ctx, f: NoteSearch): Promise<NoteSearchResult> {
  const memberId = memberOf(ctx);
  const sql = ctx.database.sql;
  const params: unknown[] = [memberId, ctx.timeZone];
  const where = ['n.member_id = $1'];
  const midnightOf = (day: string) => `(${day}::timestamp AT TIME ZONE $2)`;
  if (f.DateFrom) {
    params.push(f.DateFrom);
    where.push(`n.created_at >= ${midnightOf(`$${params.length}::date`)}`);
  } else if (!f.DateTo) {
    params.push(dayIn(ctx.timeZone));
    where.push(`n.created_at >= ${midnightOf(`($${params.length}::date - interval '${NOTE_DEFAULT_RANGE_YEARS} years')::date`)}`);
  }
  if (f.DateTo) {
    params.push(f.DateTo);
    where.push(`n.created_at < ${midnightOf(`($${params.length}::date + 1)`)}`);
  }
  const words = searchWords(f.Query);
  if (words.length) where.push(noteWordsSql(ctx, words, sqlParams(params)));
  const w = where.join(' AND ');
  const total = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM notes n WHERE ${w}`, params))[0]?.n ?? 0;
  const rows = await sql.query<Row>(
    `SELECT ${COLUMNS} FROM notes n WHERE ${w} ORDER BY n.created_at DESC, n.note_id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.PageSize, f.PageIndex * f.PageSize],
  );
  await ctx.audit({ action: 'notes.search', entity: 'member', entityId: memberId, memberId, detail: { count: rows.length } });
  return { Items: await toWire(ctx, sql, rows), ItemCount: total, UnreadCount: await unreadCount(sql, memberId, isStaff(ctx)) };
}

async function loadRow(sql: SqlClient, memberId: number, id: number, lock = false): Promise<Row | null> {
  return (
    (await sql.query<Row>(`SELECT ${COLUMNS} FROM notes n WHERE n.note_id = $1 AND n.member_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, memberId]))[0] ?? null
  );
}

/**
 * One note with its conversation, audited as a read. The member opening it marks the thread's staff replies read; a
 * staff user opening it marks the thread's member notes read by staff (for every staff user: support is one team).
 */
export async function getNote(ctx: Ctx, id: number): Promise<NoteDetail> {
  const memberId = memberOf(ctx);
  const sql = ctx.database.sql;
  const row = await loadRow(sql, memberId, id);
  if (!row) throw notFound(NOTE_NOT_FOUND);
  const root = row.reply_to_id ?? row.note_id;
  await sql.transaction(async (tx) => {
    if (readsAsMember(ctx)) {
      await tx.query(
        `UPDATE notes SET read_at = now() WHERE member_id = $1 AND (note_id = $2 OR reply_to_id = $2) AND author_kind = 'Staff' AND read_at IS NULL`,
        [memberId, root],
      );
    } else await markReadByStaff(tx, memberId, root);
    await ctx.audit({ action: 'notes.note.read', entity: 'note', entityId: id, memberId }, tx);
  });
  const thread = await sql.query<Row>(
    `SELECT ${COLUMNS} FROM notes n WHERE n.member_id = $1 AND (n.note_id = $2 OR n.reply_to_id = $2) ORDER BY n.created_at, n.note_id`,
    [memberId, root],
  );
  const wire = await toWire(ctx, sql, thread);
  const self = wire.find((n) => n.NoteID === id) as Note;
  return { ...self, Thread: wire };
}

/** A staff user has seen the thread's member notes (opened it, or replied into it). */
const markReadByStaff = (tx: SqlClient, memberId: number, root: number) =>
  tx.query(
    `UPDATE notes SET staff_read_at = now() WHERE member_id = $1 AND (note_id = $2 OR reply_to_id = $2) AND author_kind = 'Member' AND staff_read_at IS NULL`,
    [memberId, root],
  );

interface Checked {
  fileName: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * Decodes and checks every upload by content before anything is written; one bad file refuses the whole request. A
 * file is kept and shown under its name made clean (the kernel's uploadFileName: no control characters, at most 200
 * characters, '.png' is 'file.png').
 */
async function checkUploads(list: readonly AttachmentUpload[]): Promise<Checked[]> {
  const out: Checked[] = [];
  for (const [i, a] of list.entries()) {
    const bytes = Buffer.from(a.Content, 'base64');
    if (bytes.length === 0) throw badRequest(msg('body.Attachments.{{index}}.Content: is empty', { index: i }));
    const fileName = uploadFileName(a.FileName);
    const check = await checkContent(fileName, bytes);
    if (!check.ok) throw badRequest(msg('body.Attachments.{{index}}: {{reason}}', { index: i, reason: check.message }));
    out.push({ fileName, contentType: check.contentType, bytes });
  }
  return out;
}

/** A checked file with the ids and key it is stored under. */
interface Planned extends Checked {
  attachmentId: number;
  key: string;
}

/**
 * Draws ids from a table's identity sequence before any transaction: a sequence is not transactional, so drawing holds
 * no lock and an id drawn by a request that then fails is never handed out again (a gap, as a rolled-back insert
 * leaves). The rows are inserted with these ids (OVERRIDING SYSTEM VALUE), so the files can be stored under their
 * final keys first.
 */
async function drawIds(sql: SqlClient, table: 'notes' | 'note_attachments', column: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await sql.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence($1, $2))::int AS id FROM generate_series(1, $3::int) ORDER BY 1`, [
    table,
    column,
    count,
  ]);
  return rows.map((r) => r.id);
}

/**
 * Stores the files of one note under notes/<member>/<note>/<attachment>, outside any transaction (a file store put is
 * an HTTP call on S3; inside a transaction it would hold a pool connection and the note's row lock, and the whole
 * database on PGlite). If a put fails, the files already written are deleted and nothing is inserted.
 */
async function storeFiles(ctx: Ctx, memberId: number, noteId: number, files: Checked[]): Promise<Planned[]> {
  const ids = await drawIds(ctx.database.sql, 'note_attachments', 'attachment_id', files.length);
  const planned = files.map((f, i) => {
    const attachmentId = ids[i] as number;
    return { ...f, attachmentId, key: `notes/${memberId}/${noteId}/${attachmentId}` };
  });
  const written: string[] = [];
  try {
    for (const f of planned) {
      written.push(f.key);
      await ctx.services.files.put(f.key, f.bytes, { contentType: f.contentType });
    }
  } catch (e) {
    await dropFiles(ctx, written);
    throw e;
  }
  return planned;
}

const dropFiles = async (ctx: Ctx, keys: readonly string[]) => {
  await Promise.allSettled(keys.map((k) => ctx.services.files.delete(k)));
};

/** The rows of files storeFiles stored, in the caller's (short) transaction. */
async function insertFiles(tx: SqlClient, noteId: number, planned: Planned[]): Promise<void> {
  if (planned.length === 0) return;
  await tx.query(
    `INSERT INTO note_attachments (attachment_id, note_id, file_name, content_type, size, file_key) OVERRIDING SYSTEM VALUE
     SELECT a, $2::int, f, c, s, k FROM unnest($1::int[], $3::text[], $4::text[], $5::int[], $6::text[]) AS t(a, f, c, s, k)`,
    [
      planned.map((f) => f.attachmentId),
      noteId,
      planned.map((f) => f.fileName),
      planned.map((f) => f.contentType),
      planned.map((f) => f.bytes.length),
      planned.map((f) => f.key),
    ],
  );
}

/** Runs the transaction that inserts the rows of stored files; if it does not commit (refused, failed), the files are deleted. */
async function keepingFiles<T>(ctx: Ctx, planned: Planned[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    await dropFiles(
      ctx,
      planned.map((f) => f.key),
    );
    throw e;
  }
}

/**
 * The type a create writes (by name, by key, else Support Notes for staff and Member Notes for a member); members write
 * Member Notes only. An update without a type keeps the note's (`fallback` null: the answer is null).
 */
function writableBy(staff: boolean, b: Pick<NoteCreate, 'NoteType' | 'NoteTypeID'>): number;
function writableBy(staff: boolean, b: Pick<NoteCreate, 'NoteType' | 'NoteTypeID'>, fallback: null): number | null;
function writableBy(staff: boolean, b: Pick<NoteCreate, 'NoteType' | 'NoteTypeID'>, fallback?: null): number | null {
  const given = b.NoteType !== undefined || b.NoteTypeID !== undefined;
  if (!given && fallback === null) return null;
  const typeId = given ? noteTypeIdOf(b) : staff ? STAFF_DEFAULT_NOTE_TYPE_ID : DEFAULT_NOTE_TYPE_ID;
  if (!staff && typeId !== NoteType.Member)
    throw badRequest(b.NoteType === undefined ? 'body.NoteTypeID: members write Member Notes only.' : 'body.NoteType: members write Member Notes only.');
  return typeId;
}

/** The first note of the thread a reply goes into (null for a new conversation); a note outside the member's conversation is a 400. */
async function threadOf(sql: SqlClient, memberId: number, replyToId: number | null | undefined): Promise<number | null> {
  if (!replyToId) return null;
  const parent = await loadRow(sql, memberId, replyToId);
  if (!parent) throw badRequest('body.ReplyToID: there is no such message in this conversation.');
  return parent.reply_to_id ?? parent.note_id;
}

/** The kind of record the notes' create keys stand for: a new note and a reply alike (one create). */
export const NOTE_CREATE_KEY_SCOPE = 'notes.note';

/** A create's IdempotencyKey and what it stands for: the note as the contract parsed it, with the member it goes to. */
interface CreateKey {
  ref: CreateKeyRef;
  request: unknown;
}

/** The key of a create sent with one by a signed-in user; null otherwise (the create then adds, as without a key). */
function createKeyOf(ctx: Ctx, memberId: number, b: NoteCreate): CreateKey | null {
  if (!b.IdempotencyKey || !ctx.user) return null;
  return { ref: { userId: ctx.user.id, scope: NOTE_CREATE_KEY_SCOPE, key: b.IdempotencyKey }, request: { ...b, MemberID: memberId } };
}

/** Ends the transaction of `earlierNote`: the answer it carries, its claim rolled back. */
class Peeked {
  constructor(readonly earlier: string | null) {}
}

/**
 * Whether the key already made its note (its id), before any file is stored: the key is claimed in a transaction
 * that is then rolled back, so this claims nothing (the create's own transaction claims it again, and decides). The
 * key with another request is refused here (409), before its files go.
 */
async function earlierNote(ctx: Ctx, key: CreateKey): Promise<string | null> {
  try {
    await ctx.database.sql.transaction(async (tx) => {
      throw new Peeked(await ctx.services.createKeys.claim(tx, key.ref, key.request));
    });
  } catch (e) {
    if (e instanceof Peeked) return e.earlier;
    throw e;
  }
  throw new Error('the peek at a create key rolls back');
}

/** The note a key made, as its create answered it (read as it is now). */
async function madeNote(ctx: Ctx, sql: SqlClient, memberId: number, id: string | number): Promise<Note> {
  const row = await loadRow(sql, memberId, Number(id));
  if (!row) throw notFound(NOTE_NOT_FOUND);
  return (await toWire(ctx, sql, [row]))[0] as Note;
}

/**
 * Adds a note (or a reply into a conversation). With an IdempotencyKey (from a signed-in user) the key is claimed in
 * the create's transaction: the same create sent again (a retry whose answer was lost, a second press) answers the
 * note the first made and adds nothing (no note, no file, no audit); the key with another note, or for another
 * member, is refused with 409. Without a key every create adds.
 */
export async function createNote(ctx: Ctx, b: NoteCreate): Promise<Note> {
  const memberId = memberOf(ctx);
  const staff = isStaff(ctx);
  const typeId = writableBy(staff, b);
  const files = await checkUploads(b.Attachments);
  const sql = ctx.database.sql;
  const key = createKeyOf(ctx, memberId, b);
  let noteId: number | null = null;
  let planned: Planned[] = [];
  if (files.length > 0) {
    // A retry of a create that was made stores no file: it answers the note made (a reused key is refused here).
    const earlier = key ? await earlierNote(ctx, key) : null;
    if (earlier !== null) return madeNote(ctx, sql, memberId, earlier);
    // A reply refused stores nothing: checked before the files go (and again in the transaction, which decides).
    await threadOf(sql, memberId, b.ReplyToID);
    noteId = (await drawIds(sql, 'notes', 'note_id', 1))[0] as number;
    planned = await storeFiles(ctx, memberId, noteId, files);
  }
  const created = await keepingFiles(ctx, planned, () =>
    sql.transaction(async (tx) => {
      if (key) {
        const earlier = await ctx.services.createKeys.claim(tx, key.ref, key.request);
        if (earlier !== null) return { id: Number(earlier), added: false };
      }
      const replyTo = await threadOf(tx, memberId, b.ReplyToID);
      // The id drawn for the files' keys, else the next one as the column's default would draw it.
      const rows = await tx.query<{ note_id: number }>(
        `INSERT INTO notes (note_id, member_id, note_text, note_type_id, reply_to_id, author_user_id, author_name, author_kind) OVERRIDING SYSTEM VALUE
       VALUES (coalesce($1::int, nextval(pg_get_serial_sequence('notes', 'note_id'))::int), $2, $3, $4, $5, $6, $7, $8) RETURNING note_id`,
        [noteId, memberId, b.NoteText, typeId, replyTo, ctx.user?.id ?? null, await authorName(ctx, tx), staff ? 'Staff' : 'Member'],
      );
      const made = rows[0]?.note_id as number;
      // Staff answering a thread have read the member's notes in it.
      if (staff && replyTo !== null) await markReadByStaff(tx, memberId, replyTo);
      await insertFiles(tx, made, planned);
      await ctx.audit({ action: 'notes.note.create', entity: 'note', entityId: made, memberId, detail: { replyTo, attachments: files.length, staff } }, tx);
      if (key) await ctx.services.createKeys.record(tx, key.ref, made);
      return { id: made, added: true };
    }),
  );
  // The same create made by another request while these files were stored: the note is that one's, these files go.
  if (!created.added)
    await dropFiles(
      ctx,
      planned.map((f) => f.key),
    );
  return madeNote(ctx, sql, memberId, created.id);
}

/**
 * Whether the user may make this edit of the note as it is now: 404, 403 (not the author), 409 (stale Version), 400
 * (a file to remove that is not the note's, too many files). Answers the keys of the files to remove.
 */
async function checkEdit(
  ctx: Ctx,
  sql: SqlClient,
  memberId: number,
  b: NoteUpdate,
  adding: number,
  lock: boolean,
): Promise<{ remove: number[]; keys: string[] }> {
  const current = await loadRow(sql, memberId, b.NoteID, lock);
  if (!current) throw notFound(NOTE_NOT_FOUND);
  if (!ctx.user || current.author_user_id !== ctx.user.id) throw forbidden('Only the author of a message may change it.');
  if (current.version !== b.Version) throw conflict(STALE_NOTE_MESSAGE);
  const existing = await sql.query<{ attachment_id: number; file_key: string }>('SELECT attachment_id, file_key FROM note_attachments WHERE note_id = $1', [
    b.NoteID,
  ]);
  const remove = [...new Set(b.RemoveAttachmentIDs)];
  for (const r of remove)
    if (!existing.some((e) => e.attachment_id === r))
      throw badRequest(msg('body.RemoveAttachmentIDs: {{id}} is not an attachment of this message.', { id: r }));
  if (existing.length - remove.length + adding > MAX_ATTACHMENTS) throw badRequest(msg('body.Attachments: {{reason}}', { reason: TOO_MANY_ATTACHMENTS }));
  return { remove, keys: existing.filter((e) => remove.includes(e.attachment_id)).map((e) => e.file_key) };
}

/**
 * The author edits the text and type (no type given: the note keeps its own), adds files (at most 10 in all) and removes
 * files; a stale Version is 409. An edit is news to the other side: a staff reply the member had read is unread again,
 * a member note staff had read is new to staff again; the answer's UpdatedDate (after CreatedDate) marks it edited.
 */
export async function updateNote(ctx: Ctx, b: NoteUpdate): Promise<Note> {
  const memberId = memberOf(ctx);
  const typeId = writableBy(isStaff(ctx), b, null);
  const files = await checkUploads(b.Attachments);
  const sql = ctx.database.sql;
  let planned: Planned[] = [];
  if (files.length > 0) {
    // An edit refused (not found, not the author's, stale, too many files) stores nothing: checked before the files go,
    // and again under the note's row lock in the transaction, which decides (a save may have come in meanwhile).
    await checkEdit(ctx, sql, memberId, b, files.length, false);
    planned = await storeFiles(ctx, memberId, b.NoteID, files);
  }
  const removedKeys = await keepingFiles(ctx, planned, () =>
    sql.transaction(async (tx) => {
      const { remove, keys } = await checkEdit(ctx, tx, memberId, b, files.length, true);
      if (remove.length) await tx.query('DELETE FROM note_attachments WHERE note_id = $1 AND attachment_id = ANY($2::int[])', [b.NoteID, remove]);
      await tx.query(
        `UPDATE notes SET note_text = $2, note_type_id = coalesce($3::int, note_type_id), version = version + 1, updated_at = now(),
           read_at = CASE WHEN author_kind = 'Staff' THEN NULL ELSE read_at END,
           staff_read_at = CASE WHEN author_kind = 'Member' THEN NULL ELSE staff_read_at END
         WHERE note_id = $1`,
        [b.NoteID, b.NoteText, typeId],
      );
      await insertFiles(tx, b.NoteID, planned);
      await ctx.audit(
        { action: 'notes.note.update', entity: 'note', entityId: b.NoteID, memberId, detail: { added: files.length, removed: remove.length } },
        tx,
      );
      return keys;
    }),
  );
  // Removed files go once their rows are gone for good.
  await dropFiles(ctx, removedKeys);
  return (await toWire(ctx, sql, [(await loadRow(sql, memberId, b.NoteID)) as Row]))[0] as Note;
}

export async function downloadAttachment(ctx: Ctx & Pick<RouteContext, 'reply'>, noteId: number, attachmentId: number) {
  const memberId = memberOf(ctx);
  const sql = ctx.database.sql;
  const row = (
    await sql.query<{ file_name: string; content_type: string; file_key: string }>(
      `SELECT a.file_name, a.content_type, a.file_key FROM note_attachments a JOIN notes n ON n.note_id = a.note_id
       WHERE a.attachment_id = $1 AND a.note_id = $2 AND n.member_id = $3`,
      [attachmentId, noteId, memberId],
    )
  )[0];
  if (!row) throw notFound('The attachment was not found.');
  const file = await ctx.services.files.get(row.file_key);
  if (!file) throw notFound('The attachment was not found.');
  await ctx.audit({ action: 'notes.attachment.download', entity: 'note_attachment', entityId: attachmentId, memberId, detail: { noteId } });
  return sendDownload(ctx.reply, { fileName: row.file_name, contentType: row.content_type, body: file.body, size: file.size });
}

export async function unread(ctx: Ctx): Promise<{ Count: number }> {
  // Staff acting for nobody have no conversation: nothing unread (the badge is a hint, not an error).
  if (ctx.memberId === null) return { Count: 0 };
  const memberId = ctx.memberId;
  const count = await unreadCount(ctx.database.sql, memberId, isStaff(ctx));
  // The count is the member's data (it polls with every page): audited off the request's path.
  ctx.auditRead({ action: 'notes.unread', entity: 'member', entityId: memberId, memberId });
  return { Count: count };
}

export async function recentNotes(ctx: Ctx): Promise<Note[]> {
  // Staff acting for nobody have no conversation: the widget shows none.
  if (ctx.memberId === null) return [];
  const memberId = ctx.memberId;
  const sql = ctx.database.sql;
  const rows = await sql.query<Row>(`SELECT ${COLUMNS} FROM notes n WHERE n.member_id = $1 ORDER BY n.created_at DESC, n.note_id DESC LIMIT $2`, [
    memberId,
    RECENT_NOTES,
  ]);
  await ctx.audit({ action: 'notes.recent', entity: 'member', entityId: memberId, memberId });
  return toWire(ctx, sql, rows);
}

/** The toolbar's search: the member's notes whose text, author or author kind holds every word (noteWordsSql); staff acting for nobody get none. */
export async function quickSearch(ctx: Ctx, q: string, size: number): Promise<Note[]> {
  const words = searchWords(q);
  if (ctx.memberId === null || !words.length) return [];
  const memberId = ctx.memberId;
  const sql = ctx.database.sql;
  const params: unknown[] = [memberId];
  const where = noteWordsSql(ctx, words, sqlParams(params));
  const rows = await sql.query<Row>(
    `SELECT ${COLUMNS} FROM notes n WHERE n.member_id = $1 AND ${where} ORDER BY n.created_at DESC, n.note_id DESC LIMIT $${params.length + 1}`,
    [...params, size],
  );
  await ctx.audit({ action: 'notes.globalSearch', entity: 'member', entityId: memberId, memberId, detail: { found: rows.length } });
  return toWire(ctx, sql, rows);
}

/**
 * Support's inbox: the members whose latest note is a member note (support has not answered it yet), the one waiting
 * longest first, at most OPEN_CONVERSATIONS_LIMIT, with how many of their notes no staff user has opened. Whoever the
 * caller acts for, it is the whole team's list; audited as a read (it shows members' names and words).
 */
export async function openConversations(ctx: Pick<RouteContext, 'database' | 'audit'>): Promise<OpenConversations> {
  const rows = await ctx.database.sql.query<OpenConversation & { Total: number }>(
    `WITH latest AS (
       SELECT DISTINCT ON (n.member_id) n.member_id, n.note_id, n.note_text, n.author_kind, n.created_at
       FROM notes n ORDER BY n.member_id, n.created_at DESC, n.note_id DESC)
     SELECT l.member_id AS "MemberID", m.member_number AS "MemberNumber",
       trim(coalesce(m.first_name, '') || ' ' || coalesce(m.last_name, '')) AS "MemberName",
       l.note_id AS "NoteID", left(l.note_text, 120) AS "Excerpt", ${ISO('l.created_at')} AS "CreatedDate",
       (SELECT count(*)::int FROM notes u WHERE u.member_id = l.member_id AND u.author_kind = 'Member' AND u.staff_read_at IS NULL) AS "UnreadCount",
       count(*) OVER ()::int AS "Total"
     FROM latest l JOIN members m ON m.member_id = l.member_id
     WHERE l.author_kind = 'Member'
     ORDER BY l.created_at, l.note_id LIMIT $1`,
    [OPEN_CONVERSATIONS_LIMIT],
  );
  await ctx.audit({ action: 'notes.open', entity: 'notes', detail: { count: rows.length } });
  return { Items: rows.map(({ Total: _total, ...r }) => r), Count: rows[0]?.Total ?? 0 };
}
