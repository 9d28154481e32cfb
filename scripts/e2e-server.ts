/**
 * The end-to-end environment: a fresh data directory, seeded, with the sandbox providers and the API
 * (serving the built brand sites) as child processes. Playwright starts this and stops it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledApiArgs } from '../apps/server/compiled';

const port = process.env.E2E_PORT ?? '8380';
const sandboxPort = process.env.E2E_SANDBOX_PORT ?? '8390';
const env = {
  ...process.env,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-e2e-')),
  PORT: port,
  SANDBOX_PORT: sandboxPort,
  SANDBOX_URL: `http://localhost:${sandboxPort}`,
  LOG_LEVEL: 'warn',
  // As scripts/start: e2e/brands.spec.ts reads the demo logins off the index of sites.
  DEMO_MODE: '1',
  // Every browser in the run signs in from 127.0.0.1; the per-address limit is covered by the integration tests.
  TOKEN_REQUESTS_PER_MINUTE: '1000',
};
const children: ChildProcess[] = [];
// The API runs compiled, as scripts/start runs it (pnpm build first); the seed and the sandbox from source.
const apiArgs = compiledApiArgs();
const run = (args: string[], fromSource = true) => {
  const child = spawn(process.execPath, fromSource ? ['--import', 'tsx', ...args] : args, { env, stdio: 'inherit' });
  children.push(child);
  return child;
};
// Stop every child, whatever phase a signal arrives in, so nothing outlives this process.
const stop = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

const seed = run(['scripts/seed.ts']);
const code = await new Promise<number | null>((r) => seed.on('exit', r));
if (code !== 0) process.exit(code ?? 1);
const sandbox = run(['apps/sandbox/src/main.ts']);
// The API starts once the sandbox answers, so the API's health means the whole environment is ready.
const deadline = Date.now() + 60_000;
while (
  !(await fetch(`${env.SANDBOX_URL}/health`).then(
    (r) => r.ok,
    () => false,
  ))
) {
  if (Date.now() > deadline) throw new Error('the sandbox did not start within 60 s');
  await new Promise((r) => setTimeout(r, 200));
}
const api = run(apiArgs, false);
for (const c of [sandbox, api]) c.on('exit', (c2) => c2 && c2 !== 0 && process.exit(c2));
