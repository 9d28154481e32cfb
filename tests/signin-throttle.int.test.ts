import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { reserve, signInChecks, THROTTLE } from '@portal/server/kernel';
import { makeUser, startTestServer, TEST_PASSWORD } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: StartedServer;

beforeAll(async () => {
  // The per-address request limit is not under test here: the concurrency tests send more than 60 a minute.
  server = await startTestServer({ tokenRequestsPerMinute: 10_000 });
  for (const name of ['carol', 'dave', 'erin', 'frank']) await makeUser(server, { userName: name, roles: [Roles.CareGuardFinance], member: true });
});
afterAll(() => server?.close());

const attempt = (userName: string, password: string, ip: string) =>
  server.app.inject({
    method: 'POST',
    url: '/token',
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'finance.localhost' },
    payload: new URLSearchParams({ grant_type: 'password', UserName: userName, Password: password }).toString(),
  });

describe('sign-in limit', () => {
  it('checks at most the limit of 50 concurrent wrong passwords for one name from one address; the rest get 429 with Retry-After', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => attempt('carol', 'Wrong-guess-1', '10.20.0.1')));
    const checked = answers.filter((r) => r.statusCode === 400);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(checked.length).toBe(THROTTLE.accountFailures.max);
    expect(refused.length).toBe(50 - THROTTLE.accountFailures.max);
    for (const r of checked) expect(r.json().error).toBe('invalid_grant');
    for (const r of refused) {
      expect(r.json().error).toBe('too_many_requests');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('does not let the right password through among concurrent wrong ones once the limit is spent', async () => {
    const wrong = Array.from({ length: 29 }, () => attempt('dave', 'Wrong-guess-1', '10.21.0.1'));
    const answers = await Promise.all([...wrong, attempt('dave', TEST_PASSWORD, '10.21.0.1')]);
    expect(answers.filter((r) => r.statusCode === 400 || r.statusCode === 200).length).toBeLessThanOrEqual(THROTTLE.accountFailures.max);
    expect(answers.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(30 - THROTTLE.accountFailures.max);
  });

  it("does not lock the owner out from another address with one address's failures", async () => {
    for (let i = 0; i < THROTTLE.accountFailures.max; i++) expect((await attempt('erin', 'Wrong-guess-1', '10.22.0.1')).statusCode).toBe(400);
    expect((await attempt('erin', TEST_PASSWORD, '10.22.0.1')).statusCode).toBe(429);
    // Another address is still checked: a wrong password is refused as wrong, the right one signs in.
    expect((await attempt('erin', 'Wrong-guess-1', '10.22.0.2')).statusCode).toBe(400);
    expect((await attempt('erin', TEST_PASSWORD, '10.22.0.2')).statusCode).toBe(200);
  });

  it('stops every address once the name has reached its ceiling across addresses, and refuses the right password too', async () => {
    const { max } = THROTTLE.nameFailures;
    const perAddress = THROTTLE.accountFailures.max;
    // All but the last ten failures are recorded directly, as the route records them (a password check costs ~0.1 s).
    for (let i = 0; i < (max - perAddress) / perAddress; i++) {
      for (let j = 0; j < perAddress; j++) expect((await reserve(server.database.sql, signInChecks('frank', `10.23.${i}.1`))).wait).toBe(0);
    }
    // Two fresh addresses send their full share at once: the ceiling, not the per-address limit, stops the last ten.
    const answers = await Promise.all(
      ['10.23.100.1', '10.23.101.1'].flatMap((ip) => Array.from({ length: perAddress }, () => attempt('frank', 'Wrong-guess-1', ip))),
    );
    expect(answers.filter((r) => r.statusCode === 400).length).toBe(perAddress);
    expect(answers.filter((r) => r.statusCode === 429).length).toBe(perAddress);
    const owner = await attempt('frank', TEST_PASSWORD, '10.24.0.1');
    expect(owner.statusCode).toBe(429);
    expect(Number(owner.headers['retry-after'])).toBeGreaterThan(THROTTLE.accountFailures.windowSeconds);
  });

  it('does not count a successful sign-in as a failure', async () => {
    const ip = '10.25.0.1';
    for (let i = 0; i < THROTTLE.accountFailures.max - 1; i++) expect((await attempt('dave', 'Wrong-guess-1', ip)).statusCode).toBe(400);
    expect((await attempt('dave', TEST_PASSWORD, ip)).statusCode).toBe(200);
    // The success forgot this address's failures for the name: the full allowance is back.
    for (let i = 0; i < THROTTLE.accountFailures.max; i++) expect((await attempt('dave', 'Wrong-guess-1', ip)).statusCode).toBe(400);
    expect((await attempt('dave', 'Wrong-guess-1', ip)).statusCode).toBe(429);
  });
});
