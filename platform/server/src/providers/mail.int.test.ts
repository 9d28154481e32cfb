import { createSandbox, mailTo } from '@portal/sandbox';
import { sandboxPassThrough } from '@portal/testing/sandbox';
import { openTestDatabase } from '@portal/testing/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { createJobQueue } from '../jobs/pg-boss-queue';
import type { JobQueue } from '../jobs/queue';
import { type DeliveryOptions, MAIL_SEND_JOB, type MailMessage, type MailTransport, QueuedMailTransport, SandboxMailTransport } from './mail';

/** A delivery transport that records what it delivers and fails the first `failures` attempts. */
function recordingTransport(failures = 0): MailTransport & { delivered: MailMessage[]; attempts: number; keys: (string | undefined)[] } {
  return {
    kind: 'recording',
    delivered: [],
    attempts: 0,
    keys: [],
    async send(message, opts?: DeliveryOptions) {
      this.attempts++;
      this.keys.push(opts?.idempotencyKey);
      if (this.attempts <= failures) throw new Error('mail server unavailable');
      this.delivered.push(message);
    },
  };
}

const message: MailMessage = { from: 'support@finance.example.com', to: 'ann@example.com', subject: 'Activate', text: 'Hello Ann', brand: 'finance' };
const silent = { info: () => {}, warn: () => {}, error: () => {} };
let database: Database;
let jobs: JobQueue | null = null;

async function queuedMail(delivery: MailTransport) {
  jobs = createJobQueue(database, { work: true, pollingIntervalSeconds: 0.5 });
  const mail = await QueuedMailTransport.create(jobs, delivery, { retryLimit: 2, retryDelay: 0 });
  await jobs.start({ logger: silent });
  return { mail, jobs };
}

beforeAll(async () => {
  database = await openTestDatabase();
});
afterEach(async () => {
  await jobs?.stop();
  jobs = null;
});
afterAll(async () => {
  await database.close();
});

describe('queued mail', () => {
  it('stores the message as a mail.send job, which delivers it through the real transport', async () => {
    const delivery = recordingTransport();
    const { mail, jobs } = await queuedMail(delivery);
    expect(mail.kind).toBe('queued recording');
    await mail.send(message);
    const queued = await database.sql.query<{ data: MailMessage }>('SELECT data FROM pgboss.job WHERE name = $1', [MAIL_SEND_JOB]);
    expect(queued.map((r) => r.data)).toEqual([message]);
    await jobs.drain();
    expect(delivery.delivered).toEqual([message]);
  });

  it("retries a delivery the transport refused, with the same idempotency key (the job's) on every attempt", async () => {
    const delivery = recordingTransport(1);
    const { mail, jobs } = await queuedMail(delivery);
    await mail.send({ ...message, subject: 'Second try' });
    await jobs.drain();
    expect(delivery.attempts).toBe(2);
    expect(delivery.delivered.map((m) => m.subject)).toEqual(['Second try']);
    const [job] = await database.sql.query<{ id: string }>(`SELECT id FROM pgboss.job WHERE name = $1 AND data->>'subject' = 'Second try'`, [MAIL_SEND_JOB]);
    expect(delivery.keys).toEqual([`mail.send.${job?.id}`, `mail.send.${job?.id}`]);
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
      const [job] = await database.sql.query<{ id: string; state: string; retry_count: number }>(
        `SELECT id, state, retry_count FROM pgboss.job WHERE name = $1 AND data->>'to' = 'lost-answer@example.com'`,
        [MAIL_SEND_JOB],
      );
      // The first attempt failed (its answer lost) and was retried; the retry carried the same key.
      expect(job).toMatchObject({ state: 'completed', retry_count: 1 });
      expect(posted).toEqual([
        { key: `mail.send.${job?.id}`, status: 201 },
        { key: `mail.send.${job?.id}`, status: null },
      ]);
      expect((await mailTo(sandboxUrl, 'lost-answer@example.com')).map((m) => m.subject)).toEqual(['Once only']);
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });
});
