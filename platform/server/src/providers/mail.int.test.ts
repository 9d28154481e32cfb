import { createSandbox, mailTo } from '@portal/sandbox';
import { deferred } from '@portal/testing/deferred';
import { sandboxPassThrough } from '@portal/testing/sandbox';
import { openTestDatabase } from '@portal/testing/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { createJobQueue } from '../jobs/pg-boss-queue';
import type { JobLogger, JobQueue } from '../jobs/queue';
import { type DeliveryOptions, MAIL_SEND_JOB, type MailMessage, type MailTransport, QueuedMailTransport, SandboxMailTransport } from './mail';

/**
 * A delivery transport that records what it delivers and fails the first `failures` attempts; with `held`, each attempt
 * waits for it first (the job stays stored, not yet delivered and deleted, until the test lets it go).
 */
function recordingTransport(failures = 0, held?: Promise<void>): MailTransport & { delivered: MailMessage[]; attempts: number; keys: (string | undefined)[] } {
  return {
    kind: 'recording',
    delivered: [],
    attempts: 0,
    keys: [],
    async send(message, opts?: DeliveryOptions) {
      await held;
      this.attempts++;
      this.keys.push(opts?.idempotencyKey);
      if (this.attempts <= failures) throw new Error('mail server unavailable');
      this.delivered.push(message);
    },
  };
}

const message: MailMessage = { from: 'support@finance.example.com', to: 'ann@example.com', subject: 'Activate', text: 'Hello Ann', brand: 'finance' };
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const SECRET = 'mail-test-secret';
let database: Database;
let jobs: JobQueue | null = null;
/** Queues of a test that only store jobs (another release's process, or one with JOBS=off). */
const others: JobQueue[] = [];

interface LogEntry {
  level: keyof JobLogger;
  obj: object;
  msg: string;
}
function recordingLogger(): JobLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: keyof JobLogger) => (obj: object, msg: string) => void entries.push({ level, obj, msg });
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

async function queuedMail(delivery: MailTransport, logger: JobLogger = silent) {
  jobs = createJobQueue(database, { work: true, pollingIntervalSeconds: 0.5, secret: SECRET });
  const mail = await QueuedMailTransport.create(jobs, delivery, { retryLimit: 2, retryDelay: 0 });
  await jobs.start({ logger });
  return { mail, jobs };
}

/** A queue that stores jobs and works none: `define` declares mail.send on it. */
async function storingQueue<T>(define: (q: JobQueue) => Promise<T>): Promise<{ queue: JobQueue; made: T }> {
  const queue = createJobQueue(database, { work: false, secret: SECRET });
  others.push(queue);
  const made = await define(queue);
  await queue.start({ logger: silent });
  return { queue, made };
}

/** Every stored mail.send job, finished and archived ones too, as text. */
const storedMailJobs = async () =>
  (
    await database.sql.query<{ t: string | null }>(
      `SELECT string_agg(j::text, ' ') AS t FROM (SELECT id, data, output FROM pgboss.job WHERE name = $1
       UNION ALL SELECT id, data, output FROM pgboss.archive WHERE name = $1) j`,
      [MAIL_SEND_JOB],
    )
  )[0]?.t ?? '';

beforeAll(async () => {
  database = await openTestDatabase();
});
afterEach(async () => {
  await jobs?.stop();
  jobs = null;
  for (const q of others.splice(0)) await q.stop();
});
afterAll(async () => {
  await database.close();
});

