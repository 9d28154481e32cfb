import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type StartedServer } from '@portal/app-server/server';
import { allowFrameSources, CSP_DIRECTIVES, loggedError, REACT_ARIA_PRESSABLE_STYLE, redactSecrets, renderCsp, styleHashSource } from '@portal/server/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Item 4, 6 and 7 of the security hardening: log redaction, security headers, demo logins only locally. */

const dataDir = mkdtempSync(join(tmpdir(), 'portal-security-'));
const webDistDir = join(dataDir, 'web');
const DEMO = { brand: 'finance', role: 'CareGuardFinance', userName: 'finance.careguardfinance', password: 'Shown4Locals' };
// What Vite writes for a brand: module scripts and style sheets by address only.
const BRAND_INDEX = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CareGuard Finance</title>
<script type="module" crossorigin src="/assets/index-abc123.js"></script><link rel="stylesheet" crossorigin href="/assets/index-abc123.css"></head>
<body><div id="root"></div></body></html>`;
const logLines: string[] = [];
let server: StartedServer;

beforeAll(async () => {
  mkdirSync(join(webDistDir, 'finance'), { recursive: true });
  writeFileSync(join(webDistDir, 'finance', 'index.html'), BRAND_INDEX);
  writeFileSync(join(dataDir, 'demo-users.json'), JSON.stringify([DEMO]));
  server = await createServer(
    { databaseUrl: null, dataDir, webDistDir, fileStore: { kind: 'memory' }, tokenSecret: 'test-secret', demoMode: true },
    { logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } }, workJobs: false },
  );
}, 180_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string, host: string, remoteAddress = '127.0.0.1') => server.app.inject({ method: 'GET', url, headers: { host }, remoteAddress });
const csp = (header: unknown) =>
  Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  ) as Record<string, string[]>;

function expectSecurityHeaders(res: { headers: Record<string, unknown> }) {
  const policy = csp(res.headers['content-security-policy']);
  expect(policy['script-src']).toEqual(["'self'"]);
  // Style sheets by address only, and inline only react-aria's one fixed rule, by its hash.
  expect(policy['style-src']?.slice(0, 2)).toEqual(["'self'", styleHashSource(REACT_ARIA_PRESSABLE_STYLE)]);
  expect(policy['frame-ancestors']).toEqual(["'none'"]);
  expect(policy['frame-src']).toEqual(["'none'"]);
  expect(policy['object-src']).toEqual(["'none'"]);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-frame-options']).toBe('DENY');
}

/** OWASP's headers for REST answers: a policy that allows nothing, and none of the page-only headers. */
function expectApiHeaders(res: { headers: Record<string, unknown> }, url: string) {
  expect(csp(res.headers['content-security-policy']), url).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
  expect(res.headers['x-content-type-options'], url).toBe('nosniff');
  expect(res.headers['referrer-policy'], url).toBe('no-referrer');
  expect(res.headers['x-frame-options'], url).toBe('DENY');
  expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
  expect(res.headers['strict-transport-security'], url).toMatch(/^max-age=\d+/);
  expect(res.headers['cache-control'], url).toBe('no-store');
  expect(res.headers['x-request-id'], url).toMatch(/^[\w-]{8,64}$/);
  for (const pageOnly of ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-xss-protection'])
    expect(res.headers[pageOnly], `${url} ${pageOnly}`).toBeUndefined();
}

// A server on its own embedded database whichever engine the run tests (the headers and the log are the engine's
// concern nowhere): the PostgreSQL run skips it rather than repeat it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('security headers', () => {
  it('sends the API policy and no-store on API answers, refusals and 404s included', async () => {
    for (const url of ['/config', '/api/account/reset/passwordpolicy', '/health', '/health?probe=1']) {
      const res = await get(url, 'finance.localhost');
      expect(res.statusCode, url).toBe(200);
      expectApiHeaders(res, url);
    }
    expectApiHeaders(await get('/api/account/user/identity', 'finance.localhost'), 'identity without a session (401)');
    expectApiHeaders(await get('/api/no-such-call', 'finance.localhost'), 'an unknown call (404)');
    const token = await server.app.inject({
      method: 'POST',
      url: '/token',
      headers: { host: 'finance.localhost', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token&refresh_token=unknown',
    });
    expectApiHeaders(token, '/token');
  });

  it("sends the policy on a brand's pages, which load their scripts and styles by address only", async () => {
    const res = await get('/login', 'finance.localhost:8080');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(BRAND_INDEX);
    expectSecurityHeaders(res);
    expect(csp(res.headers['content-security-policy'])['style-src']).toEqual(["'self'", styleHashSource(REACT_ARIA_PRESSABLE_STYLE)]);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('allows the index of sites its one inline style sheet by hash, and nothing else inline', async () => {
    const res = await get('/', 'localhost:8080');
    expectSecurityHeaders(res);
    const style = res.body.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? '';
    const hash = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
    expect(csp(res.headers['content-security-policy'])['style-src']).toEqual(["'self'", styleHashSource(REACT_ARIA_PRESSABLE_STYLE), hash]);
    expect(res.body).not.toMatch(/<script|\son\w+=/i);
  });

  it('keeps the source index.html, any built one and the prerendered pages free of inline script and inline style elements', () => {
    const pages = [join(import.meta.dirname, '..', 'apps', 'web', 'index.html')];
    for (const brand of ['finance', 'assist', 'quote', 'card', 'staff'])
      for (const file of ['index.html', 'prerendered/sign-in.en.html', 'prerendered/sign-in.es.html'])
        pages.push(join(import.meta.dirname, '..', 'apps', 'web', 'dist', brand, file));
    for (const page of pages) {
      let html: string;
      try {
        html = readFileSync(page, 'utf8');
      } catch {
        continue; // not built
      }
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag, page).toMatch(/\ssrc=/);
      expect(html, page).not.toMatch(/<style\b|\son\w+=/i);
    }
  });

  it('lets a page frame given provider origins, and only http(s) origins', () => {
    const headers = new Map<string, string>([['content-security-policy', renderCsp(CSP_DIRECTIVES)]]);
    const reply = {
      getHeader: (name: string) => headers.get(name),
      header(name: string, value: string) {
        headers.set(name, value);
        return reply;
      },
    } as unknown as Parameters<typeof allowFrameSources>[0];
    allowFrameSources(reply, ['http://localhost:8090']);
    allowFrameSources(reply, ['https://bank.example.com', 'http://localhost:8090']);
    const policy = csp(headers.get('content-security-policy'));
    expect(policy['frame-src']).toEqual(['http://localhost:8090', 'https://bank.example.com']);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['script-src']).toEqual(["'self'"]);
    for (const bad of ['https://pay.example.com/form', '*', 'javascript:alert(1)', "'unsafe-inline'"]) expect(() => allowFrameSources(reply, [bad])).toThrow();
  });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)('log redaction', () => {
  const secrets = ['ResetLinkId0001', 'ActivateLinkId02', 'ValidateLinkId03', 'ActivateApiId004', 'PostedLinkId0005', 'MailedLinkId0006', 'ConfirmEmailId07'];

  it('writes no reset or activation link id to any log line', async () => {
    logLines.length = 0;
    await get(`/login/reset/${secrets[0]}`, 'finance.localhost');
    await get(`/login/activate/${secrets[1]}`, 'finance.localhost');
    await get(`/api/account/reset/validate/${secrets[2]}`, 'finance.localhost');
    await get(`/api/account/activate/${secrets[3]}?x=1`, 'finance.localhost');
    // No POST route there: Fastify's own "Route ... not found" line names the URL.
    await server.app.inject({ method: 'POST', url: `/login/reset/${secrets[4]}`, headers: { host: 'finance.localhost' } });
    server.app.log.info(`mailed http://finance.localhost:8080/login/reset/${secrets[5]} to a member`);
    await get(`/login/confirm-email/${secrets[6]}`, 'finance.localhost');
    const log = logLines.join('');
    for (const secret of secrets) expect(log).not.toContain(secret);
    const urls = logLines.map((l) => JSON.parse(l) as { req?: { url?: string } }).flatMap((l) => (l.req?.url ? [l.req.url] : []));
    expect(urls).toEqual(
      expect.arrayContaining([
        '/login/reset/[redacted]',
        '/login/activate/[redacted]',
        '/api/account/reset/validate/[redacted]',
        '/api/account/activate/[redacted]?x',
        '/login/confirm-email/[redacted]',
      ]),
    );
    expect(log).toContain('http://finance.localhost:8080/login/reset/[redacted] to a member');
  });

  it("writes a search's words nowhere: query strings keep their names, a route's text parameters their pattern, ids their value", async () => {
    logLines.length = 0;
    await get('/api/members/list?name=Jane%20Quarry-Smith&page=2&name=Jo', 'staff.localhost');
    await get('/api/claims/searchVendors/oncology%20clinic', 'finance.localhost');
    await get('/support-members?q=Jane%20Quarry', 'staff.localhost');
    await get('/api/claims/getById/4242', 'finance.localhost');
    const log = logLines.join('');
    for (const words of ['Jane', 'Quarry', 'oncology']) expect(log).not.toContain(words);
    const urls = logLines.map((l) => JSON.parse(l) as { req?: { url?: string } }).flatMap((l) => (l.req?.url ? [l.req.url] : []));
    expect(urls).toEqual(
      expect.arrayContaining(['/api/members/list?name&page', '/api/claims/searchVendors/:text', '/support-members?q', '/api/claims/getById/4242']),
    );
  });

  it("writes no value a failing statement was given: a database error's params and detail stay out of the log", () => {
    const dbError = Object.assign(new Error('new row violates check constraint "members_email"'), {
      code: '23514',
      query: 'UPDATE members SET email = $2 WHERE member_id = $1',
      params: [7, 'janet.private@example.com'],
      queryOptions: { rowMode: 'object' },
      detail: 'Failing row contains (7, Janet, janet.private@example.com).',
    });
    const logged = JSON.stringify(loggedError(new Error('profile save failed', { cause: dbError })));
    expect(logged).not.toContain('janet.private');
    expect(logged).toContain('23514');
    expect(logged).toContain('UPDATE members SET email = $2');
    expect(logged).toContain('profile save failed');
  });

  it('leaves other paths alone', async () => {
    logLines.length = 0;
    await get('/api/account/reset/passwordpolicy', 'finance.localhost');
    expect(logLines.join('')).toContain('"url":"/api/account/reset/passwordpolicy"');
    expect(redactSecrets('/api/help/t/topic /token /login/resetting "/t/abc"')).toBe('/api/help/t/topic /token /login/resetting "/t/[redacted]"');
  });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)('demo sign-ins on the index of sites', () => {
  it('lists them in demo mode to a local request for localhost or 127.0.0.1, any port', async () => {
    for (const host of ['localhost', 'localhost:8080', '127.0.0.1:9999']) {
      const res = await get('/', host);
      expect(res.body, host).toContain(DEMO.userName);
      expect(res.body, host).toContain(DEMO.password);
    }
  });

  it('does not list them to another host name, to a remote peer, or outside demo mode', async () => {
    const remote = [get('/', 'portal.example.com'), get('/', 'portal.example.com:8080'), get('/', 'localhost:8080', '203.0.113.7')];
    for (const res of await Promise.all(remote)) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Portal sites');
      expect(res.body).not.toContain(DEMO.userName);
      expect(res.body).not.toContain(DEMO.password);
    }
    server.config.demoMode = false;
    try {
      const res = await get('/', 'localhost:8080');
      expect(res.body).not.toContain(DEMO.userName);
      expect(res.body).not.toContain(DEMO.password);
    } finally {
      server.config.demoMode = true;
    }
  });
});
