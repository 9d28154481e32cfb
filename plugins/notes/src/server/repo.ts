import { hasAnyRole, msg } from '@portal/core';
import { badRequest, checkContent, conflict, forbidden, notFound, type RouteContext, type SqlClient, sendDownload } from '@portal/server';
import { NOTES_STAFF_ROLES } from '../access';
import {
  type Attachment,
  type AttachmentUpload,
  MAX_ATTACHMENTS,
  NOTE_DEFAULT_RANGE_YEARS,
  NOTE_NOT_FOUND,
  type Note,
  type NoteCreate,
  type NoteDetail,
  type NoteSearch,
  type NoteSearchResult,
  NoteType,
  type NoteUpdate,
  noteTypeIdOf,
  noteTypeName,
  RECENT_NOTES,
  STALE_NOTE_MESSAGE,
  TOO_MANY_ATTACHMENTS,
} from '../contract';

type Ctx = Pick<RouteContext, 'user' | 'memberId' | 'impersonating' | 'database' | 'services' | 'audit' | 'auditRead'>;

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
  version: number;
  created_at: string;
  updated_at: string;
}
const ISO = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const COLUMNS = `n.note_id, n.member_id, n.note_text, n.note_type_id, n.reply_to_id, n.author_user_id, n.author_name, n.author_kind,
  n.read_at, n.version, ${ISO('n.created_at')} AS created_at, ${ISO('n.updated_at')} AS updated_at`;

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

async function toWire(ctx: Ctx, sql: SqlClient, rows: Row[]): Promise<Note[]> {
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
    IsRead: r.author_kind === 'Member' || r.read_at !== null,
    CanEdit: !!ctx.user && r.author_user_id === ctx.user.id,
    Version: r.version,
    Attachments: files.get(r.note_id) ?? [],
  }));
}

const unreadCount = async (sql: SqlClient, memberId: number) =>
  (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM notes WHERE member_id = $1 AND author_kind = 'Staff' AND read_at IS NULL`, [memberId]))[0]
    ?.n ?? 0;

export async function searchNotes(ctx: Ctx, f: NoteSearch): Promise<NoteSearchResult> {
  const memberId = memberOf(ctx);
  const sql = ctx.database.sql;
  const params: unknown[] = [memberId];
  const where = ['n.member_id = $1'];
  if (f.DateFrom) {
    params.push(f.DateFrom);
    where.push(`n.created_at >= $${params.length}::date`);
  } else if (!f.DateTo) {
    where.push(`n.created_at >= (current_date - interval '${NOTE_DEFAULT_RANGE_YEARS} years')`);
  }
  if (f.DateTo) {
    params.push(f.DateTo);
    where.push(`n.created_at < $${params.length}::date + 1`);
  }
  if (f.Query) {
    params.push(f.Query.toLowerCase());
    where.push(`(strpos(lower(n.note_text), $${params.length}) > 0 OR strpos(lower(n.author_name), $${params.length}) > 0)`);
  }
  const w = where.join(' AND ');
  const total = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM notes n WHERE ${w}`, params))[0]?.n ?? 0;
  const rows = await sql.query<Row>(
    `SELECT ${COLUMNS} FROM notes n WHERE ${w} ORDER BY n.created_at DESC, n.note_id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.PageSize, f.PageIndex * f.PageSize],
  );
  await ctx.audit({ action: 'notes.search', entity: 'member', entityId: memberId, memberId, detail: { count: rows.length } });
  return { Items: await toWire(ctx, sql, rows), ItemCount: total, UnreadCount: await unreadCount(sql, memberId) };
}

async function loadRow(sql: SqlClient, memberId: number, id: number, lock = false): Promise<Row | null> {
  return (
    (await sql.query<Row>(`SELECT ${COLUMNS} FROM notes n WHERE n.note_id = $1 AND n.member_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, memberId]))[0] ?? null
  );
}

/** One note with its conversation. The member opening it marks the thread's staff replies read (audited with the read). */
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
    }
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

