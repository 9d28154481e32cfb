import type { SqlClient } from '@portal/server';
import { deferred } from './deferred';

/**
 * Races between transactions made deterministic on PostgreSQL with locks a test holds (PGlite is one connection: a
 * transaction runs alone, so nothing can wait there; such tests skip without TEST_DATABASE_URL). A test holds a
 * transaction open (`holding`), starts what should wait for it, checks through pg_stat_activity that it does wait
 * (`waiting`, `until`), then lets the held transaction end and reads what the other one answered.
 */
export interface LockRaces {
  /** Whether a statement of this database matching `like` (a LIKE pattern of its text) is waiting for a lock. */
  waiting(like: string): Promise<boolean>;
  /**
   * Polls until `seen` holds (true), or `settled` does first (false: what should have waited went through), at most
   * `timeoutMs` (10 s by default).
   */
  until(seen: () => Promise<boolean>, settled: () => boolean, timeoutMs?: number): Promise<boolean>;
  /**
   * A transaction that runs `first` (a statement and its parameters, or a function of the transaction), then stays open
   * until `release` is called; `ready` resolves once `first` ran, `done` once the transaction ended (committed, or
   * rolled back when `first` or `release(error)` says so: `release(new Error(...))` ends it with that error).
   */
  holding(first: string | ((tx: SqlClient) => Promise<unknown>), params?: unknown[]): Held;
  /**
   * The usual race: while a transaction that ran `first` is held open, starts `action` and watches for a statement
   * matching `like` to wait for a lock; then ends the held transaction (committed; rolled back with `rollback`) and
   * answers whether it waited and what `action` answered.
   */
  whileHeld<T>(
    first: string | ((tx: SqlClient) => Promise<unknown>),
    params: unknown[],
    action: () => Promise<T>,
    like: string,
    opts?: { rollback?: boolean; timeoutMs?: number },
  ): Promise<{ waited: boolean; answer: T }>;
}

export interface Held {
  ready: Promise<void>;
  release(error?: Error): void;
  done: Promise<void>;
}

/** The race helpers over a test server's database (`sql` is read on each use, so a lazy getter suits). */
export function lockRaces(sql: () => SqlClient): LockRaces {
  const waiting = async (like: string) =>
    (await sql().query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1", [like])).length > 0;
  const until = async (seen: () => Promise<boolean>, settled: () => boolean, timeoutMs = 10_000) => {
    for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
      if (await seen()) return true;
      if (settled()) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  };
  const holding = (first: string | ((tx: SqlClient) => Promise<unknown>), params: unknown[] = []): Held => {
    const open = deferred<Error | undefined>();
    const ran = deferred();
    const done = sql().transaction(async (tx) => {
      if (typeof first === 'string') await tx.query(first, params);
      else await first(tx);
      ran.release();
      const error = await open.promise;
      if (error) throw error;
    });
    return { ready: ran.promise, release: (error?: Error) => open.release(error), done };
  };
  return {
    waiting,
    until,
    holding,
    async whileHeld(first, params, action, like, { rollback = false, timeoutMs } = {}) {
      const held = holding(first, params);
      await held.ready;
      let settled = false;
      const acting = action().finally(() => {
        settled = true;
      });
      const ended = new Error('the held transaction was rolled back');
      let waited: boolean;
      try {
        waited = await until(
          () => waiting(like),
          () => settled,
          timeoutMs,
        );
      } finally {
        held.release(rollback ? ended : undefined);
        await held.done.catch((e: unknown) => {
          if (e !== ended) throw e;
        });
      }
      return { waited, answer: await acting };
    },
  };
}
