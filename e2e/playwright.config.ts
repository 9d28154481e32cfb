import { defineConfig } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8380);
export const SANDBOX_URL = `http://localhost:${process.env.E2E_SANDBOX_PORT ?? 8390}`;

const PROFILE = ['**/profile/*.spec.ts'];
/** card.careguard and assist.careassist: their cards, subscription and ledger. */
const MEMBER_MONEY = ['**/billing/*.spec.ts', '**/ledger/*.spec.ts'];
/** assist.careguard (charged, voided, held) and card.careassist (terminated): support's own members. */
const SUPPORT = ['**/support/*.spec.ts'];

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
    // A trace records every action's snapshots and a screencast: a quarter of a journey's time on two cores. It is taken
    // when a failed journey is run again (retries, on CI); a failure's screenshot and page snapshot are always kept.
    // `--trace on` records every journey's.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  // Specs that change the shared demo members' state (the last card deleted, a ledger's one-time initial balance,
  // demo members charged, voided and terminated by support) run after the others, so no journey sees another's change;
  // each group one at a time, beside the other group, as each changes members of its own: billing and ledger
  // (MEMBER_MONEY) and support (SUPPORT). The profile journeys edit a member no other journey uses (PROFILE_MEMBER in
  // support.ts): one at a time, from the start, beside the shared journeys. After the shared ones they were a third
  // one-at-a-time group, left to run alone on one worker at the end of the run.
  projects: [
    { name: 'profile', testMatch: PROFILE, workers: 1 },
    { name: 'shared', testIgnore: [...MEMBER_MONEY, ...SUPPORT, ...PROFILE] },
    { name: 'exclusive', testMatch: MEMBER_MONEY, workers: 1, dependencies: ['shared'] },
    { name: 'support', testMatch: SUPPORT, workers: 1, dependencies: ['shared'] },
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
