import { openTestDatabase } from '@portal/testing/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { createJobQueue } from '../jobs/pg-boss-queue';
import type { JobQueue } from '../jobs/queue';
import { MAIL_SEND_JOB, type MailMessage, type MailTransport, QueuedMailTransport } from './mail';

/** A delivery transport that records what it delivers and fails the first `failures` attempts. */
function recordingTransport(failures = 0): MailTransport & { delivered: MailMessage[]; attempts: number } {
  return {
    kind: 'recording',
    delivered: [],
    attempts: 0,
    async send(message) {
      this.attempts++;
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

  it('retries a delivery the transport refused', async () => {
    const delivery = recordingTransport(1);
    const { mail, jobs } = await queuedMail(delivery);
    await mail.send({ ...message, subject: 'Second try' });
    await jobs.drain();
    expect(delivery.attempts).toBe(2);
    expect(delivery.delivered.map((m) => m.subject)).toEqual(['Second try']);
  });
});
