import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExpiryWatch } from './expiry-watch';
import { shouldRefresh } from './refresh-policy';

describe('expiry watch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function watchWith(expiresAtMs: number | null, atWork: () => boolean = () => false) {
    const warn = vi.fn();
    const signOut = vi.fn();
    // A refresh gives a new 15-minute token, as the kernel's does.
    const refresh = vi.fn(() => {
      expiresAtMs = Date.now() + 15 * 60_000;
    });
    const watch = new ExpiryWatch({
      remainingSeconds: () => (expiresAtMs === null ? null : (expiresAtMs - Date.now()) / 1000),
      warn,
      signOut,
      working: atWork,
      refresh,
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    });
    return { watch, warn, signOut, refresh };
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

  it('refreshes the session of a user still at work in the tab instead of warning them and signing them out', () => {
    const { watch, warn, signOut, refresh } = watchWith(Date.now() + 125_000, () => true);
    watch.start();
    vi.advanceTimersByTime(6_000); // the check at 5 s sees 120 s left
    expect(refresh).toHaveBeenCalledTimes(1);
    // Typing on for an hour: refreshed as each token nears its end, never warned nor signed out.
    vi.advanceTimersByTime(60 * 60_000);
    expect(refresh.mock.calls.length).toBeGreaterThanOrEqual(4);
    expect(warn).not.toHaveBeenCalled();
    expect(signOut).not.toHaveBeenCalled();
    watch.stop();
  });

  it('warns and then signs out a user who stopped giving input, even after refreshing them while at work', () => {
    let atWork = true;
    const { watch, warn, signOut, refresh } = watchWith(Date.now() + 125_000, () => atWork);
    watch.start();
    vi.advanceTimersByTime(6_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    atWork = false; // gone from the tab
    vi.advanceTimersByTime(13 * 60_000 + 5_000); // the new token nears its end
    expect(warn).toHaveBeenCalled();
    expect(signOut).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2 * 60_000 + 1_000);
    expect(signOut).toHaveBeenCalled();
    expect(refresh).toHaveBeenCalledTimes(1);
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
