import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKGROUND_POLL_IDLE_MS, pollWhileActive, userAwayMs } from './userActivity';

// The page: what the module listens on for the user's input.
const page = new EventTarget();
beforeEach(() => {
  vi.stubGlobal('window', page);
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a background poll while the user is away', () => {
  it('polls while the user gives input, and stops once they have given none for five minutes', () => {
    const interval = pollWhileActive(60_000);
    page.dispatchEvent(new Event('keydown'));
    expect(interval()).toBe(60_000);
    vi.advanceTimersByTime(BACKGROUND_POLL_IDLE_MS - 1000);
    expect(interval()).toBe(60_000);
    vi.advanceTimersByTime(2000);
    expect(interval()).toBe(false);
    // The user is back (a press anywhere in the page): the poll may run again.
    page.dispatchEvent(new Event('pointerdown'));
    expect(userAwayMs()).toBe(0);
    expect(interval()).toBe(60_000);
  });
});
