import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServerPlugins } from '@portal/app-server/plugins';
import { migrationSets } from '@portal/app-server/server';
import { loadBrands } from '@portal/brands';
import { installedPluginIds } from '@portal/brands/plugins';
import { DatabaseImage, openDatabase } from '@portal/server/kernel';
import { makeUser, startTestServer } from '@portal/testing/server';
import { describe, expect, it } from 'vitest';

const migrations = async (sql: { query<R>(text: string): Promise<R[]> }) =>
  (await sql.query<{ key: string }>("SELECT owner || '/' || id AS key FROM schema_migrations ORDER BY 1")).map((r) => r.key);

describe("the integration tests' databases (platform/testing/src/globalSetup.ts)", () => {
  it('are made once per run: a migrated image of the in-memory database, or a template database on PostgreSQL', () => {
    if (process.env.TEST_DATABASE_URL) expect(process.env.TEST_DATABASE_TEMPLATE).toMatch(/^t_[0-9a-f]{12}$/);
    else expect(process.env.TEST_PGLITE_IMAGE).toMatch(/pgdata\.tar$/);
  });

  it("start a test server with every migration the code declares applied, and no one's rows", async () => {
    const declared = migrationSets(await loadServerPlugins(loadBrands(installedPluginIds())))
      .flatMap((set) => set.migrations.map((m) => `${set.owner}/${m.id}`))
      .sort();
    expect(declared.length).toBeGreaterThan(20);
    const test = await startTestServer();
    try {
      expect(await migrations(test.database.sql)).toEqual(declared);
      expect(await test.database.sql.query('SELECT 1 FROM users UNION ALL SELECT 1 FROM members')).toEqual([]);
    } finally {
      await test.close();
    }
  });

  it("are each test server's own: a user made on one is not on another", async () => {
    const [a, b] = await Promise.all([startTestServer(), startTestServer()]);
    try {
      await makeUser(a, { userName: 'made-on-a', roles: [] });
      expect(await a.database.sql.query("SELECT 1 FROM users WHERE user_name = 'made-on-a'")).toHaveLength(1);
      expect(await b.database.sql.query("SELECT 1 FROM users WHERE user_name = 'made-on-a'")).toHaveLength(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

// The in-memory database's images, whichever engine the run tests: the PostgreSQL run skips them rather than repeat them.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('an image of the in-memory database', () => {
  it('starts other in-memory databases with its rows from one held image (DatabaseImage), each changing apart from the others, with 16 MB of shared buffers; the original keeps 128 MB', async () => {
    const first = await openDatabase({ databaseUrl: null, dataDir: null });
    await first.sql.exec("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('in the image')");
    const dumped = await first.image?.();
    if (!dumped) throw new Error('the in-memory database gave no image');
    const image = await DatabaseImage.of(dumped);
    expect(await DatabaseImage.of(image)).toBe(image);
    expect(image.size).toBe(dumped.size);
    const [a, b] = [await openDatabase({ databaseUrl: null, dataDir: null, image }), await openDatabase({ databaseUrl: null, dataDir: null, image })];
    const buffers = async (db: typeof first) => (await db.sql.query<{ shared_buffers: string }>('SHOW shared_buffers'))[0]?.shared_buffers;
    try {
      await a.sql.exec("INSERT INTO kept VALUES ('in a alone')");
      expect(await b.sql.query('SELECT v FROM kept')).toEqual([{ v: 'in the image' }]);
      expect(await first.sql.query('SELECT v FROM kept')).toEqual([{ v: 'in the image' }]);
      expect(await a.sql.query('SELECT v FROM kept ORDER BY v')).toEqual([{ v: 'in a alone' }, { v: 'in the image' }]);
      expect([await buffers(a), await buffers(b), await buffers(first)]).toEqual(['16MB', '16MB', '128MB']);
    } finally {
      await Promise.all([first.close(), a.close(), b.close()]);
    }
  });

  it('is refused for a database on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-image-'));
    try {
      await expect(openDatabase({ databaseUrl: null, dataDir: dir, image: new Blob([]) })).rejects.toThrow(
        'a database image is for the in-memory database (dataDir null)',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
