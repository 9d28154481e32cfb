/**
 * The end-to-end environment: a fresh data directory, seeded, with the sandbox providers and the API
 * (serving the built brand sites) as child processes. Playwright starts this and stops it (SIGTERM); the data
 * directory is removed once the children have exited.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledApiArgs } from '../apps/server/compiled';
import { stopChildren } from './lib/children';

const port = process.env.E2E_PORT ?? '8380';
const sandboxPort = process.env.E2E_SANDBOX_PORT ?? '8390';
const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
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
// Stop every child, whatever phase a signal arrives in, so nothing outlives this process; then remove the data
// directory (115 MB of database and files a run), which nothing writes to any more.
// Called again while stopping, it returns the same promise, which never resolves: the process exits first.
let finishing: Promise<never> | null = null;
const finish = (code: number): Promise<never> =>
  (finishing ??= (async () => {
    await stopChildren(children);
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(code);
  })());
process.on('SIGTERM', () => finish(0));
process.on('SIGINT', () => finish(0));

// The sandbox starts while the seed runs (the seed does not call it): the environment is ready in 18 s instead of 20.
const sandbox = run(['apps/sandbox/src/main.ts']);
sandbox.on('exit', (c) => c && c !== 0 && finish(c));
// One spare of each member demo user, for the journeys that change a member once when CI runs them again.
const seed = run(['scripts/seed.ts', '--spares', '1']);
const code = await new Promise<number | null>((r) => seed.on('exit', r));
if (code !== 0) await finish(code ?? 1);
// The API starts once the sandbox answers, so the API's health means the whole environment is ready.
const deadline = Date.now() + 60_000;
while (
  !(await fetch(`${env.SANDBOX_URL}/health`).then(
    (r) => r.ok,
    () => false,
  ))
) {
  if (Date.now() > deadline) {
    console.error('the sandbox did not start within 60 s');
    await finish(1);
  }
  await new Promise((r) => setTimeout(r, 200));
}
const api = run(apiArgs, false);
api.on('exit', (c) => c && c !== 0 && finish(c));
