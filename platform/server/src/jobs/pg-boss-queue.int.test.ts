import { createHook } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { deferred } from '@portal/testing/deferred';
import { freshDatabaseUrl, openTestDatabase } from '@portal/testing/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../db/database';
import { createJobQueue } from './pg-boss-queue';
import type { JobInfo, JobLogger, JobQueue } from './queue';

interface LogEntry {
  level: keyof JobLogger;
  obj: Record<string, unknown>;
  msg: string;
}

function recordingLogger(): JobLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: keyof JobLogger) => (obj: object, msg: string) => void entries.push({ level, obj: obj as Record<string, unknown>, msg });
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

let database: Database;
const open: JobQueue[] = [];

async function startQueue(work = true, define?: (q: JobQueue) => Promise<void>, stopTimeoutMs = 5_000) {
  const queue = createJobQueue(database, { work, pollingIntervalSeconds: 0.5, stopTimeoutMs });
  open.push(queue);
  await define?.(queue);
  const logger = recordingLogger();
  await queue.start({ logger });
  return { queue, logger };
}

async function jobState(id: string | null): Promise<string | undefined> {
  const rows = await database.sql.query<{ state: string }>('SELECT state::text AS state FROM pgboss.job WHERE id = $1', [id]);
  return rows[0]?.state;
}

beforeAll(async () => {
  database = await openTestDatabase();
});
afterEach(async () => {
  for (const q of open.splice(0)) await q.stop();
});
afterAll(async () => {
  await database.close();
});

