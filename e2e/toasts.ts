import type { Page } from '@playwright/test';

/**
 * Records the words of every toast the page's documents show from now on, and returns a function that reads them. A
 * toast lasts 2 s (TOAST_TIMEOUT_MS): a retrying `toHaveCount(0)` on the notifications would pass once one had gone,
 * so a journey that checks a failure is said once (in place, no toast) reads what was shown instead.
 */
export async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { toastsSeen: string[] }).toastsSeen = seen;
    // A toast: an item of the notifications region (toast/Toaster.tsx), which carries its kind.
    const isToast = (node: Node) => node instanceof HTMLElement && node.matches('section[aria-live] > [data-kind]');
    new MutationObserver((changes) => {
      for (const change of changes) for (const node of change.addedNodes) if (isToast(node)) seen.push(node.textContent ?? '');
    }).observe(document, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => [...((window as unknown as { toastsSeen?: string[] }).toastsSeen ?? [])]);
}
