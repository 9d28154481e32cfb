/**
 * More than one API process against one PostgreSQL database (docs/SCALING.md): real processes, since the session
 * cache is per process and two servers inside one test process would share it.
 * PostgreSQL only (PGlite is one process's database): runs in the PostgreSQL pass of scripts/test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createUser, hashPassword, openDatabase, SESSION_CACHE_MS } from '@portal/server/kernel';
import { freshDatabaseUrl } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..');
const PASSWORD = 'Scale-out-1';
const SECRET = 'scale-out-test-secret';
const basePort = 19_300 + Math.floor(Math.random() * 500);

interface Reply {
  status: number;
  body: string;
}
function call(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: 'staff.localhost', ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Api {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}
function startApi(port: number, env: Record<string, string>, dataDir: string): Api {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'apps/server/src/main.ts')], {
    cwd: REPO,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      TOKEN_SECRET: SECRET,
      SANDBOX_URL: 'http://127.0.0.1:9',
      LOG_LEVEL: 'warn',
      JOBS: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

async function ready(api: Api, port: number, seconds = 90) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (api.child.exitCode !== null) throw new Error(`the API exited (${api.child.exitCode}): ${api.output()}`);
    const ok = await call(port, 'GET', '/health').then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`the API on ${port} did not answer within ${seconds} s: ${api.output()}`);
}

async function stop(api: Api) {
  if (api.child.exitCode === null) api.child.kill('SIGTERM');
  return api.exited;
}

async function signIn(port: number, userName: string) {
  const r = await call(
    port,
    'POST',
    '/token',
    { 'content-type': 'application/x-www-form-urlencoded' },
    new URLSearchParams({ grant_type: 'password', UserName: userName, Password: PASSWORD }).toString(),
  );
  expect(r.status).toBe(200);
  return JSON.parse(r.body) as { access_token: string; form_token: string };
}
const identity = (port: number, token: string) => call(port, 'GET', '/api/account/user/identity', { authorization: `Bearer ${token}` });

describe.skipIf(!process.env.TEST_DATABASE_URL)('several API processes on one PostgreSQL database', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let dataDir: string;
  const apis: Api[] = [];

  beforeAll(async () => {
    db = await freshDatabaseUrl();
    dataDir = mkdtempSync(join(tmpdir(), 'portal-scale-'));
  });
  afterAll(async () => {
    await Promise.all(apis.map(stop));
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function addUser(userName: string) {
    const database = await openDatabase({ databaseUrl: db.databaseUrl, dataDir: null, poolSize: 1 });
    try {
      await createUser(database.sql, {
        userName,
        passwordHash: await hashPassword(PASSWORD),
        firstName: 'Scale',
        lastName: 'Out',
        email: `${userName}@example.com`,
        brand: 'staff',
        memberId: null,
        roles: ['SuperUser'],
        isActive: true,
      });
    } finally {
      await database.close();
    }
  }

  it(`refuses a session signed out in one process in another within ${SESSION_CACHE_MS / 1000} s`, async () => {
    const [a, b] = [basePort, basePort + 1];
    const first = startApi(a, { DATABASE_URL: db.databaseUrl ?? '' }, dataDir);
    apis.push(first);
    await ready(first, a); // the first applies the migrations; the second finds them done
    const second = startApi(b, { DATABASE_URL: db.databaseUrl ?? '' }, dataDir);
    apis.push(second);
    await ready(second, b);
    await addUser('scale.revoke');

    const session = await signIn(a, 'scale.revoke');
    // The other process accepts the token (nothing about the session lives in the process that issued it) and now
    // holds the session as live in its cache.
    expect((await identity(b, session.access_token)).status).toBe(200);

    const out = await call(a, 'POST', '/api/account/user/signout', { authorization: `Bearer ${session.access_token}`, 'x-form-token': session.form_token });
    expect(out.status).toBe(200);
    const signedOut = Date.now();
    expect((await identity(a, session.access_token)).status).toBe(401); // at once where it was signed out

    let refusedAfter: number | null = null;
    while (Date.now() - signedOut < SESSION_CACHE_MS + 2_000) {
      if ((await identity(b, session.access_token)).status === 401) {
        refusedAfter = Date.now() - signedOut;
        break;
      }
      await sleep(100);
    }
    expect(refusedAfter, 'the other process still accepted the signed-out session').not.toBeNull();
    // The documented bound, plus one poll interval and a request's time.
    expect(refusedAfter).toBeLessThanOrEqual(SESSION_CACHE_MS + 300);
  }, 240_000);

  it('WORKERS=2 runs two API processes on one port that accept each other’s sessions, and stops them on SIGTERM', async () => {
    const port = basePort + 2;
    await addUser('scale.workers');
    const api = startApi(port, { DATABASE_URL: db.databaseUrl ?? '', WORKERS: '2', LOG_LEVEL: 'info' }, dataDir);
    apis.push(api);
    await ready(api, port);
    // ready once one worker listens; the primary says when every worker does
    const deadline = Date.now() + 90_000;
    while (!api.output().includes('2 API processes share port') && Date.now() < deadline) await sleep(200);
    const pids = [...api.output().matchAll(/worker \d+ \(pid (\d+)\) listening/g)].map((m) => Number(m[1]));
    expect(new Set(pids).size).toBe(2);

    // Connections are handed to the workers in turn: every call below reaches both, on one session.
    const session = await signIn(port, 'scale.workers');
    const statuses = await Promise.all(Array.from({ length: 12 }, () => identity(port, session.access_token).then((r) => r.status)));
    expect(statuses).toEqual(Array(12).fill(200));
    const served = new Set(
      [...api.output().matchAll(/"pid":(\d+),[^\n]*"url":"\/api\/account\/user\/identity"/g)].map((m) => Number(m[1])).filter((p) => pids.includes(p)),
    );
    expect(served.size).toBe(2);

    expect(await stop(api)).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(); // no worker outlives the primary
  }, 240_000);
});

describe('WORKERS on the embedded database', () => {
  it('refuses more than one process without DATABASE_URL, with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-scale-'));
    const api = startApi(basePort + 3, { WORKERS: '2', DATABASE_URL: '' }, dir);
    expect(await api.exited).toBe(1);
    expect(api.output()).toContain('WORKERS=2 needs DATABASE_URL');
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
