import type { StartedServer } from '@portal/app-server/server';
import { startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PROXY = '10.9.9.9';

describe('the API behind a trusted proxy (TRUST_PROXY)', () => {
  let server: StartedServer;
  beforeAll(async () => {
    // Two /token requests per address per minute, so a third shows which address was counted.
    server = await startTestServer({ tokenRequestsPerMinute: 2, trustedProxies: [PROXY] });
  });
  afterAll(() => server?.close());

  /** A /token request (its body is refused, but it is counted first) from `from`, naming `forwardedFor`. */
  const token = (from: string, forwardedFor?: string) =>
    server.app
      .inject({
        method: 'POST',
        url: '/token',
        remoteAddress: from,
        headers: {
          host: 'card.localhost',
          'content-type': 'application/x-www-form-urlencoded',
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
        payload: 'grant_type=password',
      })
      .then((r) => r.statusCode);

  it('counts the per-address limit by the client the proxy names, not by the proxy', async () => {
    expect(await token(PROXY, '203.0.113.5')).toBe(400);
    expect(await token(PROXY, '203.0.113.5')).toBe(400);
    expect(await token(PROXY, '203.0.113.5')).toBe(429);
    // Another member behind the same proxy is not held back by the first one's requests, whatever address they put
    // in the header themselves: the proxy appends the address it saw, and that nearest one is what counts.
    expect(await token(PROXY, '203.0.113.5, 203.0.113.6')).toBe(400);
    expect(await token(PROXY, '203.0.113.7, 203.0.113.6')).toBe(400);
    expect(await token(PROXY, '203.0.113.6')).toBe(429);
  });

  it('ignores X-Forwarded-For from any other address, so a client cannot choose the address it is counted as', async () => {
    expect(await token('198.51.100.1', '203.0.113.20')).toBe(400);
    expect(await token('198.51.100.1', '203.0.113.21')).toBe(400);
    expect(await token('198.51.100.1', '203.0.113.22')).toBe(429);
  });
});
