import type { Migration } from '@portal/core';
import type { SqlClient } from './database';

export interface MigrationSet {
  /** 'kernel' or a plugin id. */
  owner: string;
  migrations: readonly Migration[];
}

const LOCK_KEY = 727_272; // advisory lock: one migrator at a time across processes

/**
 * Applies pending migrations, each in its own transaction together with its bookkeeping row,
 * so a failure leaves the database exactly as it was before that migration.
 */
export async function migrate(sql: SqlClient, sets: readonly MigrationSet[], log: (msg: string) => void = () => {}): Promise<string[]> {
  await sql.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    owner text NOT NULL, id text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (owner, id))`);
  const applied: string[] = [];
  const done = new Set((await sql.query<{ owner: string; id: string }>('SELECT owner, id FROM schema_migrations')).map((r) => `${r.owner}/${r.id}`));
  for (const set of sets) {
    const ordered = [...set.migrations].sort((a, b) => a.id.localeCompare(b.id));
    for (const m of ordered) {
      const key = `${set.owner}/${m.id}`;
      if (done.has(key)) continue;
      try {
        const ran = await sql.transaction(async (tx) => {
          // The transaction-scoped lock serializes concurrent migrators; re-check under it.
          await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
          const again = await tx.query('SELECT 1 FROM schema_migrations WHERE owner = $1 AND id = $2', [set.owner, m.id]);
          if (again.length > 0) return false;
          await tx.exec(m.sql);
          await tx.query('INSERT INTO schema_migrations (owner, id) VALUES ($1, $2)', [set.owner, m.id]);
          return true;
        });
        if (ran) {
          log(`applied migration ${key}`);
          applied.push(key);
        }
      } catch (e) {
        throw new Error(`Migration ${key} failed and was rolled back: ${(e as Error).message}`);
      }
    }
  }
  return applied;
}
