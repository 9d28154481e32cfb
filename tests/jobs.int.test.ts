import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jobsWorkedHere } from '@portal/app-server/server';
import { ConfigError, MAIL_SEND_JOB, type MailMessage, SESSION_PRUNE_JOB, THROTTLE_PRUNE_JOB } from '@portal/server/kernel';
import { startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Stands in for the sandbox inbox: records what SandboxMailTransport posts; refuses the first `refuse` posts. */
let inbox: Server;
const received: MailMessage[] = [];
let refuse = 0;
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  inbox = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/mail/api/messages') return void res.writeHead(404).end();
      if (refuse > 0) {
        refuse--;
        return void res.writeHead(503).end('inbox down');
      }
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as MailMessage);
      res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
  });
  inbox.listen(0, '127.0.0.1');
  await once(inbox, 'listening');
  const { port } = inbox.address() as AddressInfo;
  server = await startTestServer({ sandboxUrl: `http://127.0.0.1:${port}`, smtpUrl: null });
});
afterAll(async () => {
  await server?.close();
  inbox.close();
});

const message: MailMessage = { from: 'support@card.example.com', to: 'bo@example.com', subject: 'Your card', text: 'Hello Bo', brand: 'card' };

describe('background jobs in the API process', () => {
  it('delivers a queued mail.send job to the sandbox inbox', async () => {
    expect(server.jobs.working).toBe(true);
    await server.jobs.send(MAIL_SEND_JOB, message);
    await server.jobs.drain();
    expect(received).toEqual([message]);
  });

  it('retries the delivery when the inbox refuses it', async () => {
    refuse = 1;
    await server.jobs.send(MAIL_SEND_JOB, { ...message, subject: 'Second try' });
    await server.jobs.drain();
    expect(refuse).toBe(0);
    expect(received.map((m) => m.subject)).toContain('Second try');
  });

  it('schedules the throttle prune and the session prune', async () => {
    const rows = await server.database.sql.query<{ name: string }>('SELECT name FROM pgboss.schedule');
    expect(rows.map((r) => r.name)).toContain(THROTTLE_PRUNE_JOB);
    expect(rows.map((r) => r.name)).toContain(SESSION_PRUNE_JOB);
  });

  it('reads JOBS as on (the default) or off and refuses anything else', () => {
    expect(jobsWorkedHere({})).toBe(true);
    expect(jobsWorkedHere({ JOBS: 'on' })).toBe(true);
    expect(jobsWorkedHere({ JOBS: 'off' })).toBe(false);
    expect(() => jobsWorkedHere({ JOBS: 'false' })).toThrow(ConfigError);
  });
});
