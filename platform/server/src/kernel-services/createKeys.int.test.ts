import { randomUUID } from 'node:crypto';
import { openTestDatabase } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { kernelMigrations } from '../db/kernel-migrations';
import { migrate } from '../db/migrate';
import { ApiError } from '../http/errors';
import { CREATE_KEY_REUSED, type CreateKeyRef, createKeysService, pruneCreateKeys } from './createKeys';

/** Creates' idempotency keys over a real database: a scratch table of "records" stands for a plugin's. */
let database: Database;
const keys = createKeysService();

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database.sql, [{ owner: 'kernel', migrations: kernelMigrations }]);
  await database.sql.exec('CREATE TABLE scratch_records (id serial PRIMARY KEY, body text NOT NULL)');
});
afterAll(() => database?.close());

/** The create a plugin writes: claim, insert, record, in one transaction; `fail` rolls it back after the insert. */
async function create(ref: CreateKeyRef, body: { Text: string; IdempotencyKey?: string }, fail = false): Promise<number> {
  return database.sql.transaction(async (tx) => {
    const earlier = await keys.claim(tx, ref, body);
    if (earlier !== null) return Number(earlier);
    const id = (await tx.query<{ id: number }>('INSERT INTO scratch_records (body) VALUES ($1) RETURNING id', [body.Text]))[0]?.id as number;
    if (fail) throw new Error('the create failed after its insert');
    await keys.record(tx, ref, id);
    return id;
  });
}
const records = async (text: string) =>
  (await database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM scratch_records WHERE body = $1', [text]))[0]?.n;
const ref = (key: string, userId = USER): CreateKeyRef => ({ userId, scope: 'test.record', key });
const USER = randomUUID();

describe('creates’ idempotency keys', () => {
  it('adds the record once for a key sent again with the same request (its IdempotencyKey aside), and answers that record', async () => {
    const first = await create(ref('key-aaaa-1'), { Text: 'once', IdempotencyKey: 'key-aaaa-1' });
    const again = await create(ref('key-aaaa-1'), { Text: 'once', IdempotencyKey: 'key-aaaa-1' });
    expect(again).toBe(first);
    expect(await records('once')).toBe(1);
  });

  it('refuses the key with another request (409) and adds nothing', async () => {
    await create(ref('key-bbbb-1'), { Text: 'first' });
    const refused = create(ref('key-bbbb-1'), { Text: 'another' });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(create(ref('key-bbbb-1'), { Text: 'another' })).rejects.toMatchObject({ status: 409, message: CREATE_KEY_REUSED });
    expect(await records('another')).toBe(0);
  });

  it('claims nothing when the create fails: the same key then creates', async () => {
    await expect(create(ref('key-cccc-1'), { Text: 'retried' }, true)).rejects.toThrow('failed after its insert');
    expect(await records('retried')).toBe(0);
    await create(ref('key-cccc-1'), { Text: 'retried' });
    expect(await records('retried')).toBe(1);
  });

  it('keeps keys apart by user and by kind of record', async () => {
    await create(ref('key-dddd-1'), { Text: 'mine' });
    await create(ref('key-dddd-1', randomUUID()), { Text: 'mine' });
    await create({ ...ref('key-dddd-1'), scope: 'test.other' }, { Text: 'mine' });
    expect(await records('mine')).toBe(3);
  });

  it('adds one record for the same key sent twice at once', async () => {
    const ids = await Promise.all([create(ref('key-eeee-1'), { Text: 'at once' }), create(ref('key-eeee-1'), { Text: 'at once' })]);
    expect(ids[0]).toBe(ids[1]);
    expect(await records('at once')).toBe(1);
  });

  it('lets keys go after the retention, so the table does not grow', async () => {
    await create(ref('key-ffff-1'), { Text: 'old' });
    await database.sql.query(`UPDATE create_keys SET created_at = now() - interval '31 days' WHERE key = 'key-ffff-1'`);
    expect(await pruneCreateKeys(database.sql)).toBe(1);
    expect(await database.sql.query(`SELECT 1 FROM create_keys WHERE key = 'key-ffff-1'`)).toEqual([]);
  });
});
