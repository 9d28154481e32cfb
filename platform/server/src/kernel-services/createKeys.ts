import { createHash } from 'node:crypto';
import type { SqlClient } from '../db/database';
import { conflict } from '../http/errors';
import { pruneKeyTable } from '../jobs/housekeeping';

/** The key sent again with another request (message verbatim in the kernel's catalogues). */
export const CREATE_KEY_REUSED = 'This IdempotencyKey was already used for another request. Nothing was saved; send it with a new key.';

/** One create's key: whose (the signed-in user), for what kind of record (`scope`, e.g. 'notes.note'), and the key. */
export interface CreateKeyRef {
  userId: string;
  scope: string;
  key: string;
}

/**
 * The idempotency keys of creates: a create whose answer was lost (the connection dropped, a second press) is sent
 * again with the same key and must add its record once. Used in the create's own transaction, so a refused or failed
 * create claims nothing:
 *
 * ```ts
 * const ref = { userId, scope: 'notes.note', key: body.IdempotencyKey };
 * const id = await sql.transaction(async (tx) => {
 *   const earlier = await services.createKeys.claim(tx, ref, body);
 *   if (earlier !== null) return Number(earlier);     // the same create again: its record
 *   const id = ...insert...;
 *   await services.createKeys.record(tx, ref, id);
 *   return id;
 * });
 * ```
 */
export interface CreateKeysService {
  /**
   * Claims the key for this request. Null: the key is new, go on and create (then `record` the new record's id). An
   * id: the same request was made with this key before; answer that record and add none. The key with another request
   * (`request`: the create's input as the contract parsed it; its IdempotencyKey is left out) is refused with 409. A second request
   * with the key while the first is under way waits for the first's transaction, then answers its record.
   */
  claim(tx: SqlClient, ref: CreateKeyRef, request: unknown): Promise<string | null>;
  /** Notes the record the key's create made, in the create's transaction. */
  record(tx: SqlClient, ref: CreateKeyRef, recordId: string | number): Promise<void>;
}

/** The request a key stands for, as a hash: its input as the contract parsed it, without the key itself. */
export function requestFingerprint(request: unknown): string {
  const input = request !== null && typeof request === 'object' && 'IdempotencyKey' in request ? { ...request, IdempotencyKey: undefined } : request;
  return createHash('sha256')
    .update(JSON.stringify(input ?? null))
    .digest('hex');
}

export function createKeysService(): CreateKeysService {
  return {
    async claim(tx, ref, request) {
      const hash = requestFingerprint(request);
      const claimed = await tx.query(
        `INSERT INTO create_keys (user_id, scope, key, request_hash) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, scope, key) DO NOTHING RETURNING key`,
        [ref.userId, ref.scope, ref.key, hash],
      );
      if (claimed.length > 0) return null;
      const first = (
        await tx.query<{ request_hash: string; record_id: string | null }>(
          'SELECT request_hash, record_id FROM create_keys WHERE user_id = $1 AND scope = $2 AND key = $3',
          [ref.userId, ref.scope, ref.key],
        )
      )[0];
      if (!first || first.request_hash !== hash) throw conflict(CREATE_KEY_REUSED);
      if (first.record_id === null) throw new Error(`the create key ${ref.scope}/${ref.key} was claimed without its record`);
      return first.record_id;
    },
    async record(tx, ref, recordId) {
      await tx.query('UPDATE create_keys SET record_id = $4 WHERE user_id = $1 AND scope = $2 AND key = $3', [
        ref.userId,
        ref.scope,
        ref.key,
        String(recordId),
      ]);
    },
  };
}

export { CREATE_KEY_RETENTION_DAYS } from '../jobs/housekeeping';

/** Deletes keys older than the retention (the daily housekeeping job). Returns how many went. */
export const pruneCreateKeys = (sql: SqlClient, retentionDays?: number): Promise<number> => pruneKeyTable(sql, 'create_keys', retentionDays);
