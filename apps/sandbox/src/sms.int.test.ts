import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './app';
import { codeIn, latestSmsTo, smsTo } from './client';
import { carrierLookup } from './sms';

let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  app = await createSandbox({ dataDir: null });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app?.close());

const post = (payload: unknown) => app.inject({ method: 'POST', url: '/sms/api/messages', payload: payload as object });
const postKeyed = (payload: unknown, key: string) =>
  app.inject({ method: 'POST', url: '/sms/api/messages', headers: { 'idempotency-key': key }, payload: payload as object });

// The sandbox's own embedded database, whichever engine the run tests: the PostgreSQL run skips it rather than repeat it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('sandbox SMS provider', () => {
  it('answers the carrier lookup with invalid numbers, landlines and mobiles', async () => {
    expect(carrierLookup('+12125550101')).toEqual({ phoneNumber: '+12125550101', lineType: 'mobile', carrier: 'Sandbox Wireless' });
    expect(carrierLookup('+12125559950').lineType).toBe('landline');
    for (const invalid of ['+12125550000', '+10125550101', '+12121550101', '2125550101', '+1212555010']) expect(carrierLookup(invalid).phoneNumber).toBeNull();
    const found = await app.inject({ url: `/sms/api/lookup?number=${encodeURIComponent('+13125550142')}` });
    expect(found.statusCode).toBe(200);
    expect(found.json().phoneNumber).toBe('+13125550142');
    const missing = await app.inject({ url: `/sms/api/lookup?number=${encodeURIComponent('+13125550000')}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().phoneNumber).toBeNull();
    expect((await app.inject({ url: '/sms/api/lookup' })).statusCode).toBe(400);
  });

  it('stores messages to mobiles, lists them newest first by number, and shows them on the inbox page', async () => {
    expect((await post({ to: '+14155550101', text: 'Your code is 123456.', brand: 'card' })).statusCode).toBe(201);
    expect((await post({ to: '+14155550101', text: 'Your code is 654321.' })).statusCode).toBe(201);
    const list = await smsTo(url, '4155550101');
    expect(list.map((m) => m.text)).toEqual(['Your code is 654321.', 'Your code is 123456.']);
    const latest = await latestSmsTo(url, '+14155550101', { afterId: list[1]?.id ?? 0 });
    expect(codeIn(latest)).toBe('654321');
    const html = await app.inject({ url: '/sms?to=4155550101' });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.body).toContain('Your code is 654321.');
    expect(html.body).toContain('Sandbox SMS inbox');
  });

  it('refuses bad messages and messages to landlines or invalid numbers', async () => {
    expect((await post({ to: '4155550101', text: 'x' })).statusCode).toBe(400);
    expect((await post({ to: '+14155550101', text: '' })).statusCode).toBe(400);
    expect((await post({ to: '+14155559901', text: 'to a landline' })).statusCode).toBe(422);
    expect((await post({ to: '+14155550000', text: 'to nobody' })).statusCode).toBe(422);
    expect(await smsTo(url, '+14155559901')).toEqual([]);
    const escaped = await post({ to: '+14155550199', text: '<script>alert(1)</script>' });
    expect(escaped.statusCode).toBe(201);
    expect((await app.inject({ url: '/sms' })).body).not.toContain('<script>');
  });

  it('stores a text message sent again with its Idempotency-Key once, and answers the first (200, same id)', async () => {
    const sms = { to: '+14155550120', text: 'Your code is 111111.', brand: 'card' };
    const first = await postKeyed(sms, 'profile.sms.send.6a1f3c2e-9b7d-4e5f-a1b2-c3d4e5f60718');
    expect(first.statusCode).toBe(201);
    const again = await postKeyed(sms, 'profile.sms.send.6a1f3c2e-9b7d-4e5f-a1b2-c3d4e5f60718');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await smsTo(url, '+14155550120')).map((m) => m.id)).toEqual([first.json().id]);
    expect((await post(sms)).statusCode).toBe(201);
    expect(await smsTo(url, '+14155550120')).toHaveLength(2);
  });

  it('refuses a key used for a different text message with 409, storing nothing', async () => {
    const first = await postKeyed({ to: '+14155550121', text: 'Your code is 222222.' }, 'sms-conflict-1');
    expect(first.statusCode).toBe(201);
    const other = await postKeyed({ to: '+14155550121', text: 'Your code is 333333.' }, 'sms-conflict-1');
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe(`The Idempotency-Key sms-conflict-1 was already used for a different message (${first.json().id}).`);
    expect((await smsTo(url, '+14155550121')).map((m) => m.text)).toEqual(['Your code is 222222.']);
  });

  it('stores one text message for requests racing with one key, over real HTTP', async () => {
    const send = () =>
      fetch(`${url}/sms/api/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'sms-race-1' },
        body: JSON.stringify({ to: '+14155550122', text: 'Your code is 444444.' }),
      });
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    const ids = new Set(await Promise.all(answers.map(async (a) => ((await a.json()) as { id: number }).id)));
    expect(ids.size).toBe(1);
    expect((await smsTo(url, '+14155550122')).map((m) => m.id)).toEqual([...ids]);
  });

  it('refuses an empty, overlong or malformed Idempotency-Key with 400, storing nothing', async () => {
    for (const key of ['', 's'.repeat(256), 'two words']) {
      const res = await postKeyed({ to: '+14155550123', text: 'x' }, key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json().error).toBe('The Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces).');
    }
    expect(await smsTo(url, '+14155550123')).toEqual([]);
  });
});
