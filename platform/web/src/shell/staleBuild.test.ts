import { describe, expect, it } from 'vitest';
import { claimStaleReload, failsAsPage, isStaleBuildError, STALE_RELOAD_WINDOW_MS } from './staleBuild';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
};

describe('a page whose code is gone after a new deploy', () => {
  it("recognises each browser's failed dynamic import and a missing chunk style sheet, and nothing else", () => {
    expect(isStaleBuildError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/A-1.js'))).toBe(true);
    expect(isStaleBuildError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isStaleBuildError(new TypeError('error loading dynamically imported module: http://x/assets/A-1.js'))).toBe(true);
    expect(isStaleBuildError(new Error('Unable to preload CSS for /assets/A-1.css'))).toBe(true);
    expect(isStaleBuildError(new TypeError("Cannot read properties of undefined (reading 'join')"))).toBe(false);
    expect(isStaleBuildError({ status: 404 })).toBe(false);
    expect(isStaleBuildError(undefined)).toBe(false);
  });

  it('reloads once, not again within the window, and again after it', () => {
    const storage = memory();
    expect(claimStaleReload(storage, 1_000_000)).toBe(true);
    expect(claimStaleReload(storage, 1_000_000 + STALE_RELOAD_WINDOW_MS - 1)).toBe(false);
    expect(claimStaleReload(storage, 1_000_000 + STALE_RELOAD_WINDOW_MS)).toBe(true);
  });

  it('does not reload when the storage cannot be used (so it cannot loop)', () => {
    const broken = {
      getItem: () => null,
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(claimStaleReload(broken)).toBe(false);
  });
});

describe("a route's code that cannot be loaded", () => {
  it("becomes a page that throws the failure, so the route's error boundary shows it", async () => {
    const failure = new TypeError('Failed to fetch dynamically imported module: http://x/assets/A-1.js');
    const route = await failsAsPage(() => Promise.reject(failure))();
    expect(Object.keys(route)).toEqual(['Component']);
    const Component = (route as { Component: () => unknown }).Component;
    expect(() => Component()).toThrow(failure);
  });

  it('leaves a route whose code loads as it is', async () => {
    const Page = () => null;
    await expect(failsAsPage(async () => ({ Component: Page }))()).resolves.toEqual({ Component: Page });
  });
});
