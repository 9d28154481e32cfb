import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, badRequest, byteLimit, type FileStore, msg, notFound, type RouteContext, type SqlClient } from '@portal/server';
import type { UploadStatus } from '../contract';
import { CHUNK_BYTES } from '../rules';

export interface UploadRow {
  id: string;
  member_id: number;
  user_id: string;
  file_name: string;
  size: string | number;
  received: string | number;
  /**
   * The keys of the chunks the upload moved with, in byte order (recorded by the UPDATE that moved its offset). NULL for
   * an upload started before chunks were recorded: its chunks are the files listed under it, one key per offset.
   */
  chunks: string[] | null;
}

const PREFIX = 'reimbursements/uploads';
const at = (offset: number) => String(offset).padStart(13, '0');
/**
 * One attempt at a chunk has a key of its own: the chunk's offset (zero-padded, so the store's key order is the byte
 * order), then a new id. An attempt that lost to another at the same offset, or failed, removes only its own file.
 */
export const attemptKey = (uploadId: string, offset: number) => `${PREFIX}/${uploadId}/${at(offset)}.${randomUUID()}`;
/** Where every attempt at an offset wrote before chunks were recorded (an upload with `chunks` NULL). */
export const legacyChunkKey = (uploadId: string, offset: number) => `${PREFIX}/${uploadId}/${at(offset)}`;

/** The refusal of a chunk whose sender went away before its end (the answer reaches no one; the log sees a 400). */
export const CHUNK_CUT_SHORT = 'The chunk did not arrive whole.';

export const statusOf = (row: UploadRow): UploadStatus => ({
  UploadId: row.id,
  FileName: row.file_name,
  Size: Number(row.size),
  Offset: Number(row.received),
  ChunkSize: CHUNK_BYTES,
});

/** The member's upload (404 for anyone else's: an upload id is not a key to another member's file). */
export async function loadUpload(sql: SqlClient, id: string, memberId: number): Promise<UploadRow> {
  const row = (await sql.query<UploadRow>('SELECT * FROM reimbursement_uploads WHERE id = $1 AND member_id = $2', [id, memberId]))[0];
  if (!row) throw notFound('There is no such upload.');
  return row;
}

/**
 * Stores one chunk at the upload's current offset: streamed into the file store (never whole in memory) under this
 * attempt's own key, then the offset moves and the key is recorded in one UPDATE, only if no other request moved it
 * meanwhile. An attempt that did not move the offset (it failed, was empty, or another attempt at the same offset won)
 * removes its own file and never another's: a stale first try that fails after its retry went through leaves the
 * retry's chunk in place. A chunk sent at another offset is refused with 409 and the status, so the client resumes
 * where the server is.
 */