interface Checked {
  fileName: string;
  contentType: string;
  bytes: Buffer;
}

/** Decodes and checks every upload by content before anything is written; one bad file refuses the whole request. */
async function checkUploads(list: readonly AttachmentUpload[]): Promise<Checked[]> {
  const out: Checked[] = [];
  for (const [i, a] of list.entries()) {
    const bytes = Buffer.from(a.Content, 'base64');
    if (bytes.length === 0) throw badRequest(msg('body.Attachments.{{index}}.Content: is empty', { index: i }));
    const check = await checkContent(a.FileName, bytes);
    if (!check.ok) throw badRequest(msg('body.Attachments.{{index}}: {{reason}}', { index: i, reason: check.message }));
    out.push({ fileName: a.FileName, contentType: check.contentType, bytes });
  }
  return out;
}

/**
 * Stores the files of one note inside the caller's transaction: a row per file, then the file under
 * notes/<member>/<note>/<attachment>, each key added to `stored` as its file is written. The caller runs the transaction
 * through `keepingFiles`, which deletes those files if anything fails before the commit (a put, the audit row, the
 * commit itself): the rows roll back, and no file is left without a row.
 */
async function storeFiles(ctx: Ctx, tx: SqlClient, memberId: number, noteId: number, files: Checked[], stored: string[]): Promise<void> {
  for (const f of files) {
    const row = await tx.query<{ attachment_id: number }>(
      `INSERT INTO note_attachments (note_id, file_name, content_type, size, file_key) VALUES ($1, $2, $3, $4, 'pending-' || gen_random_uuid()) RETURNING attachment_id`,
      [noteId, f.fileName, f.contentType, f.bytes.length],
    );
    const attachmentId = row[0]?.attachment_id as number;
    const key = `notes/${memberId}/${noteId}/${attachmentId}`;
    await tx.query('UPDATE note_attachments SET file_key = $2 WHERE attachment_id = $1', [attachmentId, key]);
    stored.push(key);
    await ctx.services.files.put(key, f.bytes, { contentType: f.contentType });
  }
}

/** Runs a transaction that stores files (storeFiles); if it does not commit, the files it stored are deleted. */
async function keepingFiles<T>(ctx: Ctx, work: (stored: string[]) => Promise<T>): Promise<T> {
  const stored: string[] = [];
  try {
    return await work(stored);
  } catch (e) {
    await Promise.allSettled(stored.map((k) => ctx.services.files.delete(k)));
    throw e;
  }
}

/** The type a create or update writes (by name, by key, else Member Notes); members write Member Notes only. */
function writableBy(staff: boolean, b: Pick<NoteCreate, 'NoteType' | 'NoteTypeID'>): number {
  const typeId = noteTypeIdOf(b);
  if (!staff && typeId !== NoteType.Member)
    throw badRequest(b.NoteType === undefined ? 'body.NoteTypeID: members write Member Notes only.' : 'body.NoteType: members write Member Notes only.');
  return typeId;
}

export async function createNote(ctx: Ctx, b: NoteCreate): Promise<Note> {
  const memberId = memberOf(ctx);
  const staff = isStaff(ctx);
  const typeId = writableBy(staff, b);
  const files = await checkUploads(b.Attachments);
  const sql = ctx.database.sql;
  const id = await keepingFiles(ctx, (stored) =>
    sql.transaction(async (tx) => {
      let replyTo: number | null = null;
      if (b.ReplyToID) {
        const parent = await loadRow(tx, memberId, b.ReplyToID);
        if (!parent) throw badRequest('body.ReplyToID: there is no such message in this conversation.');
        replyTo = parent.reply_to_id ?? parent.note_id;
      }
      const rows = await tx.query<{ note_id: number }>(
        `INSERT INTO notes (member_id, note_text, note_type_id, reply_to_id, author_user_id, author_name, author_kind)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING note_id`,
        [memberId, b.NoteText, typeId, replyTo, ctx.user?.id ?? null, await authorName(ctx, tx), staff ? 'Staff' : 'Member'],
      );
      const noteId = rows[0]?.note_id as number;
      await storeFiles(ctx, tx, memberId, noteId, files, stored);
      await ctx.audit({ action: 'notes.note.create', entity: 'note', entityId: noteId, memberId, detail: { replyTo, attachments: files.length, staff } }, tx);
      return noteId;
    }),
  );
  return (await toWire(ctx, sql, [(await loadRow(sql, memberId, id)) as Row]))[0] as Note;
}

