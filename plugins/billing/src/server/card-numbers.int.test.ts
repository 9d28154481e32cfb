import { Writable } from 'node:stream';
import type { StartedServer } from '@portal/app-server/server';
import { createSandbox } from '@portal/sandbox';
import { authHeaders, makeUser, signIn, startTestServer } from '@portal/testing/server';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BillingApi } from '../contract';

/**
 * Card numbers never reach our API: after a member saves cards through the hosted form (approved and declined) and
 * subscribes, neither our database nor our request log holds any test card number. The API logs at debug level here,
 * so every request and answer line is in the captured log.
 */
const NUMBERS = ['4111111111111111', '4000000000000002', '5424000000000015'];
let sandbox: FastifyInstance;
let sandboxUrl: string;
let server: StartedServer;
let log = '';

beforeAll(async () => {
  sandbox = await createSandbox({ dataDir: null, gateway: { tickMs: 0 } });
  sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const stream = new Writable({
    write(chunk, _enc, done) {
      log += chunk.toString();
      done();
    },
  });
  server = await startTestServer({ sandboxUrl, smtpUrl: null }, { logger: { level: 'debug', stream } });
});
afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

it('keeps every test card number out of our database and our request log', async () => {
  await makeUser(server, { userName: 'cards-ann', roles: ['CareGuard'], brand: 'card', member: true });
  const session = await signIn(server, 'cards-ann');
  const headers = authHeaders(session, 'card');
  const get = (url: string) => server.app.inject({ method: 'GET', url, headers });
  for (const number of NUMBERS) {
    const token = (await get(`${BillingApi.token.path}?returnUrl=${encodeURIComponent('http://card.localhost/payment')}`)).json().Data as { Token: string };
    await fetch(`${sandboxUrl}/customer/api/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: token.Token, cardNumber: number, expiry: '12/30', cvv: '123' }),
    });
  }
  const synced = (await get(BillingApi.sync.path)).json().Data as { Profiles: { CardNumber: string }[] };
  expect(synced.Profiles.map((p) => p.CardNumber)).toEqual(['XXXX1111', 'XXXX0015']);
  const start = await server.app.inject({ method: 'POST', url: BillingApi.start.path, headers, payload: { Type: 1, IdempotencyKey: 'cards-ann-start-0001' } });
  expect(start.json().Data.StatusString).toBe('Ok');
  await server.jobs.drain();
  await server.flushAudit();

  const tables = await server.database.sql.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  let dump = '';
  for (const { table_name } of tables) {
    const rows = await server.database.sql.query<{ t: string | null }>(`SELECT string_agg(x::text, ' ') AS t FROM "${table_name}" x`);
    dump += rows[0]?.t ?? '';
  }
  const jobs = await server.database.sql.query<{ t: string | null }>(`SELECT string_agg(j::text, ' ') AS t FROM pgboss.job j`).catch(() => [{ t: '' }]);
  dump += jobs[0]?.t ?? '';
  // The checks can see what they look for: the masked card and the token request are there.
  expect(dump).toContain('1111');
  expect(log).toContain(BillingApi.token.path);
  for (const number of NUMBERS) {
    expect(dump, `database holds ${number}`).not.toContain(number);
    expect(log, `request log holds ${number}`).not.toContain(number);
  }
});