describe('job queue', () => {
  it('runs a sent job once with its payload', async () => {
    const runs: { payload: { n: number }; job: JobInfo }[] = [];
    const { queue } = await startQueue(true, (q) => q.define<{ n: number }>('test.run', async (payload, job) => void runs.push({ payload, job })));
    const id = await queue.send('test.run', { n: 7 });
    await queue.drain();
    expect(runs).toHaveLength(1);
    expect(runs[0]?.payload).toEqual({ n: 7 });
    expect(runs[0]?.job).toMatchObject({ id, name: 'test.run', attempt: 1 });
    expect(await jobState(id)).toBe('completed');
  });

  it('sent inside a transaction, stores the job with it: none when the transaction rolls back, run once when it commits', async () => {
    const runs: number[] = [];
    const { queue } = await startQueue(true, (q) => q.define<{ n: number }>('test.tx', async (payload) => void runs.push(payload.n)));
    let rolledBackId: string | null = null;
    await expect(
      database.sql.transaction(async (tx) => {
        rolledBackId = await queue.send('test.tx', { n: 1 }, { tx });
        expect(rolledBackId).not.toBeNull();
        throw new Error('the change failed after the job was sent');
      }),
    ).rejects.toThrow('the change failed');
    expect(await jobState(rolledBackId)).toBeUndefined();
    const committedId = await database.sql.transaction((tx) => queue.send('test.tx', { n: 2 }, { tx }));
    await queue.drain();
    expect(runs).toEqual([2]);
    expect(await jobState(committedId)).toBe('completed');
  });

  it("looks for a scheduled kind's jobs less often than for the others, and wakes for both on send() and drain()", async () => {
    const runs: string[] = [];
    const worker = createJobQueue(database, { work: true, pollingIntervalSeconds: 0.5, scheduledPollingIntervalSeconds: 30 });
    const sender = createJobQueue(database, { work: false });
    open.push(worker, sender);
    for (const q of [worker, sender]) {
      await q.define('test.plain', async () => void runs.push('plain'));
      await q.define('test.nightly', async () => void runs.push('nightly'));
    }
    await worker.schedule('test.nightly', '0 0 1 1 *');
    await worker.start({ logger: recordingLogger() });
    await sender.start({ logger: recordingLogger() });
    // Sent by another process (this one cannot wake the worker): found by the worker's next look.
    const plain = await sender.send('test.plain', {});
    const nightly = await sender.send('test.nightly', {});
    await vi.waitFor(async () => expect(await jobState(plain)).toBe('completed'), { timeout: 5_000, interval: 100 });
    await sleep(1_500);
    expect(await jobState(nightly)).toBe('created');
    // Sent here, it runs at once; a drain wakes every worker.
    await worker.send('test.nightly', {});
    await worker.drain({ timeoutMs: 5_000 });
    expect(await jobState(nightly)).toBe('completed');
    expect(runs.sort()).toEqual(['nightly', 'nightly', 'plain']);
  });

  it('retries a failing job with growing waits, logging each failure, until it succeeds', async () => {
    const startedAt: number[] = [];
    const { queue, logger } = await startQueue(true, (q) =>
      q.define(
        'test.flaky',
        async (_payload, job) => {
          startedAt.push(Date.now());
          if (job.attempt < 3) throw new Error(`flaky failure ${job.attempt}`);
        },
        { retryLimit: 2, retryDelay: 1, retryBackoff: true },
      ),
    );
    const id = await queue.send('test.flaky', {});
    await queue.drain();

    expect(startedAt).toHaveLength(3);
    expect(await jobState(id)).toBe('completed');
    // Backoff: the first retry waits at least retryDelay (1 s), the second at least twice that.
    const [a = 0, b = 0, c = 0] = startedAt;
    expect(b - a).toBeGreaterThanOrEqual(900);
    expect(c - b).toBeGreaterThanOrEqual(1_900);
    const failures = logger.entries.filter((e) => e.obj.job === 'test.flaky');
    expect(failures.map((e) => [e.level, e.obj.attempt, e.obj.jobId])).toEqual([
      ['warn', 1, id],
      ['warn', 2, id],
    ]);
    expect(failures[0]?.msg).toBe('job failed; it will be retried');
    expect(failures[0]?.obj.err).toEqual(new Error('flaky failure 1'));
  });

  it('ends a job failed when its retries run out, logged as an error', async () => {
    let runs = 0;
    const { queue, logger } = await startQueue(true, (q) =>
      q.define(
        'test.broken',
        async () => {
          runs++;
          throw new Error('always broken');
        },
        { retryLimit: 1, retryDelay: 0 },
      ),
    );
    const id = await queue.send('test.broken', {});
    await queue.drain();

    expect(runs).toBe(2);
    expect(await jobState(id)).toBe('failed');
    const failures = logger.entries.filter((e) => e.obj.job === 'test.broken');
    expect(failures.map((e) => [e.level, e.obj.attempt, e.obj.maxAttempts, e.msg])).toEqual([
      ['warn', 1, 2, 'job failed; it will be retried'],
      ['error', 2, 2, 'job failed; no retries left'],
    ]);
  });

  it('refuses to send a job kind nobody defined', async () => {
    const { queue } = await startQueue();
    await expect(queue.send('test.unknown', {})).rejects.toThrow('job "test.unknown" is not defined');
  });

  it('runs a sealed kind with its payload opened while storing it sealed; needs a secret and cannot be scheduled', async () => {
    const runs: { code: string }[] = [];
    const sealedQueue = createJobQueue(database, { work: true, pollingIntervalSeconds: 0.5, secret: 'queue-test-secret' });
    open.push(sealedQueue);
    await sealedQueue.define<{ code: string }>('test.sealed', async (p) => void runs.push(p), { sealed: true, retryLimit: 0 });
    await expect(sealedQueue.schedule('test.sealed', '0 6 * * *')).rejects.toThrow('job "test.sealed" is sealed and cannot be scheduled');
    await sealedQueue.start({ logger: recordingLogger() });
    // Held back a moment, so the row is read as stored before a worker runs (and deletes) it.
    const id = await sealedQueue.send('test.sealed', { code: '314159' }, { startAfter: new Date(Date.now() + 1_500) });
    const [stored] = await database.sql.query<{ data: string }>('SELECT data::text AS data FROM pgboss.job WHERE id = $1', [id]);
    expect(stored?.data).toMatch(/^\{"sealed": "v1\./);
    expect(stored?.data).not.toContain('314159');
    await sealedQueue.drain();
    expect(runs).toEqual([{ code: '314159' }]);
    expect(await jobState(id)).toBeUndefined();

    const noSecret = createJobQueue(database, { work: false });
    await expect(noSecret.define('test.sealed', async () => {}, { sealed: true })).rejects.toThrow('job "test.sealed" is sealed, and the queue has no secret');
  });

  it('holds a job back until its start time', async () => {
    const runs: number[] = [];
    const { queue } = await startQueue(true, (q) => q.define('test.later', async () => void runs.push(Date.now())));
    const sentAt = Date.now();
    const id = await queue.send('test.later', {}, { startAfter: new Date(sentAt + 1_500) });
    expect(await jobState(id)).toBe('created');
    await queue.drain();
    expect(runs).toHaveLength(1);
    expect((runs[0] ?? 0) - sentAt).toBeGreaterThanOrEqual(1_400);
  });

  it('with work off, queues jobs without running them; a working process runs them', async () => {
    const ran: string[] = [];
    const handler = async (payload: { who: string }) => void ran.push(payload.who);
    const { queue: sender } = await startQueue(false, (q) => q.define('test.shared', handler));
    expect(sender.working).toBe(false);
    const id = await sender.send('test.shared', { who: 'queued by the off process' });
    await expect(sender.drain()).rejects.toThrow(/does not work jobs/);
    expect(await jobState(id)).toBe('created');

    const { queue: worker } = await startQueue(true, (q) => q.define('test.shared', handler));
    await worker.drain();
    expect(ran).toEqual(['queued by the off process']);
  });

  it('stop() lets a running job finish, then takes no more', async () => {
    const started = deferred();
    const finished: string[] = [];
    const { queue } = await startQueue(true, (q) =>
      q.define<{ n: number }>('test.slow', async (payload) => {
        started.release();
        await new Promise((r) => setTimeout(r, 300));
        finished.push(`job ${payload.n}`);
      }),
    );
    const first = await queue.send('test.slow', { n: 1 });
    await started.promise;
    await queue.stop();
    expect(finished).toEqual(['job 1']);
    expect(await jobState(first)).toBe('completed');
    await expect(queue.send('test.slow', { n: 2 })).rejects.toThrow('the job queue is stopped');
  });

  it("a job that outlives stop()'s wait finishes without an unhandled rejection, and is left to be run again", async () => {
    const rejections: unknown[] = [];
    const record = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', record);
    try {
      const running = deferred();
      let done = false;
      const { queue } = await startQueue(
        true,
        (q) =>
          q.define('test.outlives', async () => {
            running.release();
            await sleep(1_200);
            done = true;
          }),
        200,
      );
      const id = await queue.send('test.outlives', {});
      await running.promise;
      await queue.stop();
      // The job ends after the queue and its database hook closed: pg-boss then completes it, unawaited.
      await vi.waitFor(() => expect(done).toBe(true), { timeout: 3_000, interval: 50 });
      await sleep(300);
      expect(rejections).toEqual([]);
      // Not recorded as completed by a closed queue: pg-boss's expiry gives it back to a worker later.
      expect(await jobState(id)).not.toBe('completed');
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('leaves no timer of its own behind once stopped', async () => {
    // Timers whose creation passed through pg-boss: its polling, cron and maintenance loops.
    const live = new Map<number, string>();
    const hook = createHook({
      init(id, type) {
        const stack = new Error().stack ?? '';
        if ((type === 'Timeout' || type === 'Immediate') && stack.includes('/node_modules/pg-boss/')) live.set(id, stack);
      },
      destroy(id) {
        live.delete(id);
      },
    }).enable();
    try {
      const { queue } = await startQueue(true, async (q) => {
        await q.define('test.idle', async () => {});
        await q.schedule('test.idle', '0 0 1 1 *');
      });
      await sleep(700); // the workers have polled at least once
      expect(live.size).toBeGreaterThan(0);
      await queue.stop();
      // A worker caught mid-poll ends its loop after at most one more second.
      await vi.waitFor(() => expect([...live.values()]).toEqual([]), { timeout: 3_000, interval: 50 });
    } finally {
      hook.disable();
    }
  });
});

/**
 * Several API processes starting at once on one database (an orchestrator starting machines A, B and C, a release that
 * adds a job): each installs the queue's schema and its queues. pg-boss's own install of either is not safe against
 * another at once (a CREATE SCHEMA race on the catalog's unique key; two create_queue of one name deadlock), so the
 * install runs under a lock of its own. On PostgreSQL each process is a pool of its own on a fresh database; PGlite is
 * one process's, where the three share the one session. Each round installs a fresh queue schema.
 */
describe('job queues installed by several processes at once', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  const pools: Database[] = [];
  beforeAll(async () => {
    fresh = await freshDatabaseUrl();
    for (let i = 0; i < 3; i++) pools.push(fresh.databaseUrl ? await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: null, poolSize: 3 }) : database);
  });
  afterAll(async () => {
    for (const q of open.splice(0)) await q.stop();
    if (fresh?.databaseUrl) for (const d of pools) await d.close();
    await fresh?.drop();
  });

  it('all start, and each queue is made once with its options', async () => {
    const names = ['race.a', 'race.b', 'race.c', 'race.d', 'race.e'];
    for (const round of [1, 2, 3, 4]) {
      const schema = `race_${round}`;
      const queues = pools.map((d, i) => {
        const q = createJobQueue(d, { work: i === 0, schema, pollingIntervalSeconds: 0.5, stopTimeoutMs: 1_000 });
        open.push(q);
        return q;
      });
      for (const q of queues) for (const name of names) await q.define(name, async () => {}, { retryLimit: round });
      const started = await Promise.allSettled(queues.map((q) => q.start({ logger: recordingLogger() })));
      expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(['started', 'started', 'started']);
      const made = await (pools[0] as Database).sql.query<{ name: string; retry_limit: number }>(
        `SELECT name, retry_limit FROM ${schema}.queue WHERE name LIKE 'race.%' ORDER BY name`,
      );
      expect(made).toEqual(names.map((name) => ({ name, retry_limit: round })));
      for (const q of open.splice(0)) await q.stop();
    }
  });
});
