/** What a pausable timer needs of the clock (injected in tests). */
export interface TimerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: TimerClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * A toast's timeout that stops while the user points at the toast or has focus in it (WCAG 2.2.1: a time limit the
 * user can hold), and goes on with the time that was left when they leave it.
 */
export class PausableTimer {
  private handle: unknown = null;
  private remaining: number;
  private startedAt = 0;
  private holds = new Set<string>();

  constructor(
    ms: number,
    private readonly done: () => void,
    private readonly clock: TimerClock = realClock,
  ) {
    this.remaining = ms;
  }

  /** Whether the time is standing still. */
  get paused(): boolean {
    return this.holds.size > 0;
  }

  start(): void {
    if (this.paused || this.handle !== null) return;
    this.startedAt = this.clock.now();
    this.handle = this.clock.setTimeout(
      () => {
        this.handle = null;
        this.done();
      },
      Math.max(0, this.remaining),
    );
  }

  /** Holds the time for one reason ('pointer', 'focus'); it stands until every reason is released. */
  hold(reason: string): void {
    if (this.holds.has(reason)) return;
    this.holds.add(reason);
    if (this.handle === null) return;
    this.clock.clearTimeout(this.handle);
    this.handle = null;
    this.remaining -= this.clock.now() - this.startedAt;
  }

  release(reason: string): void {
    if (!this.holds.delete(reason)) return;
    this.start();
  }

  /** Starts the time over with `ms` (the toast said again); a held timer stays held, with all of `ms` left. */
  restart(ms: number): void {
    this.stop();
    this.remaining = ms;
    this.start();
  }

  stop(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
  }
}
