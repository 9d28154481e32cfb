import { test as base, expect } from '@playwright/test';

export { expect };

/** The browser's report of a blocked load or inline code: `Refused to load ...`, `Applying inline style violates ...`. */
export const isCspViolation = (text: string) => /Content Security Policy/i.test(text);

/**
 * Every journey's test: Playwright's, plus a check that nothing the journey's pages did was refused by the
 * Content-Security-Policy. A refused style, script, frame or connection means part of the page silently does not work
 * (a library's inline style not applied, a provider's form not framed), so the journey fails on it, with the messages.
 */
export const test = base.extend<{ cspViolations: string[] }>({
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
});
