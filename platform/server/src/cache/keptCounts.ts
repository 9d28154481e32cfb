import type { SqlClient } from '../db/database';

/** A page of a search and the number of rows the whole search finds. */
export interface CountedPage<R> {
  rows: R[];
  total: number;
}

export interface KeptCountsOptions {
  /** Totals of at least this many rows are kept; smaller ones are taken fresh with every page. */
  min: number;
  /** How long a kept total is used, from when its count was taken. */
  ttlMs: number;
  /** Totals kept at most; past it the stale ones go first, then every one. */
  maxKeys: number;
}

/** 5,000 rows, 30 s, 500 searches: a broad staff search pages without counting again, a member's own list is exact. */
export const KEPT_COUNTS_DEFAULTS: KeptCountsOptions = { min: 5_000, ttlMs: 30_000, maxKeys: 500 };

/** The key of a search's total: its count statement and the values it runs with. */
export const countKey = (text: string, params: readonly unknown[]) => `${text}\u0000${JSON.stringify(params)}`;

/**
 * The totals of paged searches. Counting is the costly half of a broad staff search (hundreds of thousands of rows: a
 * count reads them all, the page only its own). A total of at least `min` rows is kept for `ttlMs` per distinct search
 * (its `countKey`), so paging through a broad result does not count it again; smaller totals (a member's own list) are
 * always exact and fresh. While a search's total is being taken, the same search arriving meanwhile waits for it
 * rather than counting too: when a kept total runs out, a room of staff paging the same result would otherwise count
 * it once each at the same moment, and every other search would queue behind them. A failed count is not kept, and a
 * search that waited for it counts itself. In one process: each API process keeps its own.
 */
export class KeptCounts {
  readonly #kept = new Map<string, { n: number; at: number }>();
  readonly #running = new Map<string, Promise<number | null>>();

  constructor(
    readonly options: KeptCountsOptions = KEPT_COUNTS_DEFAULTS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * One page of the search `key` and its total: the kept total with `rows()` (the page alone) when there is one, else
   * `rowsWithTotal()` (the page and its total, best in one round trip).
   */
  async page<R>(key: string, reads: { rows: () => Promise<R[]>; rowsWithTotal: () => Promise<CountedPage<R>> }): Promise<CountedPage<R>> {
    const kept = this.#kept.get(key);
    if (kept && this.now() - kept.at < this.options.ttlMs) return { rows: await reads.rows(), total: kept.n };
    const running = this.#running.get(key);
    if (running) {
      const [rows, total] = await Promise.all([reads.rows(), running]);
      if (total !== null) return { rows, total };
    }
    const at = this.now();
    const counted = reads.rowsWithTotal();
    const settled = counted.then(
      (r) => r.total,
      () => null,
    );
    this.#running.set(key, settled);
    try {
      const result = await counted;
      this.#remember(key, result.total, at);
      return result;
    } finally {
      if (this.#running.get(key) === settled) this.#running.delete(key);
    }
  }

  #remember(key: string, n: number, at: number): void {
    this.#kept.delete(key);
    if (n < this.options.min) return;
    if (this.#kept.size >= this.options.maxKeys) {
      const now = this.now();
      for (const [k, v] of this.#kept) if (now - v.at >= this.options.ttlMs || this.#kept.size >= this.options.maxKeys) this.#kept.delete(k);
    }
    this.#kept.set(key, { n, at });
  }
}

const perDatabase = new WeakMap<SqlClient, Map<string, KeptCounts>>();

/**
 * The kept totals of one kind of search (`name`) on one database: every request of this process reading that database
 * shares them, whichever server object answers it.
 */
export function keptCountsFor(sql: SqlClient, name: string, options: KeptCountsOptions = KEPT_COUNTS_DEFAULTS): KeptCounts {
  let byName = perDatabase.get(sql);
  if (!byName) {
    byName = new Map();
    perDatabase.set(sql, byName);
  }
  let counts = byName.get(name);
  if (!counts) {
    counts = new KeptCounts(options);
    byName.set(name, counts);
  }
  return counts;
}
