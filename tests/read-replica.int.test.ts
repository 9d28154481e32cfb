import { randomUUID } from 'node:crypto';
import type { StartedServer } from '@portal/app-server/server';
import { dayIn, Headers, Roles } from '@portal/core';
import { ConfigError, formatPosition, loadConfig, openDatabase, parseWalPosition } from '@portal/server/kernel';
import { authHeaders, freshDatabaseUrl, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimSearchResult } from '../plugins/claims/src/contract';

type Env<T> = { Data: T; MsgText: string | null; HasError: boolean };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const POSITION = /^[0-9A-F]{16}$/;
/**
 * The lag the test server allows its replica. While a test holds the replica's replay, the other test files' writes
 * move the primary on, so after this long every read goes to the primary: it must outlast a test's steps on a busy
 * two-core machine (1 s did not, once: a spreadsheet read the primary before the test looked).
 */
const MAX_LAG_MS = 4000;

/** Every cell of a spreadsheet's first sheet, as text. */
async function sheetCells(raw: Buffer): Promise<string[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(raw).buffer);
  const cells: string[] = [];
  workbook.worksheets[0]?.eachRow((row) => {
    row.eachCell((cell) => {
      cells.push(String(cell.value));
    });
  });
  return cells;
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A user with one role made on the server, and the headers of a session of theirs on `brand`'s site (staff's by default). */
async function signedIn(server: StartedServer, userName: string, role: string, opts: { brand?: string; member?: boolean } = {}) {
  const brand = opts.brand ?? 'staff';
  const user = await makeUser(server, { userName, roles: [role], brand: opts.brand, member: opts.member });
  return { ...user, headers: authHeaders(await mintSession(server, { ...user, name: userName, roles: [role] }, brand), brand) };
}

/** Sets up a server and a SuperUser on it; returns how to call it as that user. */
async function staffOn(server: StartedServer, userName: string) {
  const { headers } = await signedIn(server, userName, Roles.SuperUser);
  const member = await makeUser(server, { userName: `${userName}-member`, roles: [Roles.CareGuardFinance], member: true });
  const call = async <T>(url: string, payload: unknown, extra: Record<string, string> = {}) => {
    const res = await server.app.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload: payload as object });
    return { status: res.statusCode, body: res.json() as Env<T>, position: res.headers[Headers.readAfter] as string | undefined };
  };
  const addBill = (extra: Record<string, string> = {}) =>
    call<{ ClaimID: number }>(
      '/api/claims/create',
      { MemberID: member.memberId, PayeeID: 1, BillTypeID: 1, ClaimTypeID: 2, BilledAmount: 100, ServiceDateFrom: '2026-01-05' },
      extra,
    );
  const bills = async (extra: Record<string, string> = {}) => {
    const r = await call<ClaimSearchResult>('/api/claims/search', {}, extra);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r;
  };
  return { call, addBill, bills, memberId: member.memberId };
}

describe('the x-read-after header', () => {
  let server: StartedServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('is refused with a 400 when it is not a log position, and the change it came with is not made', async () => {
    const staff = await staffOn(server, 'replica-bad-header');
    for (const bad of ['yesterday', '16/B374D848', '', '0x00000000000010', '00000000000000100', '000000000000001G']) {
      const r = await staff.addBill({ [Headers.readAfter]: bad });
      expect(r.status).toBe(400);
      expect(r.body.MsgText).toBe('The x-read-after header must be a database position: 16 hexadecimal digits.');
    }
    expect((await staff.bills()).body.Data.ItemCount).toBe(0);
    // A good one is taken (with no replica there is nothing to wait for).
    expect((await staff.addBill({ [Headers.readAfter]: '00000016B374D848' })).status).toBe(200);
  });

  it('is not on any answer when there is no read replica', async () => {
    const staff = await staffOn(server, 'replica-none');
    const r = await staff.addBill();
    expect(r.status).toBe(200);
    expect(r.position).toBeUndefined();
  });
});