/** The author edits the text and type, adds files (at most 10 in all) and removes files; a stale Version is 409. */
export async function updateNote(ctx: Ctx, b: NoteUpdate): Promise<Note> {
  const memberId = memberOf(ctx);
  const typeId = writableBy(isStaff(ctx), b);
  const files = await checkUploads(b.Attachments);
  const sql = ctx.database.sql;
  const removedKeys = await keepingFiles(ctx, (stored) =>
    sql.transaction(async (tx) => {
      const current = await loadRow(tx, memberId, b.NoteID, true);
      if (!current) throw notFound(NOTE_NOT_FOUND);
      if (!ctx.user || current.author_user_id !== ctx.user.id) throw forbidden('Only the author of a message may change it.');
      if (current.version !== b.Version) throw conflict(STALE_NOTE_MESSAGE);
      const existing = await tx.query<{ attachment_id: number; file_key: string }>('SELECT attachment_id, file_key FROM note_attachments WHERE note_id = $1', [
        b.NoteID,
      ]);
      const remove = [...new Set(b.RemoveAttachmentIDs)];
      for (const r of remove)
        if (!existing.some((e) => e.attachment_id === r))
          throw badRequest(msg('body.RemoveAttachmentIDs: {{id}} is not an attachment of this message.', { id: r }));
      if (existing.length - remove.length + files.length > MAX_ATTACHMENTS)
        throw badRequest(msg('body.Attachments: {{reason}}', { reason: TOO_MANY_ATTACHMENTS }));
      const keys = existing.filter((e) => remove.includes(e.attachment_id)).map((e) => e.file_key);
      if (remove.length) await tx.query('DELETE FROM note_attachments WHERE note_id = $1 AND attachment_id = ANY($2::int[])', [b.NoteID, remove]);
      await tx.query('UPDATE notes SET note_text = $2, note_type_id = $3, version = version + 1, updated_at = now() WHERE note_id = $1', [
        b.NoteID,
        b.NoteText,
        typeId,
      ]);
      await storeFiles(ctx, tx, memberId, b.NoteID, files, stored);
      await ctx.audit(
        { action: 'notes.note.update', entity: 'note', entityId: b.NoteID, memberId, detail: { added: files.length, removed: remove.length } },
        tx,
      );
      return keys;
    }),
  );
  // Removed files go once their rows are gone for good.
  await Promise.allSettled(removedKeys.map((k) => ctx.services.files.delete(k)));
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
  const count = await unreadCount(ctx.database.sql, memberId);
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

/** The toolbar's search: the member's notes whose text or author contains the words; staff acting for nobody get none. */
export async function quickSearch(ctx: Ctx, q: string, size: number): Promise<Note[]> {
  if (ctx.memberId === null) return [];
  const memberId = ctx.memberId;
  const sql = ctx.database.sql;
  const rows = await sql.query<Row>(
    `SELECT ${COLUMNS} FROM notes n WHERE n.member_id = $1 AND (strpos(lower(n.note_text), lower($2)) > 0 OR strpos(lower(n.author_name), lower($2)) > 0)
     ORDER BY n.created_at DESC, n.note_id DESC LIMIT $3`,
    [memberId, q, size],
  );
  await ctx.audit({ action: 'notes.globalSearch', entity: 'member', entityId: memberId, memberId, detail: { found: rows.length } });
  return toWire(ctx, sql, rows);
}
