import { indexPlan, openTestDatabase, sortsRows } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { kernelMigrations } from '../db/kernel-migrations';
import { migrate } from '../db/migrate';
import { userOrder } from './identity';

/**
 * The users admin's list reads indexes rather than every login or role row (measured before at 100,000 logins on
 * PGlite: 86 ms the role filter, 156-328 ms a page sorted by first or last name). The plans are read with sequential
 * scans and sorts priced out, so the test says whether an index can serve the statement at all, at any size.
 */
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database.sql, [{ owner: 'kernel', migrations: kernelMigrations }]);
});
afterAll(() => database?.close());

const plan = (statement: string, params: unknown[]) => indexPlan(database.sql, statement, params);

describe("the users admin's list", () => {
  it('filters by role through the role index, not every role row', async () => {
    const text = await plan('SELECT u.id FROM users u WHERE EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = $1)', ['CareSupport']);
    expect(text).toContain('user_roles_role_idx');
  });

  it('sorted by first or last name, either way, reads that name index with no sort of every login', async () => {
    for (const [sort, index] of [
      ['FirstName', 'users_first_name_idx'],
      ['LastName', 'users_last_name_idx'],
    ] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        const text = await plan(`SELECT u.id FROM users u ORDER BY ${userOrder(sort, dir)} LIMIT 15 OFFSET 0`, []);
        expect(text, `${sort} ${dir}`).toContain(index);
        expect(text, `${sort} ${dir}`).not.toSatisfy(sortsRows);
      }
    }
  });
});