describe('DATABASE_READ_URL settings', () => {
  it('needs DATABASE_URL and a PostgreSQL URL', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://portal@127.0.0.1:5433/portal' }, '/tmp')).toThrow(
      'DATABASE_READ_URL needs DATABASE_URL: the embedded database has no replicas',
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://portal@127.0.0.1/portal', DATABASE_READ_URL: 'mysql://replica/portal' }, '/tmp')).toThrow(
      'DATABASE_READ_URL must start with postgres:// or postgresql://, got "mysql:"',
    );
    const config = loadConfig(
      { DATABASE_URL: 'postgres://portal@127.0.0.1/portal', DATABASE_READ_URL: 'postgres://portal@replica/portal', DATABASE_READ_MAX_LAG_MS: '2500' },
      '/tmp',
    );
    expect(config.databaseReadUrl).toBe('postgres://portal@replica/portal');
    expect(config.replicaMaxLagMs).toBe(2500);
    expect(loadConfig({}, '/tmp')).toMatchObject({ databaseReadUrl: null, replicaMaxLagMs: 5000 });
  });

  it('stops the start when the replica cannot be reached', async () => {
    const { databaseUrl, drop } = await freshDatabaseUrl();
    try {
      const opening = openDatabase({ databaseUrl, dataDir: null, readUrl: 'postgres://portal:secret@127.0.0.1:1/none' });
      if (databaseUrl) await expect(opening).rejects.toThrow('Cannot reach the read replica (DATABASE_READ_URL) at postgres://portal:***@127.0.0.1:1/none');
      else await expect(opening).rejects.toThrow(ConfigError);
    } finally {
      await drop();
    }
  });
});

