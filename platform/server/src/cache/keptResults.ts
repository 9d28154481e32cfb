/**
 * Results of costly reads kept for a while, per key: a chart or a total over every member's rows that may be a few
 * minutes old. `get(key, take)` answers the kept result while it is fresh (dated from when its read started, so "up to
 * `ttlMs` old" is a true bound); else the read of the same key already under way (a room of staff loading a page when
 * it runs out reads it once, not once each); else it reads with `take` and keeps the result. A failed read is not kept,
 * and a request that waited for it reads itself. Each caller gets a copy of its own (`copy`), so none can change the
 * kept one. In one process: each API process keeps its own.
 */
export class KeptResults<T> {
  readonly #kept = new Map<string, { value: T; at: number }>();
  readonly #running = new Map<string, Promise<T>>();

  constructor(
    readonly ttlMs: number,
    private readonly copy: (value: T) => T,
    private readonly now: () => number = () => Date.now(),
    /** Keys kept at most; past it the stale ones go first, then the oldest. */
    private readonly maxKeys = 100,
  ) {}

  async get(key: string, take: () => Promise<T>): Promise<T> {
    const hit = this.#kept.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return this.copy(hit.value);
    const running = this.#running.get(key);
    if (running) {
      try {
        return this.copy(await running);
      } catch {
        // The read waited for failed: this request reads itself.
      }
    }
    const at = this.now();
    const taking = take();
    this.#running.set(key, taking);
    try {
      const value = await taking;
      this.#keep(key, value, at);
      return this.copy(value);
    } finally {
      if (this.#running.get(key) === taking) this.#running.delete(key);
    }
  }

  #keep(key: string, value: T, at: number): void {
    this.#kept.delete(key);
    if (this.#kept.size >= this.maxKeys) {
      const now = this.now();
      for (const [k, v] of this.#kept) if (now - v.at >= this.ttlMs) this.#kept.delete(k);
      // Maps iterate in insertion order: the first key is the oldest kept.
      while (this.#kept.size >= this.maxKeys) {
        const oldest = this.#kept.keys().next().value;
        if (oldest === undefined) break;
        this.#kept.delete(oldest);
      }
    }
    this.#kept.set(key, { value, at });
  }
}
