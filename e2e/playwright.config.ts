import { defineConfig } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8380);
export const SANDBOX_URL = `http://localhost:${process.env.E2E_SANDBOX_PORT ?? 8390}`;

const PROFILE = ['**/profile/*.spec.ts'];
const EXCLUSIVE = ['**/billing/*.spec.ts', '**/ledger/*.spec.ts', '**/support/*.spec.ts'];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  // Specs that change the shared demo members' state (the last card deleted, a ledger's one-time initial balance,
  // demo members charged, voided and terminated by support) run one at a time after the others, so no journey sees
  // another's change. The profile journeys edit, terminate and reactivate a member of their own (PROFILE_MEMBER in
  // support.ts), one at a time, beside them.
  projects: [
    { name: 'shared', testIgnore: [...EXCLUSIVE, ...PROFILE] },
    { name: 'exclusive', testMatch: EXCLUSIVE, workers: 1, dependencies: ['shared'] },
    { name: 'profile', testMatch: PROFILE, workers: 1, dependencies: ['shared'] },
  ],
  webServer: {
    command: 'node --import tsx scripts/e2e-server.ts',
    cwd: '..',
    url: `http://localhost:${E2E_PORT}/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    // SIGTERM, so scripts/e2e-server.ts stops its children and removes its data directory (a SIGKILL would leave it).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
