import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

/**
 * Records the help videos (scripts/help-video): the e2e server and browser, one recording at a time. Not part of the
 * e2e run (its files end in .video.ts, which the e2e config does not match).
 */
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '**/*.video.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 180_000,
  projects: undefined,
  webServer: base.webServer && !Array.isArray(base.webServer) ? { ...base.webServer, cwd: '../..' } : base.webServer,
});