export async function receiveChunk(
  ctx: Pick<RouteContext, 'database' | 'services' | 'audit'>,
  row: UploadRow,
  offset: number,
  body: Readable,
  memberId: number,
): Promise<UploadStatus> {
  const received = Number(row.received);
  const size = Number(row.size);
  if (offset !== received) {
    body.resume();
    throw new ApiError(409, msg('The upload is at byte {{received}}; send the next chunk from there.', { received }), statusOf(row));
  }
  const max = Math.min(CHUNK_BYTES, size - received);
  if (max <= 0) {
    body.resume();
    throw new ApiError(409, 'The upload is complete.', statusOf(row));
  }
  const files = ctx.services.files;
  // An upload started before chunks were recorded keeps the one key per offset it was read by; a failed attempt
  // there removes nothing (the store leaves nothing of a failed put, and a retry replaces the key whole).
  const legacy = row.chunks === null;
  const key = legacy ? legacyChunkKey(row.id, offset) : attemptKey(row.id, offset);
  const dropOwn = async () => {
    if (!legacy) await files.delete(key).catch(() => {});
  };
  const counted = { bytes: 0 };
  const limited = byteLimit(max, counted, msg('A chunk may hold at most {{max}} bytes here.', { max }));
  // Which side failed first: the request body or the store's side (pipeline passes either's error on to the other).
  // The body failing first with Node's "aborted" (ECONNRESET) is its sender gone mid-chunk: a closed tab, a dropped
  // connection, a stale attempt cut off. That is the client's doing, answered as a refusal, not an unhandled error.
  const failed: { first: 'body' | 'store' | null; error: unknown } = { first: null, error: undefined };
  const note = (side: 'body' | 'store') => (e: unknown) => {
    if (failed.first === null) Object.assign(failed, { first: side, error: e });
  };
  body.on('error', note('body'));
  limited.on('error', note('store'));
  // The store reads `limited` while the request body pipes into it; an error on either side fails the chunk.
  const piping = pipeline(body, limited);
  piping.catch(() => {});
  try {
    await files.put(key, limited, { contentType: 'application/octet-stream' });
    await piping;
  } catch (e) {
    limited.destroy();
    body.destroy();
    await dropOwn();
    if (failed.first === 'body' && (failed.error as { code?: unknown } | null)?.code === 'ECONNRESET') throw badRequest(CHUNK_CUT_SHORT);
    throw e;
  }
  if (counted.bytes === 0) {
    await dropOwn();
    throw badRequest('The chunk was empty.');
  }
  // The chunk that completes the file moves the offset with the upload's audit row (one transaction); the others are
  // not audited one by one.
  const completes = offset + counted.bytes === size;
  let moved: UploadRow[];
  try {
    moved = await ctx.database.sql.transaction(async (tx) => {
      const rows = await tx.query<UploadRow>(
        `UPDATE reimbursement_uploads SET received = received + $3, chunks = CASE WHEN chunks IS NULL THEN NULL ELSE array_append(chunks, $4::text) END
         WHERE id = $1 AND received = $2 RETURNING *`,
        [row.id, offset, counted.bytes, key],
      );
      if (rows[0] && completes)
        await ctx.audit(
          { action: 'reimbursement.upload.complete', entity: 'reimbursement_upload', entityId: row.id, memberId, detail: { name: row.file_name, size } },
          tx,
        );
      return rows;
    });
  } catch (e) {
    await dropOwn();
    throw e;
  }
  if (!moved[0]) {
    await dropOwn();
    const now = (await ctx.database.sql.query<UploadRow>('SELECT * FROM reimbursement_uploads WHERE id = $1', [row.id]))[0];
    throw new ApiError(409, 'Another request sent this chunk first.', now ? statusOf(now) : null);
  }
  return statusOf(moved[0]);
}

/**
 * The keys of the upload's chunks with their sizes in the store, in byte order: those its row records (a recorded chunk
 * the store no longer has is size null), or, for an upload started before chunks were recorded, those listed under it.
 */
async function storedChunks(files: FileStore, upload: UploadRow): Promise<{ key: string; size: number | null }[]> {
  if (upload.chunks === null) {
    const listed: { key: string; size: number }[] = [];
    for await (const entry of files.list(`${PREFIX}/${upload.id}/`)) listed.push({ key: entry.key, size: entry.size });
    return listed;
  }
  return Promise.all(upload.chunks.map(async (key) => ({ key, size: (await files.head(key))?.size ?? null })));
}

/**
 * Whether the upload's chunks in the store hold the bytes it declared, all of them: a finished upload whose chunks
 * do not (one lost from the store, or written over by a stale attempt before chunks were recorded) is not kept.
 */
export async function uploadIsWhole(files: FileStore, upload: UploadRow): Promise<boolean> {
  const chunks = await storedChunks(files, upload);
  if (chunks.some((c) => c.size === null)) return false;
  return chunks.reduce((sum, c) => sum + (c.size ?? 0), 0) === Number(upload.size);
}

