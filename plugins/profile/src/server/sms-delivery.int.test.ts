import { smsTo } from '@portal/sandbox';
import { SandboxSmsTransport } from '@portal/server/kernel';
import { type SandboxTestEnv, sandboxPassThrough, startSandboxTestEnv } from '@portal/testing/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMS_SEND_JOB } from './handlers/messaging';

let env: SandboxTestEnv | null = null;
/** Every POST of a text message that went through the pass-through: its key, and the sandbox's answer when it was cut. */
const posted: { key: string | undefined; cut: number | null }[] = [];
/** The next POSTs of a text message to this number reach the sandbox, which stores them, and lose its answer. */
const cutAnswers = new Map<string, number>();
let proxy: Awaited<ReturnType<typeof sandboxPassThrough>>;

beforeAll(async () => {
  proxy = await sandboxPassThrough(
    () => env?.sandboxUrl,
    async (req, body, res) => {
      const target = env?.sandboxUrl;
      if (req.method !== 'POST' || req.url !== '/sms/api/messages' || !target) return false;
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
      const to = (JSON.parse(body.toString('utf8')) as { to: string }).to;
      const cuts = cutAnswers.get(to) ?? 0;
      if (cuts === 0) {
        posted.push({ key, cut: null });
        return false;
      }
      cutAnswers.set(to, cuts - 1);
      const stored = await fetch(`${target}/sms/api/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
        body: new Uint8Array(body),
      });
      posted.push({ key, cut: stored.status });
      res.socket?.destroy();
      return true;
    },
  );
  // The server under test reaches the sandbox through the pass-through.
  env = await startSandboxTestEnv({ sandboxUrl: proxy.url });
});
afterAll(async () => {
  await env?.close();
  await proxy?.close();
});

describe('text messages with an idempotency key', () => {
  it('SandboxSmsTransport sends the key as Idempotency-Key: the same send again is the same one message', async () => {
    const sms = new SandboxSmsTransport(proxy.url);
    posted.length = 0;
    await sms.send({ to: '+13035550131', text: 'Your code is 131131.' }, { idempotencyKey: 'direct-sms-1' });
    await sms.send({ to: '+13035550131', text: 'Your code is 131131.' }, { idempotencyKey: 'direct-sms-1' });
    expect(posted).toEqual([
      { key: 'direct-sms-1', cut: null },
      { key: 'direct-sms-1', cut: null },
    ]);
    expect((await smsTo(env?.sandboxUrl ?? '', '+13035550131')).map((m) => m.text)).toEqual(['Your code is 131131.']);
    // Without a key each send is a message of its own, as before.
    await sms.send({ to: '+13035550131', text: 'Your code is 131131.' });
    expect(await smsTo(env?.sandboxUrl ?? '', '+13035550131')).toHaveLength(2);
    // The same key for another text is refused.
    await expect(sms.send({ to: '+13035550131', text: 'Your code is 999999.' }, { idempotencyKey: 'direct-sms-1' })).rejects.toThrow(
      /sandbox SMS refused the message: 409/,
    );
  });

  it("the profile SMS job sends every attempt with its job's key: a run whose answer was lost texts the member once", async () => {
    if (!env) throw new Error('no test server');
    posted.length = 0;
    cutAnswers.set('+13035550132', 1);
    const jobId = await env.server.jobs.send(SMS_SEND_JOB, { to: '+13035550132', text: 'Your code is 132132.', brand: 'card' });
    await env.server.jobs.drain();
    // Delivered, the job (sealed: it holds a code) is deleted at once.
    expect(await env.server.database.sql.query('SELECT 1 FROM pgboss.job WHERE id = $1', [jobId])).toEqual([]);
    // The first run failed after the sandbox stored the message; the retry carried the same key and was answered the first.
    expect(posted).toEqual([
      { key: `${SMS_SEND_JOB}.${jobId}`, cut: 201 },
      { key: `${SMS_SEND_JOB}.${jobId}`, cut: null },
    ]);
    expect((await smsTo(env.sandboxUrl, '+13035550132')).map((m) => m.text)).toEqual(['Your code is 132132.']);
  });
});
