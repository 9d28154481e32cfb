import { DatabaseBusyError, type SqlClient } from './database';

/**
 * A position in PostgreSQL's write-ahead log as the server writes it ('16/B374D848'), as a number that orders; null
 * for anything else.
 */
export function parseWalPosition(text: string): bigint | null {
  const m = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  return m ? (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`) : null;
}

/**
 * A log position as the API passes it in `x-read-after`: 16 upper-case hexadecimal digits, so the web client orders
 * two positions by comparing their text.
 */
export function formatPosition(position: bigint): string {
  return position.toString(16).toUpperCase().padStart(16, '0');
}

/** A position from an `x-read-after` header; null when it is not 16 hexadecimal digits. */
export function parsePosition(text: string): bigint | null {
  return /^[0-9A-F]{16}$/i.test(text) ? BigInt(`0x${text}`) : null;
}

export interface ReplicaOptions {
  /** A replica further behind the primary than this is not read from (DATABASE_READ_MAX_LAG_MS). */
  maxLagMs: number;
  /** How often the replica's replayed position (and the primary's) is read again, at most; on demand, never polled. */
  recheckMs?: number;
  now?: () => number;
  /** The replica could not be read (down, not a standby any more): its reads go to the primary until the next check. */
  onError?: (err: unknown) => void;
}

/** SQLSTATE serialization_failure: on a standby, a query cancelled by a conflict with the WAL being replayed. */
const RECOVERY_CONFLICT = '40001';

/**
 * The read replica (DATABASE_READ_URL) and the rule for which reads may go to it. A read that must see a caller's
 * own change names the primary's position after that change (the `x-read-after` header, which every change's answer
 * carries); the replica takes it once it has replayed that far, otherwise the primary does: read-your-writes by
 * routing, across processes, with no state in any of them. A read with no position (the caller changed nothing)
 * takes the replica unless it is more than maxLagMs behind. A replica that fails (down, cancelled by recovery) sends
 * the read to the primary; reads are safe to ask twice.
 */
export class ReplicaRouter {
  readonly #primary: SqlClient;
  readonly #replica: SqlClient;
  readonly #maxLagMs: number;
  readonly #recheckMs: number;
  readonly #now: () => number;
  readonly #onError: (err: unknown) => void;
  /** The last position the replica said it had replayed; -1 until read, or when it is not a standby. */
  #replayed = -1n;
  #checkedAt = Number.NEGATIVE_INFINITY;
  /** The primary's position at each full check, oldest first: how far behind the replica is, in time. */
  #samples: { at: number; position: bigint }[] = [];
  #checking: Promise<void> | null = null;
  #downUntil = Number.NEGATIVE_INFINITY;
  /** Said once until it is a standby again: the replica is not one (promoted, or never was). */
  #notStandbySaid = false;

  constructor(primary: SqlClient, replica: SqlClient, opts: ReplicaOptions) {
    this.#primary = primary;
    this.#replica = replica;
    this.#maxLagMs = opts.maxLagMs;
    this.#recheckMs = opts.recheckMs ?? 1000;
    this.#now = opts.now ?? Date.now;
    this.#onError = opts.onError ?? (() => {});
  }

  /** The primary's position now (formatPosition): a read after it sees every change committed before this call. */
  async primaryPosition(): Promise<string> {
    return formatPosition(await this.#primaryPosition());
  }

  async #primaryPosition(): Promise<bigint> {
    const rows = await this.#primary.query<{ position: string }>('SELECT pg_current_wal_insert_lsn()::text AS position');
    const position = parseWalPosition(rows[0]?.position ?? '');
    if (position === null) throw new Error(`the primary named no log position: ${JSON.stringify(rows[0])}`);
    return position;
  }

  /** Where a read that must see every change up to `after` (null: nothing of its own) goes now. */
  async clientFor(after: bigint | null): Promise<SqlClient> {
    const now = this.#now();
    if (now < this.#downUntil) return this.#primary;
    if (now - this.#checkedAt >= this.#recheckMs) await this.#check(true);
    // The caller's change may have been replayed since the last look: one more look, at the replica alone.
    else if (after !== null && after > this.#replayed) await this.#check(false);
    if (this.#now() < this.#downUntil || this.#replayed < 0n) return this.#primary;
    if (after !== null && after > this.#replayed) return this.#primary;
    return this.#lagging() ? this.#primary : this.#replicaWithFallback;
  }

  /** A client that decides on its first statement, so one request's statements (a page and its count) go to one place. */
  routed(after: bigint | null): SqlClient {
    let chosen: Promise<SqlClient> | null = null;
    const pick = () => {
      chosen ??= this.clientFor(after);
      return chosen;
    };
    return {
      query: async (text, params, opts) => (await pick()).query(text, params, opts),
      exec: async (text) => (await pick()).exec(text),
      transaction: async (fn) => (await pick()).transaction(fn),
    };
  }

  /** The replica, handing a read it cannot answer to the primary. */
  readonly #replicaWithFallback: SqlClient = {
    query: (text, params, opts) => this.#orPrimary((c) => c.query(text, params, opts)),
    exec: (text) => this.#orPrimary((c) => c.exec(text)),
    transaction: (fn) => this.#orPrimary((c) => c.transaction(fn)),
  };

  async #orPrimary<T>(run: (c: SqlClient) => Promise<T>): Promise<T> {
    try {
      return await run(this.#replica);
    } catch (e) {
      const conflict = (e as { code?: unknown }).code === RECOVERY_CONFLICT;
      if (!(e instanceof DatabaseBusyError) && !conflict) throw e;
      if (!conflict) this.#down(e);
      return run(this.#primary);
    }
  }

  #down(err: unknown) {
    this.#downUntil = this.#now() + this.#recheckMs;
    this.#checkedAt = Number.NEGATIVE_INFINITY;
    this.#onError(err);
  }

  /** Over maxLagMs behind: the primary had reached a position at least that long ago that the replica has not replayed. */
  #lagging(): boolean {
    const cutoff = this.#now() - this.#maxLagMs;
    for (const s of this.#samples) {
      if (s.at > cutoff) break;
      if (s.position > this.#replayed) return true;
    }
    return false;
  }

  #check(full: boolean): Promise<void> {
    this.#checking ??= this.#read(full).finally(() => {
      this.#checking = null;
    });
    return this.#checking;
  }

  async #read(full: boolean): Promise<void> {
    const at = this.#now();
    const [replayed, primary] = await Promise.allSettled([
      this.#replica.query<{ position: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS position'),
      full ? this.#primaryPosition() : Promise.resolve(null),
    ]);
    if (replayed.status === 'rejected') {
      this.#replayed = -1n;
      this.#down(replayed.reason);
      return;
    }
    this.#checkedAt = at;
    const text = replayed.value[0]?.position ?? null;
    const position = text === null ? null : parseWalPosition(text);
    if (position === null) {
      // Promoted (a failover) or never a standby: its positions no longer follow the primary's.
      if (!this.#notStandbySaid) this.#onError(new Error('the read replica is not a standby (promoted?): reads go to the primary'));
      this.#notStandbySaid = true;
      this.#replayed = -1n;
      return;
    }
    this.#notStandbySaid = false;
    if (position > this.#replayed) this.#replayed = position;
    const sample = primary.status === 'fulfilled' ? primary.value : null;
    if (sample !== null) {
      this.#samples.push({ at, position: sample });
      // Kept: the newest sample at least maxLagMs old (it decides the lag) and the newer ones.
      const cutoff = at - this.#maxLagMs;
      let oldNeeded = 0;
      for (let i = 0; i < this.#samples.length; i++) if ((this.#samples[i]?.at ?? 0) <= cutoff) oldNeeded = i;
      if (oldNeeded > 0) this.#samples.splice(0, oldNeeded);
      if (this.#samples.length > 64) this.#samples.splice(0, this.#samples.length - 64);
    }
  }
}
