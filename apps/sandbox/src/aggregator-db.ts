import type { PGlite } from '@electric-sql/pglite';

/** The bank aggregator's own tables in the sandbox database, applied once each (recorded in sandbox_migrations). */
const AGGREGATOR_MIGRATIONS: { id: string; sql: string }[] = [
  {
    id: 'aggregator_0001',
    sql: `
CREATE TABLE agg_users (
  id serial PRIMARY KEY,
  login_name text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- One provider account (a link to an institution). The credentials themselves are checked and never stored:
-- only which test user signed in, so refreshes and multi-factor steps know what to do.
CREATE TABLE agg_links (
  id serial PRIMARY KEY,
  user_id int NOT NULL REFERENCES agg_users(id),
  institution_id int NOT NULL,
  test_user text NOT NULL,
  status text NOT NULL CHECK (status IN ('MFA', 'SUCCESS', 'FAILED', 'STALE')),
  mfa_step int NOT NULL DEFAULT 0,
  stale_fixed boolean NOT NULL DEFAULT false,
  message text,
  removed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agg_links_user_idx ON agg_links (user_id);
CREATE TABLE agg_accounts (
  id serial PRIMARY KEY,
  link_id int NOT NULL REFERENCES agg_links(id),
  name text NOT NULL,
  account_type text NOT NULL,
  number_last4 text NOT NULL,
  balance_cents bigint NOT NULL,
  refresh_count int NOT NULL DEFAULT 0,
  refreshed_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE agg_transactions (
  id serial PRIMARY KEY,
  account_id int NOT NULL REFERENCES agg_accounts(id),
  posted_date date NOT NULL,
  description text NOT NULL,
  amount_cents bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agg_transactions_account_idx ON agg_transactions (account_id, posted_date DESC, id DESC);
CREATE TABLE agg_link_tokens (
  token text PRIMARY KEY,
  rsession text NOT NULL,
  user_id int NOT NULL REFERENCES agg_users(id),
  parent_origin text NOT NULL,
  expires_at timestamptz NOT NULL
);
`,
  },
];

export async function migrateAggregator(db: PGlite): Promise<void> {
  await db.exec('CREATE TABLE IF NOT EXISTS sandbox_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const done = new Set((await db.query<{ id: string }>('SELECT id FROM sandbox_migrations')).rows.map((r) => r.id));
  for (const m of AGGREGATOR_MIGRATIONS) {
    if (done.has(m.id)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.query('INSERT INTO sandbox_migrations (id) VALUES ($1)', [m.id]);
    });
  }
}
