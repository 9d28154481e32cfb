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
});