describe('queued mail', () => {
  it('stores the message sealed as a mail.send job, which delivers it through the real transport and is then deleted', async () => {
    // Delivery waits until the stored job is checked: the queue's worker may take the job at once.
    const delivering = deferred();
    const delivery = recordingTransport(0, delivering.promise);
    const { mail, jobs } = await queuedMail(delivery);
    expect(mail.kind).toBe('queued recording');
    const linked = {
      ...message,
      text: 'Hello Ann, https://finance.example.com/login/reset/AbCdEf0123456789',
      html: '<a href="/login/reset/AbCdEf0123456789">Reset</a>',
    };
    await mail.send(linked);
    const queued = await database.sql.query<{ data: object }>('SELECT data FROM pgboss.job WHERE name = $1', [MAIL_SEND_JOB]);
    // The whole message is sealed, the recipient too: the queue needs none of it.
    expect(queued).toHaveLength(1);
    expect(Object.keys(queued[0]?.data ?? {})).toEqual(['sealed']);
    for (const part of ['ann@example.com', 'Activate', 'Hello Ann', '/login/reset/', 'AbCdEf0123456789']) expect(await storedMailJobs()).not.toContain(part);
    delivering.release();
    await jobs.drain();
    expect(delivery.delivered).toEqual([linked]);
    // Delivered: the job's row is gone at once, not kept an hour as a finished job and a day in the archive.
    const id = delivery.keys[0]?.replace(`${MAIL_SEND_JOB}.`, '');
    expect(await database.sql.query('SELECT 1 FROM pgboss.job WHERE id = $1 UNION ALL SELECT 1 FROM pgboss.archive WHERE id = $1', [id])).toEqual([]);
  });

  it('refuses a job whose sealed payload was altered: nothing is sent, the job is cancelled without retries and logged without its content', async () => {
    const { made: mail } = await storingQueue((q) => QueuedMailTransport.create(q, recordingTransport()));
    await mail.send({ ...message, to: 'tampered@example.com', text: 'Your link: /login/activate/TaMpErEd0123' });
    const [job] = await database.sql.query<{ id: string; sealed: string }>(
      `SELECT id, data->>'sealed' AS sealed FROM pgboss.job WHERE name = $1 AND state = 'created'`,
      [MAIL_SEND_JOB],
    );
    if (!job) throw new Error('no queued job');
    const at = Math.floor(job.sealed.length / 2);
    const altered = job.sealed.slice(0, at) + (job.sealed[at] === 'A' ? 'B' : 'A') + job.sealed.slice(at + 1);
    await database.sql.query(`UPDATE pgboss.job SET data = jsonb_build_object('sealed', $2::text) WHERE id = $1`, [job.id, altered]);
    const delivery = recordingTransport();
    const logger = recordingLogger();
    const { jobs } = await queuedMail(delivery, logger);
    await jobs.drain();
    expect(delivery.attempts).toBe(0);
    expect(await database.sql.query('SELECT state::text AS state, retry_count FROM pgboss.job WHERE id = $1', [job.id])).toEqual([
      { state: 'cancelled', retry_count: 0 },
    ]);
    const refused = logger.entries.filter((e) => e.level === 'error');
    expect(refused).toEqual([
      { level: 'error', obj: { job: MAIL_SEND_JOB, jobId: job.id, attempt: 1 }, msg: expect.stringMatching(/sealed payload does not open/) },
    ]);
    expect(JSON.stringify(logger.entries)).not.toMatch(/tampered@|TaMpErEd|activate/);
  });

  it('still delivers a mail.send job queued in clear by the release before sealing, and deletes it', async () => {
    // The previous release's process: the same job kind, its payload stored as it is.
    const { queue: earlier } = await storingQueue((q) => q.define(MAIL_SEND_JOB, async () => {}, { retryLimit: 2, retryDelay: 0 }));
    const legacy = { ...message, to: 'legacy@example.com', subject: 'Queued before the upgrade' };
    const id = await earlier.send(MAIL_SEND_JOB, legacy);
    expect((await database.sql.query<{ data: object }>('SELECT data FROM pgboss.job WHERE id = $1', [id]))[0]?.data).toEqual(legacy);
    const delivery = recordingTransport();
    const logger = recordingLogger();
    const { jobs } = await queuedMail(delivery, logger);
    await jobs.drain();
    expect(delivery.delivered).toEqual([legacy]);
    expect(delivery.keys).toEqual([`${MAIL_SEND_JOB}.${id}`]);
    expect(await database.sql.query('SELECT 1 FROM pgboss.job WHERE id = $1', [id])).toEqual([]);
    expect(logger.entries.map((e) => [e.level, e.msg])).toEqual([['warn', expect.stringMatching(/stored in clear/)]]);
  });

  it("retries a delivery the transport refused, with the same idempotency key (the job's) on every attempt", async () => {
    const delivery = recordingTransport(1);
    const { mail, jobs } = await queuedMail(delivery);
    await mail.send({ ...message, subject: 'Second try' });
    await jobs.drain();
    expect(delivery.attempts).toBe(2);
    expect(delivery.delivered.map((m) => m.subject)).toEqual(['Second try']);
    // Both attempts carried one key, the job's (its id is a uuid), and the delivered job is gone.
    const key = delivery.keys[0] ?? '';
    expect(key).toMatch(/^mail\.send\.[0-9a-f-]{36}$/);
    expect(delivery.keys).toEqual([key, key]);
    expect(await database.sql.query('SELECT 1 FROM pgboss.job WHERE id = $1', [key.replace('mail.send.', '')])).toEqual([]);
  });

  it('delivers a mail once when its first attempt failed after the sandbox inbox had stored it (the answer lost)', async () => {
    const sandbox = await createSandbox({ dataDir: null });
    const sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    const posted: { key: string | undefined; status: number | null }[] = [];
    // The first POST reaches the sandbox, which stores the message; the connection is then cut before its answer.
    const proxy = await sandboxPassThrough(
      () => sandboxUrl,
      async (req, body, res) => {
        if (req.method !== 'POST' || req.url !== '/mail/api/messages') return false;
        const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
        if (posted.length > 0) {
          posted.push({ key, status: null });
          return false;
        }
        const stored = await fetch(`${sandboxUrl}/mail/api/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
          body: new Uint8Array(body),
        });
        posted.push({ key, status: stored.status });
        res.socket?.destroy();
        return true;
      },
    );
    try {
      const { mail, jobs } = await queuedMail(new SandboxMailTransport(proxy.url));
      await mail.send({ ...message, to: 'lost-answer@example.com', subject: 'Once only' });
      await jobs.drain();
      // The first attempt failed (its answer lost) and was retried; the retry carried the same key, the job's.
      const key = posted[0]?.key ?? '';
      expect(key).toMatch(/^mail\.send\.[0-9a-f-]{36}$/);
      expect(posted).toEqual([
        { key, status: 201 },
        { key, status: null },
      ]);
      // Delivered, the job is deleted.
      expect(await database.sql.query('SELECT 1 FROM pgboss.job WHERE id = $1', [key.replace('mail.send.', '')])).toEqual([]);
      expect((await mailTo(sandboxUrl, 'lost-answer@example.com')).map((m) => m.subject)).toEqual(['Once only']);
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });
});