// A real streaming standby: scripts/test starts one beside the PostgreSQL server of the integration tests.
describe.skipIf(!process.env.TEST_DATABASE_READ_URL)('searches on a streaming read replica', () => {
  let server: StartedServer;
  let replicaUrl: string;
  const replay = (action: 'pause' | 'resume') => withClient(replicaUrl, (c) => c.query(`SELECT pg_wal_replay_${action}()`));
  /** The primary's log position now ('16/B374D848'). */
  const primaryPosition = () =>
    withClient(server.config.databaseUrl as string, async (c) => (await c.query('SELECT pg_current_wal_insert_lsn()::text AS p')).rows[0].p as string);
  /** The position a change's answer would carry now (`x-read-after`), as the primary names it. */
  const positionNow = async () => formatPosition(parseWalPosition(await primaryPosition()) ?? 0n);
  /** Waits until the standby has replayed everything the primary has written so far. */
  const caughtUp = async () => {
    const target = await primaryPosition();
    for (let i = 0; i < 200; i++) {
      const done = await withClient(replicaUrl, async (c) => (await c.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [target])).rows[0].ok);
      if (done) return;
      await sleep(25);
    }
    throw new Error('the standby did not catch up');
  };

  beforeAll(async () => {
    server = await startTestServer({ replicaMaxLagMs: MAX_LAG_MS }, { readReplica: true });
    replicaUrl = server.config.databaseReadUrl as string;
    expect(server.database.replica).not.toBeNull();
  });
  afterAll(async () => {
    await replay('resume').catch(() => {});
    await server.close();
  });

  /** A user's own change and their search of what it changed: bills (a SuperUser's) and the member ledger (a member's). */
  const features = {
    bills: async () => {
      const staff = await staffOn(server, 'replica-own-bills');
      return {
        change: async () => {
          const r = await staff.addBill();
          return { status: r.status, position: r.position, id: r.body.Data.ClaimID };
        },
        search: async (extra: Record<string, string> = {}) => {
          const r = await staff.bills(extra);
          return { total: r.body.Data.ItemCount, ids: r.body.Data.Items.map((c) => c.ClaimID), position: r.position };
        },
      };
    },
    ledger: async () => {
      const { headers } = await signedIn(server, 'replica-own-ledger', Roles.CareGuard, { brand: 'card', member: true });
      const post = (url: string, payload: object, extra: Record<string, string>) =>
        server.app.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload });
      // The business's today (America/Chicago), the day the search's default range ends on: UTC's is a day ahead every US evening.
      const entry = { DateCreated: dayIn('America/Chicago'), Description: 'Office visit', TransactionTypeID: 1, Amount: 125.4 };
      return {
        change: async () => {
          const r = await post('/api/transactions/create', { ...entry, IdempotencyKey: `replica-${randomUUID()}` }, {});
          return {
            status: r.statusCode,
            position: r.headers[Headers.readAfter] as string | undefined,
            id: (r.json() as Env<{ TransactionID: number }>).Data.TransactionID,
          };
        },
        search: async (extra: Record<string, string> = {}) => {
          const r = await post('/api/transactions/search', {}, extra);
          expect(r.statusCode, r.body).toBe(200);
          const page = (r.json() as Env<{ ItemCount: number; Items: { TransactionID: number }[] }>).Data;
          return { total: page.ItemCount, ids: page.Items.map((t) => t.TransactionID), position: r.headers[Headers.readAfter] as string | undefined };
        },
      };
    },
  };

  it.each(Object.keys(features) as (keyof typeof features)[])(
    "%s: a user's own change is in their next search at once, even while the replica has not replayed it; searches without the position read the replica",
    async (feature) => {
      const user = await features[feature]();
      await caughtUp();
      const before = (await user.search()).total;
      await replay('pause');
      try {
        const changed = await user.change();
        expect(changed.status).toBe(200);
        expect(changed.position).toMatch(POSITION);
        // With the position the answer gave: the replica has not got the change, so the primary answers.
        const own = await user.search({ [Headers.readAfter]: changed.position as string });
        expect(own.total).toBe(before + 1);
        expect(own.ids).toContain(changed.id);
        // Without it (another tab that changed nothing, another user): the replica answers, and has not got it yet.
        const others = await user.search();
        expect(others.total).toBe(before);
        expect(others.ids).not.toContain(changed.id);
        // A search is no change: its answer carries no position.
        expect(own.position).toBeUndefined();
      } finally {
        await replay('resume');
      }
      await caughtUp();
      expect((await user.search()).total).toBe(before + 1);
    },
  );

  it("support's transaction list reads the replica, and the primary for a position the replica has not replayed", async () => {
    const { headers } = await signedIn(server, 'replica-support', Roles.CareSupport);
    const member = await makeUser(server, { userName: 'replica-support-member', roles: [Roles.CareGuard], brand: 'card', member: true });
    const list = async (extra: Record<string, string> = {}) => {
      const r = await server.app.inject({
        method: 'POST',
        url: '/api/support/transactions',
        headers: { ...headers, ...extra },
        payload: { Query: { Status: 'All' } },
      });
      expect(r.statusCode, r.body).toBe(200);
      return (r.json() as Env<{ ItemCount: number }>).Data.ItemCount;
    };
    await caughtUp();
    const before = await list();
    await replay('pause');
    try {
      await server.database.sql.query(
        `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message) VALUES ($1, 'charge', 'Pending', 1999, 'Pharmacy claim', 'Pending')`,
        [member.memberId],
      );
      const now = await positionNow();
      expect(await list()).toBe(before);
      expect(await list({ [Headers.readAfter]: now })).toBe(before + 1);
    } finally {
      await replay('resume');
    }
  });

  it.each([
    // Support's list takes the spec's search request (its status and text in Query); profile's has them at the top.
    ['support', '/api/support/members', (name: string) => ({ Query: { Status: 'All', SearchString: name } })],
    ['profile', '/api/members/list', (name: string) => ({ Status: 'All', SearchString: name })],
  ])("%s's member list reads the replica, and the primary for a position the replica has not replayed", async (who, url, search) => {
    const { headers } = await signedIn(server, `replica-members-${who}`, Roles.CareSupport);
    const name = `replica-new-member-${who}`;
    const list = async (extra: Record<string, string> = {}) => {
      const r = await server.app.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload: search(name) });
      expect(r.statusCode, r.body).toBe(200);
      return (r.json() as Env<{ ItemCount: number }>).Data.ItemCount;
    };
    await caughtUp();
    await replay('pause');
    try {
      await makeUser(server, { userName: name, roles: [Roles.CareGuard], brand: 'card', member: true });
      const now = await positionNow();
      expect(await list()).toBe(0);
      expect(await list({ [Headers.readAfter]: now })).toBe(1);
    } finally {
      await replay('resume');
    }
  });

  /**
   * Each report: a user who may download it, a row written straight to the primary that the report lists (with a text
   * of its own), and the download.
   */
  const reports = {
    'registration report': async () => {
      const { headers } = await signedIn(server, 'replica-report-registrations', Roles.CareSupport);
      return {
        add: async () => {
          await makeUser(server, { userName: 'replica-report-new-member', roles: [Roles.CareGuard], brand: 'card', member: true });
          return 'replica-report-new-member';
        },
        download: (extra: Record<string, string>) =>
          server.app.inject({ method: 'POST', url: '/api/support/registrationReport/excel', headers: { ...headers, ...extra }, payload: {} }),
      };
    },
    'user report': async () => {
      const { headers } = await signedIn(server, 'replica-report-users', Roles.CareSupport);
      return {
        add: async () => {
          await makeUser(server, { userName: 'replica-report-new-staff', roles: [Roles.CareSupport] });
          return 'replica-report-new-staff';
        },
        download: (extra: Record<string, string>) =>
          server.app.inject({ method: 'POST', url: '/api/support/userReport/excel', headers: { ...headers, ...extra }, payload: {} }),
      };
    },
    "support's transaction spreadsheet": async () => {
      const { headers } = await signedIn(server, 'replica-report-transactions', Roles.CareSupport);
      const member = await makeUser(server, { userName: 'replica-report-tx-member', roles: [Roles.CareGuard], brand: 'card', member: true });
      return {
        add: async () => {
          await server.database.sql.query(
            `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message) VALUES ($1, 'charge', 'Pending', 4321, 'Replica report charge', 'Pending')`,
            [member.memberId],
          );
          return 'Replica report charge';
        },
        download: (extra: Record<string, string>) =>
          server.app.inject({
            method: 'POST',
            url: '/api/support/generateTransactionExcelReport/excel',
            headers: { ...headers, ...extra },
            payload: { Query: { Status: 'All' } },
          }),
      };
    },
    'ledger report': async () => {
      const { headers, ...m } = await signedIn(server, 'replica-report-ledger', Roles.CareGuard, { brand: 'card', member: true });
      return {
        add: async () => {
          await server.database.sql.query(
            `INSERT INTO ledger_transactions (member_id, source, date_created, company, description, transaction_type_id, amount_cents) VALUES ($1, 'ledger', $2::date, 'Clinic', 'Replica report visit', 1, 5000)`,
            // The business's today, where the report's default range ends (the database's current_date is UTC's).
            [m.memberId, dayIn('America/Chicago')],
          );
          return 'Replica report visit';
        },
        download: (extra: Record<string, string>) =>
          server.app.inject({ method: 'POST', url: '/api/transactions/report', headers: { ...headers, ...extra }, payload: { Format: 'xlsx' } }),
      };
    },
  };

  it.each(Object.keys(reports) as (keyof typeof reports)[])(
    '%s reads the replica, and the primary for a position the replica has not replayed',
    async (report) => {
      const user = await reports[report]();
      const cells = async (extra: Record<string, string> = {}) => {
        const r = await user.download(extra);
        expect(r.statusCode, r.body).toBe(200);
        return sheetCells(r.rawPayload);
      };
      await caughtUp();
      let text = '';
      await replay('pause');
      try {
        text = await user.add();
        const now = await positionNow();
        expect(await cells()).not.toContain(text);
        expect(await cells({ [Headers.readAfter]: now })).toContain(text);
      } finally {
        await replay('resume');
      }
      await caughtUp();
      expect(await cells()).toContain(text);
    },
  );

  it('stops reading a replica that is further behind than DATABASE_READ_MAX_LAG_MS', async () => {
    const staff = await staffOn(server, 'replica-lag');
    await caughtUp();
    const before = (await staff.bills()).body.Data.ItemCount;
    await replay('pause');
    try {
      // A change the replica does not replay, made by someone else (so this user holds no position for it).
      const other = await staffOn(server, 'replica-lag-other');
      expect((await other.addBill()).status).toBe(200);
      // Wait out the positions' recheck interval (1 s), then look: the primary is ahead, but not for long enough.
      await sleep(1100);
      expect((await staff.bills()).body.Data.ItemCount).toBe(before);
      // Longer than the lag allowed: the primary answers.
      await sleep(MAX_LAG_MS + 200);
      expect((await staff.bills()).body.Data.ItemCount).toBe(before + 1);
    } finally {
      await replay('resume');
    }
  });

  it('answers a change as made, without a position, when the position cannot be read after it', async () => {
    const staff = await staffOn(server, 'replica-no-position');
    const replica = server.database.replica;
    if (!replica) throw new Error('a replica is expected');
    const original = replica.primaryPosition.bind(replica);
    replica.primaryPosition = async () => {
      throw new Error('connection terminated');
    };
    try {
      const added = await staff.addBill();
      expect(added.status).toBe(200);
      expect(added.position).toBeUndefined();
      expect(await server.database.sql.query('SELECT 1 FROM claims WHERE claim_id = $1', [added.body.Data.ClaimID])).toHaveLength(1);
    } finally {
      replica.primaryPosition = original;
    }
  });

  it('refuses a read replica that is not a standby', async () => {
    const { databaseUrl, drop } = await freshDatabaseUrl();
    try {
      await expect(openDatabase({ databaseUrl, dataDir: null, readUrl: databaseUrl })).rejects.toThrow(
        /is not a read replica: the server there is not a standby \(pg_is_in_recovery\(\) is false\)/,
      );
    } finally {
      await drop();
    }
  });
});
