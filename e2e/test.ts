import { test as base, expect } from '@playwright/test';

export { expect };

/** The browser's report of a blocked load or inline code: `Refused to load ...`, `Applying inline style violates ...`. */
export const isCspViolation = (text: string) => /Content Security Policy/i.test(text);

/** The app's report of a prerendered page React could not take over as it was (startApp's onRecoverableError). */
export const isHydrationMismatch = (text: string) => text.startsWith('The prerendered page did not match');

/**
 * Every journey's test: Playwright's, plus two checks on what the journey's pages logged.
 * - Nothing was refused by the Content-Security-Policy. A refused style, script, frame or connection means part of
 *   the page silently does not work (a library's inline style not applied, a provider's form not framed), so the
 *   journey fails on it, with the messages.
 * - No prerendered page failed to hydrate: React then paints the page again, a flash the user sees and the work the
 *   prerender is there to save.
 */
export const test = base.extend<{ cspViolations: string[]; hydrationMismatches: string[] }>({
  cspViolations: [
    async ({ context }, use) => {
      const violations: string[] = [];
      context.on('console', (message) => {
        if (isCspViolation(message.text())) violations.push(`${message.page()?.url() ?? ''}: ${message.text()}`);
      });
      await use(violations);
      expect(violations, 'requests or inline code the Content-Security-Policy refused').toEqual([]);
    },
    { auto: true },
  ],
  hydrationMismatches: [
    async ({ context }, use) => {
      const mismatches: string[] = [];
      context.on('console', (message) => {
        if (isHydrationMismatch(message.text())) mismatches.push(`${message.page()?.url() ?? ''}: ${message.text().split('\n')[0]}`);
      });
      await use(mismatches);
      expect(mismatches, 'prerendered pages React could not take over').toEqual([]);
    },
    { auto: true },
  ],
});
