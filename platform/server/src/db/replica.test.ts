import { describe, expect, it } from 'vitest';
import { DatabaseBusyError, type SqlClient } from './database';
import { formatPosition, parsePosition, parseWalPosition, ReplicaRouter } from './replica';

/** A stand-in server: answers the two position queries from fields and names itself for every other statement. */
interface FakeServer {
  name: string;
  position: string | null;
  failWith: unknown;
  positionReads: number;
  statements: string[];
  client: SqlClient;
}

function fakeServer(name: string): FakeServer {
  const server: FakeServer = {
    name,
    /** The primary's position (pg_current_wal_insert_lsn) or the replica's replayed one (pg_last_wal_replay_lsn; null: not a standby). */
    position: '0/100' as string | null,
    /** Thrown by the next statements, as a server that is down would. */
    failWith: null as unknown,
    positionReads: 0,
    statements: [] as string[],
    client: {
      async query(text: string) {
        if (server.failWith) throw server.failWith;
        if (text.includes('_lsn()')) {
          server.positionReads++;
          return [{ position: server.position }] as never;
        }
        server.statements.push(text);
        return [{ from: name }] as never;
      },
      async exec() {},
      async transaction(fn: (tx: SqlClient) => Promise<unknown>) {
        return fn(server.client);
      },
    } as SqlClient,
  };
  return server;
}

function setUp(opts: { maxLagMs?: number } = {}) {
  const primary = fakeServer('primary');
  const replica = fakeServer('replica');
  const clock = { now: 1_000_000 };
  const errors: unknown[] = [];
  const router = new ReplicaRouter(primary.client, replica.client, {
    maxLagMs: opts.maxLagMs ?? 5000,
    recheckMs: 1000,
    now: () => clock.now,
    onError: (e) => errors.push(e),
  });
  const served = async (after: string | null) => {
    const rows = await router.routed(after === null ? null : parseWalPosition(after)).query<{ from: string }>('SELECT 1');
    return rows[0]?.from;
  };
  return { primary, replica, clock, router, served, errors };
}

