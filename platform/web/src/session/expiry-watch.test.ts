import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExpiryWatch } from './expiry-watch';
import { shouldRefresh } from './refresh-policy';

describe('expiry watch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function watchWith(expiresAtMs: number | null) {
    const warn = vi.fn();
    const signOut = vi.fn();
    const watch = new ExpiryWatch({
      remainingSeconds: () => (expiresAtMs === null ? null : (expiresAtMs - Date.now()) / 1000),
      warn,
      signOut,
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    });
    return { watch, warn, signOut };
  }

  it('checks every 5 s while more than 2 minutes remain, without warning', () => {
    const { watch, warn, signOut } = watchWith(Date.now() + 10 * 60_000);
    const spy = vi.spyOn(globalThis, 'setTimeout');
    watch.start();
    vi.advanceTimersByTime(60_000);
    expect(warn).not.toHaveBeenCalled();
    expect(signOut).not.toHaveBeenCalled();
    expect(spy.mock.calls.filter((c) => c[1] === 5000).length).toBeGreaterThanOrEqual(11);
    watch.stop();
  });

  it('warns with the minutes left once 2 minutes or less remain, then checks every 30 s', () => {
    const { watch, warn } = watchWith(Date.now() + 125_000);
    watch.start();
    vi.advanceTimersByTime(6_000); // the check at 5 s sees 120 s left
    expect(warn).toHaveBeenLastCalledWith(2);
    const count = warn.mock.calls.length;
    vi.advanceTimersByTime(28_000);
    expect(warn.mock.calls.length).toBe(count);
    vi.advanceTimersByTime(2_000);
    expect(warn.mock.calls.length).toBe(count + 1);
    expect(warn).toHaveBeenLastCalledWith(2); // 90 s left rounds up to 2 minutes
    watch.stop();
  });

  it('signs out when the time runs out', () => {
    const { watch, signOut } = watchWith(Date.now() + 100_000);
    watch.start();
    vi.advanceTimersByTime(101_000);
    expect(signOut).toHaveBeenCalledTimes(1);
    watch.stop();
  });

  it('does nothing while signed out', () => {
    const { watch, warn, signOut } = watchWith(null);
    watch.start();
    vi.advanceTimersByTime(60_000);
    expect(warn).not.toHaveBeenCalled();
    expect(signOut).not.toHaveBeenCalled();
    watch.stop();
  });
});

describe('proactive refresh policy', () => {
  it('refreshes when under 80% of the lifetime remains or the lifetime is under 180 s', () => {
    expect(shouldRefresh(900, 900)).toBe(false);
    expect(shouldRefresh(721, 900)).toBe(false);
    expect(shouldRefresh(719, 900)).toBe(true);
    expect(shouldRefresh(170, 170)).toBe(true);
  });
});