/** The whole file as one stream, chunk after chunk from the store: nothing is held beyond the chunk being read. */
export function openUpload(files: FileStore, upload: UploadRow): Readable {
  async function* bytes() {
    const keys = upload.chunks ?? (await storedChunks(files, upload)).map((c) => c.key);
    for (const key of keys) {
      const stored = await files.get(key);
      if (!stored) throw new Error(`chunk ${key} vanished`);
      yield* stored.body;
    }
  }
  return Readable.from(bytes(), { objectMode: false });
}

/**
 * Drops an upload's chunks, then its row (as the daily prune does): should the file store fail part way, the row is
 * left, so the chunks are still found and dropped by a later call or the prune, never left with no row naming them.
 */
export async function dropUpload(ctx: Pick<RouteContext, 'database' | 'services'>, uploadId: string, sql: SqlClient = ctx.database.sql): Promise<void> {
  await dropChunks(ctx.services.files, uploadId);
  await sql.query('DELETE FROM reimbursement_uploads WHERE id = $1', [uploadId]);
}

/**
 * Drops an upload whose use has committed (a reimbursement made from it): the request has done what it was asked, so a
 * file store failing now does not fail it; the row stays and the daily prune drops the rest.
 */
export async function dropUsedUpload(ctx: Pick<RouteContext, 'database' | 'services' | 'req'>, uploadId: string): Promise<void> {
  await dropUpload(ctx, uploadId).catch((e: unknown) => {
    ctx.req.log.warn({ uploadId, reason: e instanceof Error ? e.message : String(e) }, 'reimbursement upload not dropped yet: the daily prune drops it');
  });
}

/** Drops an upload's chunks from the file store: every file under it, those of attempts that never moved it too. */
export async function dropChunks(files: FileStore, uploadId: string): Promise<void> {
  for await (const entry of files.list(`${PREFIX}/${uploadId}/`)) await files.delete(entry.key);
}

/**
 * Uploads left unfinished for a day are dropped (a daily job): each one's chunks first, then its row, so a run cut
 * short (a crash, a deploy) leaves the rest to the next run rather than chunks no row names any more.
 */
export async function pruneUploads(sql: SqlClient, files: FileStore, now: Date = new Date()): Promise<number> {
  const stale = await sql.query<{ id: string }>("SELECT id FROM reimbursement_uploads WHERE created_at < now() - interval '1 day'");
  for (const { id } of stale) {
    await dropChunks(files, id);
    await sql.query('DELETE FROM reimbursement_uploads WHERE id = $1', [id]);
  }
  return stale.length + (await pruneUnnamedChunks(sql, files, now));
}

/**
 * Chunks no upload row names any more (a cancel or a create whose chunk deletes failed after its row went), written
 * over a day ago, are dropped: a member's file never stays in the store past the uploads' retention. An upload's row
 * is written before its first chunk, so a chunk with no row is never one still wanted. Answers how many uploads'.
 */
async function pruneUnnamedChunks(sql: SqlClient, files: FileStore, now: Date): Promise<number> {
  const before = now.getTime() - 86_400_000;
  const keysOf = new Map<string, string[]>();
  for await (const entry of files.list(`${PREFIX}/`)) {
    const id = entry.key.slice(PREFIX.length + 1).split('/')[0] ?? '';
    if (!UUID.test(id) || entry.lastModified.getTime() >= before) continue;
    keysOf.set(id, [...(keysOf.get(id) ?? []), entry.key]);
  }
  if (keysOf.size === 0) return 0;
  const named = new Set(
    (await sql.query<{ id: string }>('SELECT id::text AS id FROM reimbursement_uploads WHERE id = ANY($1::uuid[])', [[...keysOf.keys()]])).map((r) => r.id),
  );
  let dropped = 0;
  for (const [id, keys] of keysOf) {
    if (named.has(id)) continue;
    for (const key of keys) await files.delete(key);
    dropped++;
  }
  return dropped;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
