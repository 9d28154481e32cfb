import type { StartedServer } from '@portal/app-server/server';
import { startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from './index';

/** The demo coupons' days count from the business's day the seed is given (scripts/seed's), never from the UTC one. */
let server: StartedServer;

beforeAll(async () => {
  server = await startTestServer();
  await server.database.sql.query('DELETE FROM coupons');
});
afterAll(() => server?.close());

describe('coupons seed', () => {
  it('starts and ends the demo coupons counted from the given business day', async () => {
    await plugin.seed?.({ sql: server.database.sql, scale: 1, members: [], random: Math.random, log: () => {}, today: '2026-01-15' });
    const rows = await server.database.sql.query<{ code: string; start: string; end: string | null }>(
      `SELECT code, to_char(start_date, 'YYYY-MM-DD') AS start, to_char(end_date, 'YYYY-MM-DD') AS end FROM coupons
       WHERE code IN ('WELCOME-AMETHYST', 'ASSIST-YEAR', 'PAUSED-CARE') ORDER BY code`,
    );
    expect(rows).toEqual([
      { code: 'ASSIST-YEAR', start: '2026-01-05', end: '2027-01-05' },
      { code: 'PAUSED-CARE', start: '2026-01-10', end: null },
      { code: 'WELCOME-AMETHYST', start: '2025-12-16', end: null },
    ]);
    const promos = await server.database.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM coupons WHERE code LIKE 'PROMO-%' AND start_date > '2026-01-15'::date`,
    );
    expect(promos[0]?.n).toBe(0);
  });
});
