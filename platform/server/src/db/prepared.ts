import { createHash } from 'node:crypto';

/**
 * Named (prepared) statements for the hot statements that ask for them (`SqlClient.query(text, params, { prepare:
 * true })`, the bills search). PostgreSQL then parses and analyses such a statement once per connection instead of
 * on every call; the pool's connections run with `plan_cache_mode = force_custom_plan`, so each call is still
 * planned for its own values (a generic plan once walked the wrong index for a member's filtered bills: 33 ms
 * against 2.5; docs/performance-log.md, seventh pass). At a million claims the search's statements took 10–23% less of
 * PostgreSQL's CPU one after another, and the bench's mix under load 8% less per request (twenty-seventh pass).
 *
 * Each prepared statement holds about 70 KB of the server connection's memory until the connection closes, and
 * node-postgres cannot forget one, so a process names at most `max` distinct texts: a text is named the second time
 * it is seen, while fewer than `max` are named; every other text runs unnamed, as before. A caller varying a
 * search's filters cannot make the server hold more than `max` statements per connection (about 4.5 MB each).
 */
export const PREPARED_MAX = 64;
/** Texts seen once and not yet named, remembered at most this many (then forgotten all at once). */
const SEEN_MAX = 1024;

/**
 * SQLSTATEs of a named statement the server's session does not hold as node-postgres expects: invalid_sql_statement_name
 * (it is not there: a `DEALLOCATE`, or a pooler in transaction mode that does not keep prepared statements handed the
 * query to another server connection) and duplicate_prepared_statement (it is there already, under such a pooler).
 */
const PREPARED_LOST = new Set(['26000', '42P05']);

export class PreparedNames {
  readonly #named = new Map<string, string>();
  readonly #seen = new Set<string>();
  #stopped = false;

  constructor(readonly max = PREPARED_MAX) {}

  /** The statement name for text, or undefined: run it unnamed. */
  nameFor(text: string): string | undefined {
    if (this.#stopped) return undefined;
    const named = this.#named.get(text);
    if (named !== undefined || this.#named.size >= this.max) return named;
    if (!this.#seen.has(text)) {
      if (this.#seen.size >= SEEN_MAX) this.#seen.clear();
      this.#seen.add(text);
      return undefined;
    }
    this.#seen.delete(text);
    // PostgreSQL keeps 63 bytes of a name; 40 hex digits of SHA-1 name a text without a practical chance of two
    // texts sharing one (node-postgres refuses a name reused for another text).
    const name = `portal_${createHash('sha1').update(text).digest('hex')}`;
    this.#named.set(text, name);
    return name;
  }

  /**
   * Whether err says the connection lost a named statement; if so, nothing is named from now on (the caller runs
   * the statement again unnamed) and Node's process warning says why, once.
   */
  lost(err: unknown): boolean {
    if (!PREPARED_LOST.has(String((err as { code?: unknown } | null)?.code))) return false;
    if (!this.#stopped) {
      this.#stopped = true;
      process.emitWarning(`the database did not keep a prepared statement (${(err as Error).message}): every statement now runs unnamed`, {
        code: 'PORTAL_PREPARED_OFF',
      });
    }
    return true;
  }

  /** How many texts are named. */
  get size(): number {
    return this.#named.size;
  }
}

/** The session setting that keeps a prepared statement planned for each call's values. */
export const CUSTOM_PLANS = 'plan_cache_mode=force_custom_plan';
