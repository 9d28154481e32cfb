import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { apiSecurityHeaders } from '@portal/server/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, waitForUrl } from './lib';

/** The API bench's baselines (scripts/bench/hello.ts): bare, and with exactly the headers of an API answer. */

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function startHello(...args: string[]) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench', 'hello.ts'), String(port), ...args], { cwd: ROOT, stdio: 'ignore' });
  children.push(child);
  return { base: `http://127.0.0.1:${port}`, child };
}

describe('the API bench baselines', () => {
  it('the bare hello-world answers / with none of the API headers', async () => {
    const { base, child } = await startHello();
    await waitForUrl(`${base}/`, child, 60);
    const res = await fetch(`${base}/`);
    expect(await res.json()).toEqual({ hello: 'world' });
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('x-request-id')).toBeNull();
  }, 90_000);

  it('with --api-headers it answers /health with every header of an API answer and a fresh request id', async () => {
    const { base, child } = await startHello('--api-headers');
    await waitForUrl(`${base}/health`, child, 60);
    const [a, b] = [await fetch(`${base}/health`), await fetch(`${base}/health`)];
    expect(await a.json()).toEqual({ hello: 'world' });
    for (const [name, value] of Object.entries(apiSecurityHeaders())) expect(a.headers.get(name), name).toBe(value);
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
  }, 90_000);
});
