import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from '@playwright/test';
import { stopChildren } from '../lib/children';
import { DEMO_PASSWORD } from '../lib/demo';
import { waitForUrl } from './lib';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');

export interface SeededStaffOptions {
  port: number;
  sandboxPort: number;
  /** More of the server's environment (WEB_DIST_DIR: the build it serves). */
  env?: NodeJS.ProcessEnv;
  log: (message: string) => void;
}

/** What a browser bench runs with: the browser, a page signed in as the staff SuperUser, and the staff site's addresses. */
export interface SeededStaff {
  browser: Browser;
  page: Page;
  site: (path: string) => string;
}

/**
 * The browser benches' environment (grid.ts, memory.ts): scripts/e2e-server.ts (a fresh seeded data directory, the
 * sandbox, the API serving the built sites) on the given ports, a headless Chromium, and a 1280x900 page signed in
 * through the staff site's form as the SuperUser. Runs `bench` with them, then closes the browser and stops the
 * server (its data directory goes with it), whatever `bench` did.
 */
export async function withSeededStaff<T>(options: SeededStaffOptions, bench: (staff: SeededStaff) => Promise<T>): Promise<T> {
  const { port, sandboxPort, log } = options;
  log(`starting the seeded server on port ${port}`);
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/e2e-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...options.env, E2E_PORT: String(port), E2E_SANDBOX_PORT: String(sandboxPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM || '/usr/bin/chromium', // as lib.ts's CHROMIUM
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    await waitForUrl(`http://localhost:${port}/health`, server, 180);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const site = (path: string) => `http://staff.localhost:${port}${path}`;
    await page.goto(site('/login'));
    await page.getByLabel('User name').fill('staff.superuser');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    return await bench({ browser, page, site });
  } finally {
    await browser.close();
    await stopChildren([server]);
  }
}
