import { describe, expect, it } from 'vitest';
import { openSandboxDb } from './db';

const tables = async (db: Awaited<ReturnType<typeof openSandboxDb>>) =>
  (await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")).rows.map(
    (r) => r.table_name,
  );
const migrations = async (db: Awaited<ReturnType<typeof openSandboxDb>>) =>
  (await db.query<{ id: string }>('SELECT id FROM sandbox_migrations ORDER BY id')).rows.map((r) => r.id);
const mailCount = async (db: Awaited<ReturnType<typeof openSandboxDb>>) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_messages')).rows[0]?.n;

// The sandbox's own embedded database, whichever engine the run tests: the PostgreSQL run skips it rather than repeat it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('the sandbox database', () => {
  it('opens each in-memory database migrated and empty, apart from the others, also once one was copied from another', async () => {
    const first = await openSandboxDb(null);
    const second = await openSandboxDb(null);
    try {
      expect(await migrations(first)).toEqual(['0001_mail', '0002_sms', '0003_message_idempotency']);
      await first.query("INSERT INTO mail_messages (from_addr, to_addr, subject, text_body) VALUES ('a@x.test', 'b@x.test', 's', 't')");
      const third = await openSandboxDb(null);
      try {
        for (const db of [second, third]) {
          expect(await tables(db)).toEqual(await tables(first));
          expect(await migrations(db)).toEqual(await migrations(first));
          expect(await mailCount(db)).toBe(0);
        }
        await third.query("INSERT INTO sms_messages (to_number, text_body) VALUES ('+15555550100', 'code')");
        expect((await second.query<{ n: number }>('SELECT count(*)::int AS n FROM sms_messages')).rows[0]?.n).toBe(0);
        expect(await mailCount(first)).toBe(1);
      } finally {
        await third.close();
      }
    } finally {
      await first.close();
      await second.close();
    }
  });
});
