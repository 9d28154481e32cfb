import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, byteLimit, type FileStore, msg, notFound, type RouteContext, type SqlClient } from '@portal/server';
import type { UploadStatus } from '../contract';
import { CHUNK_BYTES } from '../rules';

export interface UploadRow {
  id: string;
  member_id: number;
  user_id: string;
  file_name: string;
  size: string | number;
  received: string | number;
}

const PREFIX = 'reimbursements/uploads';
/** Chunks are keyed by their offset, zero-padded so the store's key order is the byte order. */
export const chunkKey = (uploadId: string, offset: number) => `${PREFIX}/${uploadId}/${String(offset).padStart(13, '0')}`;

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
 * Stores one chunk at the upload's current offset: streamed into the file store (never whole in memory), then the
 * offset moves, only if no other request moved it meanwhile. A chunk sent at another offset is refused with 409 and
 * the status, so the client resumes where the server is.
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
  const counted = { bytes: 0 };
  const limited = byteLimit(max, counted, msg('A chunk may hold at most {{max}} bytes here.', { max }));
  const key = chunkKey(row.id, offset);
  // The store reads `limited` while the request body pipes into it; an error on either side fails the chunk, and a
  // chunk that failed half-way leaves nothing behind (the next attempt at this offset replaces the key anyway).
  const piping = pipeline(body, limited);
  piping.catch(() => {});
  try {
    await ctx.services.files.put(key, limited, { contentType: 'application/octet-stream' });
    await piping;
  } catch (e) {
    limited.destroy();
    body.destroy();
    await ctx.services.files.delete(key).catch(() => {});
    throw e;
  }
  if (counted.bytes === 0) {
    await ctx.services.files.delete(key);
    throw new ApiError(400, 'The chunk was empty.');
  }
  // The chunk that completes the file moves the offset with the upload's audit row (one transaction); the others are
  // not audited one by one.
  const completes = offset + counted.bytes === size;
  const moved = await ctx.database.sql.transaction(async (tx) => {
    const rows = await tx.query<UploadRow>('UPDATE reimbursement_uploads SET received = received + $3 WHERE id = $1 AND received = $2 RETURNING *', [
      row.id,
      offset,
      counted.bytes,
    ]);
    if (rows[0] && completes)
      await ctx.audit(
        { action: 'reimbursement.upload.complete', entity: 'reimbursement_upload', entityId: row.id, memberId, detail: { name: row.file_name, size } },
        tx,
      );
    return rows;
  });
  if (!moved[0]) {
    const now = (await ctx.database.sql.query<UploadRow>('SELECT * FROM reimbursement_uploads WHERE id = $1', [row.id]))[0];
    throw new ApiError(409, 'Another request sent this chunk first.', now ? statusOf(now) : null);
  }
  return statusOf(moved[0]);
}

/** The whole file as one stream, chunk after chunk from the store: nothing is held beyond the chunk being read. */
export function openUpload(files: FileStore, uploadId: string): Readable {
  async function* bytes() {
    for await (const entry of files.list(`${PREFIX}/${uploadId}/`)) {
      const stored = await files.get(entry.key);
      if (!stored) throw new Error(`chunk ${entry.key} vanished`);
      yield* stored.body;
    }
  }
  return Readable.from(bytes(), { objectMode: false });
}

/** Drops an upload's chunks and its row. */
export async function dropUpload(ctx: Pick<RouteContext, 'database' | 'services'>, uploadId: string, sql: SqlClient = ctx.database.sql): Promise<void> {
  await sql.query('DELETE FROM reimbursement_uploads WHERE id = $1', [uploadId]);
  await dropChunks(ctx.services.files, uploadId);
}

/** Drops an upload's chunks from the file store. */
export async function dropChunks(files: FileStore, uploadId: string): Promise<void> {
  for await (const entry of files.list(`${PREFIX}/${uploadId}/`)) await files.delete(entry.key);
}

/**
 * Uploads left unfinished for a day are dropped (a daily job): each one's chunks first, then its row, so a run cut
 * short (a crash, a deploy) leaves the rest to the next run rather than chunks no row names any more.
 */
export async function pruneUploads(sql: SqlClient, files: FileStore): Promise<number> {
  const stale = await sql.query<{ id: string }>("SELECT id FROM reimbursement_uploads WHERE created_at < now() - interval '1 day'");
  for (const { id } of stale) {
    await dropChunks(files, id);
    await sql.query('DELETE FROM reimbursement_uploads WHERE id = $1', [id]);
  }
  return stale.length;
}
