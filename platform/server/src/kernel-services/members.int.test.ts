import { openTestDatabase } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { kernelMigrations } from '../db/kernel-migrations';
import { migrate } from '../db/migrate';
import { type MembersService, membersService } from './members';

/** The members service's termination reads over a real database (PGlite by default, PostgreSQL with TEST_DATABASE_URL). */
let database: Database;
let members: MembersService;
const onPostgres = !!process.env.TEST_DATABASE_URL;
const CHICAGO = 'America/Chicago';

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database.sql, [{ owner: 'kernel', migrations: kernelMigrations }]);
  members = membersService(database.sql, { send: async () => null });
});
afterAll(() => database?.close());

async function member(terminationDate: string | null): Promise<number> {
  const { memberId } = await members.create({ brand: 'card', firstName: 'Ada', lastName: 'Ends', email: null });
  await database.sql.query('UPDATE members SET termination_date = $2 WHERE member_id = $1', [memberId, terminationDate]);
  return memberId;
}

describe('the members service’s termination day', () => {
  it('is null for a membership that has no termination', async () => {
    expect(await members.terminationDay(await member(null), CHICAGO)).toBeNull();
  });

  it('is the business’s calendar day of the termination, not the UTC one (03:00 UTC on Mar 1 is Feb 28 in Chicago)', async () => {
    const id = await member('2026-03-01T03:00:00Z');
    expect(await members.terminationDay(id, CHICAGO)).toBe('2026-02-28');
    expect(await members.terminationDay(id, 'UTC')).toBe('2026-03-01');
  });

  it('reads the same day inside a write’s transaction, with the row read FOR SHARE', async () => {
    const id = await member('2026-07-04T17:00:00Z');
    const day = await database.sql.transaction((tx) => members.terminationDay(id, CHICAGO, tx, { share: true }));
    expect(day).toBe('2026-07-04');
  });

  it.skipIf(!onPostgres)('holds a termination of the member until the transaction that read it FOR SHARE ends (PostgreSQL)', async () => {
    const id = await member(null);
    const order: string[] = [];
    let terminating: Promise<unknown> = Promise.resolve();
    await database.sql.transaction(async (tx) => {
      expect(await members.terminationDay(id, CHICAGO, tx, { share: true })).toBeNull();
      terminating = database.sql.query('UPDATE members SET termination_date = now() WHERE member_id = $1', [id]).then(() => order.push('terminated'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      order.push('write committed');
    });
    await terminating;
    expect(order).toEqual(['write committed', 'terminated']);
    expect(await members.terminationDay(id, CHICAGO)).not.toBeNull();
  });
});