describe('parseWalPosition', () => {
  it('reads the log positions PostgreSQL writes, in their order, and nothing else', () => {
    expect(parseWalPosition('0/0')).toBe(0n);
    expect(parseWalPosition('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect((parseWalPosition('1/0') ?? 0n) > (parseWalPosition('0/FFFFFFFF') ?? 0n)).toBe(true);
    for (const bad of ['', '16', '16/', '/1', 'G/1', '1/2/3', '123456789/0', ' 1/2', '1/2 ', '-1/2']) expect(parseWalPosition(bad)).toBeNull();
  });
});

describe('the x-read-after position', () => {
  it('is 16 hexadecimal digits, whose text order is the order of the positions', () => {
    const positions = ['0/0', '0/FF', '0/1A0', '0/FFFFFFFF', '1/0', '16/B374D848', 'FFFFFFFF/FFFFFFFF'].map((p) => parseWalPosition(p) ?? -1n);
    const texts = positions.map(formatPosition);
    expect(texts[5]).toBe('00000016B374D848');
    expect([...texts].sort()).toEqual(texts);
    expect(texts.map(parsePosition)).toEqual(positions);
    expect(parsePosition('00000016b374d848')).toBe(positions[5]);
    for (const bad of ['', '16/B374D848', '0000000000000010 ', '00000000000000100', '000000000000001G', '-000000000000010'])
      expect(parsePosition(bad)).toBeNull();
  });
});

describe('ReplicaRouter', () => {
  it('sends a read with no change of its own to the replica once it knows where the replica is', async () => {
    const { served, replica } = setUp();
    expect(await served(null)).toBe('replica');
    expect(replica.statements).toEqual(['SELECT 1']);
  });

  it("sends a read after the caller's change to the replica once the replica has replayed it, and to the primary before", async () => {
    const { served, replica } = setUp();
    replica.position = '0/200';
    expect(await served('0/200')).toBe('replica');
    expect(await served('0/1FF')).toBe('replica');
    // The change is not replayed yet: the replica is asked once more, then the primary answers.
    const reads = replica.positionReads;
    expect(await served('0/201')).toBe('primary');
    expect(replica.positionReads).toBe(reads + 1);
    // Replayed a moment later: the next read finds it there.
    replica.position = '0/300';
    expect(await served('0/201')).toBe('replica');
  });

  it('one request decides once: its statements all go where its first went', async () => {
    const { router, replica, primary } = setUp();
    replica.position = '0/200';
    const sql = router.routed(parseWalPosition('0/150'));
    await sql.query('SELECT page');
    replica.position = '0/100';
    await sql.query('SELECT count');
    await sql.transaction((tx) => tx.query('SELECT in a transaction'));
    expect(replica.statements).toEqual(['SELECT page', 'SELECT count', 'SELECT in a transaction']);
    expect(primary.statements).toEqual([]);
  });

  it('reads the positions again at most once a recheck interval when no read needs more', async () => {
    const { served, replica, primary, clock } = setUp();
    await served(null);
    await served(null);
    await served(null);
    expect(replica.positionReads).toBe(1);
    expect(primary.positionReads).toBe(1);
    clock.now += 1000;
    await served(null);
    expect(replica.positionReads).toBe(2);
    expect(primary.positionReads).toBe(2);
  });

  it('reads the positions once for reads that arrive together', async () => {
    const { served, replica } = setUp();
    expect(await Promise.all([served(null), served(null), served(null)])).toEqual(['replica', 'replica', 'replica']);
    expect(replica.positionReads).toBe(1);
  });

  it('stops reading a replica more than maxLag behind the primary, and reads it again once it catches up', async () => {
    const { served, replica, primary, clock } = setUp({ maxLagMs: 5000 });
    replica.position = '0/100';
    primary.position = '0/900';
    // The primary was at 0/900 now; 4 s later the replica has not reached it, yet is within the 5 s allowed.
    expect(await served(null)).toBe('replica');
    clock.now += 4000;
    expect(await served(null)).toBe('replica');
    // 5 s later it still has not: it is at least 5 s behind.
    clock.now += 1000;
    expect(await served(null)).toBe('primary');
    replica.position = '0/900';
    clock.now += 1000;
    expect(await served(null)).toBe('replica');
  });

  it('sends reads to the primary while the replica is down, and tries the replica again after the recheck interval', async () => {
    const { served, replica, clock, errors } = setUp();
    expect(await served(null)).toBe('replica');
    replica.failWith = new DatabaseBusyError(new Error('connect ECONNREFUSED'), 'unavailable');
    // The statement fails on the replica: the primary answers it, and the replica is left alone for a while.
    expect(await served(null)).toBe('primary');
    expect(errors).toHaveLength(1);
    replica.failWith = null;
    expect(await served(null)).toBe('primary');
    clock.now += 1000;
    expect(await served(null)).toBe('replica');
  });

  it('answers from the primary a statement the replica cancelled for a conflict with recovery', async () => {
    const { served, replica, errors } = setUp();
    await served(null);
    replica.failWith = Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' });
    expect(await served(null)).toBe('primary');
    // Not a sign the replica is down: the next read tries it again.
    replica.failWith = null;
    expect(await served(null)).toBe('replica');
    expect(errors).toEqual([]);
  });

  it("passes on a statement's own error (bad SQL) rather than asking the primary", async () => {
    const { router, replica, primary } = setUp();
    await router.routed(null).query('SELECT 1');
    replica.failWith = Object.assign(new Error('syntax error'), { code: '42601' });
    await expect(router.routed(null).query('SELEC 1')).rejects.toThrow('syntax error');
    expect(primary.statements).toEqual([]);
  });

  it('sends every read to the primary when the replica is no longer a standby (promoted), and says so once', async () => {
    const { served, replica, clock, errors } = setUp();
    replica.position = null;
    expect(await served(null)).toBe('primary');
    clock.now += 1000;
    expect(await served(null)).toBe('primary');
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/not a standby/);
  });

  it("names the primary's position for a change's answer", async () => {
    const { router, primary } = setUp();
    primary.position = '1A/2B';
    expect(await router.primaryPosition()).toBe('0000001A0000002B');
  });
});
