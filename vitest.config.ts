import { defineConfig } from 'vitest/config';

/**
 * Two projects: unit tests (*.test.ts, no database) and integration tests (*.int.test.ts) against a real
 * database: in-memory PGlite by default, a real PostgreSQL server when TEST_DATABASE_URL is set.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Both projects in one run: unit files first, then the integration files two at a time.
          sequence: { groupOrder: 0 },
          include: ['{platform,plugins,apps,tests,scripts}/**/*.test.{ts,tsx}'],
          testTimeout: 20_000,
          hookTimeout: 240_000,
          exclude: ['**/*.int.test.ts', '**/node_modules/**', '**/dist/**'],
          // Worker threads start faster than forked processes, and both cores run files (the default keeps one for
          // the main process): 121 s -> 80 s for the unit files on two cores. Each file still gets fresh modules.
          pool: 'threads',
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['{platform,plugins,apps,tests,scripts}/**/*.int.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One migrated database per run, which each test server starts from (platform/testing/src/globalSetup.ts).
          globalSetup: ['platform/testing/src/globalSetup.ts'],
          // Two cores: run files two at a time, in worker threads (256 s -> 195 s on PGlite against forked processes);
          // each file gets its own database.
          pool: 'threads',
          maxWorkers: 2,
          // A worker keeps the modules it imported for its next file instead of importing the whole server again for
          // each (238 s -> 187 s on PGlite). Nothing a test server keeps is module state: routes, plugins, jobs and the
          // database live on the server each file starts; the module-level caches are keyed by random ids (the
          // session cache) or are pure (formats, the migrated database image the test servers start from).
          isolate: false,
        },
      },
    ],
  },
});
