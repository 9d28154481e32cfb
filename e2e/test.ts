import { type BrowserContext, test as base, expect } from '@playwright/test';

export { expect };

/** The browser's report of a blocked load or inline code: `Refused to load ...`, `Applying inline style violates ...`. */
export const isCspViolation = (text: string) => /Content Security Policy/i.test(text);

/** The app's report of a prerendered page React could not take over as it was (startApp's onRecoverableError). */
export const isHydrationMismatch = (text: string) => text.startsWith('The prerendered page did not match');

type ConsoleFixture = [({ context }: { context: BrowserContext }, use: (found: string[]) => Promise<void>) => Promise<void>, { auto: true }];

/** An automatic fixture that gathers what a journey's pages log and `matches`, and fails the journey on any. */
function failOnConsole(matches: (text: string) => boolean, what: string): ConsoleFixture {
  return [
    async ({ context }, use) => {
      const found: string[] = [];
      context.on('console', (message) => {
        if (matches(message.text())) found.push(`${message.page()?.url() ?? ''}: ${message.text().split('\n')[0]}`);
      });
      await use(found);
      expect(found, what).toEqual([]);
    },
    { auto: true },
  ];
}

/**
 * Every journey's test: Playwright's, plus two checks on what the journey's pages logged.
 * - Nothing was refused by the Content-Security-Policy. A refused style, script, frame or connection means part of
 *   the page silently does not work (a library's inline style not applied, a provider's form not framed), so the
 *   journey fails on it, with the messages.
 * - No prerendered page failed to hydrate: React then paints the page again, a flash the user sees and the work the
 *   prerender is there to save.
 */
export const test = base.extend<{ cspViolations: string[]; hydrationMismatches: string[] }>({
  cspViolations: failOnConsole(isCspViolation, 'requests or inline code the Content-Security-Policy refused'),
  hydrationMismatches: failOnConsole(isHydrationMismatch, 'prerendered pages React could not take over'),
});
