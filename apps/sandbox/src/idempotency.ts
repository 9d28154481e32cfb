import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The longest Idempotency-Key the mail and SMS APIs take (as Stripe's). */
export const IDEMPOTENCY_KEY_MAX = 255;
const KEY = /^[\x21-\x7e]+$/;

/**
 * The Idempotency-Key header of a send: null when there is none, an error when it is empty, longer than
 * IDEMPOTENCY_KEY_MAX or not visible ASCII (a space, a control character, several keys joined by a repeated header).
 */
export function idempotencyKeyOf(header: string | string[] | undefined): { key: string | null } | { error: string } {
  if (header === undefined) return { key: null };
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !KEY.test(key))
    return { error: `The Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (no spaces).` };
  return { key };
}

/** A hash of a send's validated body: a repeated key with another hash is another message (409). */
export const requestHash = (body: object): string => createHash('sha256').update(JSON.stringify(body)).digest('hex');

/**
 * Stores a sent message once per Idempotency-Key, as the mail and SMS APIs answer it: 201 with the new message; the key
 * again with the same message answers the first one (200, Idempotent-Replayed: true) and stores nothing; with another
 * message, 409. `insert` runs the table's INSERT ... ON CONFLICT (idempotency_key) DO NOTHING RETURNING * with the key
 * and the body's hash (both null without a key), so requests racing with one key store one row.
 */
export async function storeOnce<R extends { id: number }, M extends object>(
  req: FastifyRequest,
  reply: FastifyReply,
  opts: {
    db: PGlite;
    table: 'mail_messages' | 'sms_messages';
    key: string | null;
    message: M;
    insert: (key: string | null, hash: string | null) => Promise<R | undefined>;
    present: (row: R) => object;
    what: string;
  },
) {
  const { key, message } = opts;
  const hash = key ? requestHash(message) : null;
  const row = await opts.insert(key, hash);
  if (row) {
    req.log.info({ id: row.id }, `${opts.what} received`);
    return reply.status(201).send(opts.present(row));
  }
  // Only a keyed insert can conflict, and messages are never deleted: the key's first message is there.
  const first = (await opts.db.query<R & { request_hash: string }>(`SELECT * FROM ${opts.table} WHERE idempotency_key = $1`, [key])).rows[0];
  if (!first) throw new Error('the idempotency key conflicted with no stored message');
  if (first.request_hash !== hash)
    return reply.status(409).send({ error: `The Idempotency-Key ${key} was already used for a different message (${first.id}).` });
  req.log.info({ id: first.id }, `${opts.what} repeated with its idempotency key: answered the first`);
  return reply.status(200).header('idempotent-replayed', 'true').send(opts.present(first));
}
