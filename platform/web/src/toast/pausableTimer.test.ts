import { describe, expect, it } from 'vitest';
import { PausableTimer, type TimerClock } from './pausableTimer';

function fakeClock() {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const clock: TimerClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (h) => {
      timers = timers.filter((t) => t.id !== h);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((x) => x.at <= now)) {
      timers = timers.filter((x) => x !== t);
      t.fn();
    }
  };
  return { clock, advance };
}

describe("a toast's pausable timeout", () => {
  it('ends after its time when nobody holds it', () => {
    const { clock, advance } = fakeClock();
    let ended = 0;
    new PausableTimer(20_000, () => ended++, clock).start();
    advance(19_999);
    expect(ended).toBe(0);
    advance(1);
    expect(ended).toBe(1);
  });

  it('stands still while pointed at or focused, then goes on with the time that was left', () => {
    const { clock, advance } = fakeClock();
    let ended = 0;
    const timer = new PausableTimer(20_000, () => ended++, clock);
    timer.start();
    advance(15_000);
    timer.hold('pointer');
    timer.hold('focus');
    expect(timer.paused).toBe(true);
    advance(60_000);
    expect(ended).toBe(0);
    timer.release('pointer');
    // Still focused: the time still stands.
    advance(60_000);
    expect(ended).toBe(0);
    timer.release('focus');
    advance(4_999);
    expect(ended).toBe(0);
    advance(1);
    expect(ended).toBe(1);
  });

  it('does not end after it was stopped (the toast closed)', () => {
    const { clock, advance } = fakeClock();
    let ended = 0;
    const timer = new PausableTimer(1_000, () => ended++, clock);
    timer.start();
    timer.stop();
    advance(5_000);
    expect(ended).toBe(0);
  });

  it('starts its time over when the toast is said again, still standing while held', () => {
    const { clock, advance } = fakeClock();
    let ended = 0;
    const timer = new PausableTimer(2000, () => ended++, clock);
    timer.start();
    advance(1500);
    timer.restart(2000);
    advance(1999);
    expect(ended).toBe(0);
    timer.hold('pointer');
    timer.restart(2000);
    advance(5000);
    expect(ended).toBe(0);
    timer.release('pointer');
    advance(1999);
    expect(ended).toBe(0);
    advance(1);
    expect(ended).toBe(1);
  });
});
