import type { Migration } from '@portal/core';

/**
 * The banking plugin's tables: the aggregator's ids and what we show of them (names, balances, refresh dates).
 * Bank credentials are never stored. Applied once each, in id order; never edit one that has shipped: add the next.
 */
export const migrations: Migration[] = [
  {
    id: '0001_banking',
    sql: `
CREATE TABLE banking_members (
  member_id integer PRIMARY KEY,
  default_account_id integer,
  last_added_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One row per provider account (a link to an institution) at the aggregator.
CREATE TABLE banking_links (
  provider_account_id integer PRIMARY KEY,
  member_id integer NOT NULL,
  provider_id integer NOT NULL,
  provider_name text NOT NULL,
  logo text,
  url text,
  status text NOT NULL CHECK (status IN ('SUCCESS', 'MFA', 'STALE')),
  message text,
  last_refreshed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX banking_links_member_idx ON banking_links (member_id);
-- At most one finished (or stale) link per member and institution: the duplicate-link guard.
CREATE UNIQUE INDEX banking_links_one_per_provider ON banking_links (member_id, provider_id) WHERE status IN ('SUCCESS', 'STALE');
CREATE TABLE banking_accounts (
  account_id integer PRIMARY KEY,
  member_id integer NOT NULL,
  provider_account_id integer NOT NULL REFERENCES banking_links(provider_account_id) ON DELETE CASCADE,
  name text NOT NULL,
  account_type text NOT NULL,
  last4 text NOT NULL,
  balance_cents bigint NOT NULL,
  refreshed_at timestamptz
);
CREATE INDEX banking_accounts_member_idx ON banking_accounts (member_id);
-- The linked accounts' transactions as last read from the aggregator (they feed the ledger's bank view).
CREATE TABLE banking_transactions (
  transaction_id integer PRIMARY KEY,
  member_id integer NOT NULL,
  account_id integer NOT NULL REFERENCES banking_accounts(account_id) ON DELETE CASCADE,
  posted_date date NOT NULL,
  description text NOT NULL,
  amount_cents bigint NOT NULL
);
CREATE INDEX banking_transactions_member_idx ON banking_transactions (member_id, posted_date DESC, transaction_id DESC);
`,
  },
  {
    // The foreign keys' own columns: removing a link deletes its accounts (ON DELETE CASCADE) and each account its
    // transactions; without these indexes every deleted link and account reads the whole table to find them
    // (banking_transactions grows to millions of rows). The member indexes lead with member_id and cannot serve.
    id: '0002_banking_cascade_indexes',
    sql: `
CREATE INDEX banking_transactions_account_idx ON banking_transactions (account_id);
CREATE INDEX banking_accounts_link_idx ON banking_accounts (provider_account_id);
`,
  },
  {
    // How many times a link of the member was removed here (site/remove, terminate, a link the sync found gone), moved
    // in the removal's transaction: a sync that read it before asking the aggregator and finds it moved under the
    // member's lock knows its answer may name a removed link, and asks again rather than write it back (core.ts sync).
    id: '0003_banking_links_removed',
    sql: `
ALTER TABLE banking_members ADD COLUMN links_removed bigint NOT NULL DEFAULT 0;
`,
  },
];
