import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@portal/server/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// './seed' alone would resolve to the shell script scripts/seed.
import { seed } from './seed.js';

type UserRow = { user_name: string; member_id: number | null };

/**
 * The demo seed with spare members (`--spares`), as the end-to-end environment runs it (scripts/e2e-server.ts), into
 * its own embedded database. It runs on PGlite alone: the seed opens the database its environment names (DATA_DIR),
 * not the test server's, so the PostgreSQL pass would repeat the same run.
 */
describe.skipIf(!!process.env.TEST_DATABASE_URL)('scripts/seed --spares', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-seed-'));
  const before = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
  const users = async () => {
    const db = await openDatabase({ databaseUrl: null, dataDir });
    try {
      return await db.sql.query<UserRow>('SELECT user_name, member_id FROM users ORDER BY user_name');
    } finally {
      await db.close();
    }
  };
  let first: UserRow[];

  beforeAll(async () => {
    process.env.DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    await seed(1, () => {}, 1);
    first = await users();
  }, 240_000);
  afterAll(() => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds one spare member of each member demo user, named <user>-2, and none of a staff role', () => {
    const byName = new Map(first.map((u) => [u.user_name, u.member_id]));
    for (const spare of ['card.careguard-2', 'assist.careguard-2', 'card.careassist-2', 'assist.careassist-2', 'finance.careguardfinance-2']) {
      expect(byName.get(spare), spare).toEqual(expect.any(Number));
      expect(byName.get(spare)).not.toBe(byName.get(spare.replace(/-2$/, '')));
    }
    expect(byName.has('staff.caresupport-2')).toBe(false);
    expect(byName.has('card.careguard-3')).toBe(false);
    // Each primary member demo user has its spare.
    const primaryMembers = first.filter((u) => u.member_id !== null && /^[a-z]+\.[a-z]+$/.test(u.user_name)).map((u) => u.user_name);
    expect(primaryMembers.length).toBeGreaterThan(10);
    for (const name of primaryMembers) expect(byName.has(`${name}-2`), name).toBe(true);
  });

  it('lists no spare with the demo logins', () => {
    const listed = (JSON.parse(readFileSync(join(dataDir, 'demo-users.json'), 'utf8')) as { userName: string }[]).map((d) => d.userName);
    expect(listed).toContain('card.careguard');
    expect(listed.filter((n) => n.endsWith('-2'))).toEqual([]);
  });

  it('run again, keeps every user and member as they were and adds none', async () => {
    await seed(1, () => {}, 1);
    expect(await users()).toEqual(first);
  }, 240_000);
});
