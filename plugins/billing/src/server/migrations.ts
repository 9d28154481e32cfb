import type { Migration } from '@portal/core';

/** The billing plugin's tables. Card numbers are never stored: only the gateway's profile ids and the last four digits. */
export const migrations: Migration[] = [
  {
    id: '0001_billing',
    sql: `
CREATE TABLE billing_customers (
  member_id integer PRIMARY KEY,
  customer_profile_id integer NOT NULL UNIQUE,
  subscription_id integer,
  subscription_type integer CHECK (subscription_type IN (0, 1, 12)),
  subscription_status text CHECK (subscription_status IN ('active', 'suspended', 'canceled', 'lifetime')),
  subscription_profile_id integer,
  subscriptions_started integer NOT NULL DEFAULT 0,
  coupon_code text,
  is_deactivated boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE billing_cards (
  payment_profile_id integer PRIMARY KEY,
  member_id integer NOT NULL,
  last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
  card_type text NOT NULL,
  expiration text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billing_cards_member_idx ON billing_cards (member_id);
CREATE TABLE billing_transactions (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id integer NOT NULL,
  gateway_trans_id integer UNIQUE,
  kind text NOT NULL CHECK (kind IN ('subscription', 'charge', 'authorize', 'refund', 'void', 'prepull')),
  status text NOT NULL CHECK (status IN ('Charged', 'Declined', 'Authorized', 'Refunded', 'Voided', 'Pending')),
  amount_cents integer NOT NULL CHECK (amount_cents >= 0),
  description text,
  payment_profile_id integer,
  ref_transaction_id integer REFERENCES billing_transactions(id),
  claim_id integer,
  pa_number text,
  message text NOT NULL,
  idempotency_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billing_transactions_member_idx ON billing_transactions (member_id, created_at DESC);
CREATE TABLE billing_webhook_events (
  notification_id text PRIMARY KEY,
  event_type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    // A client's idempotency key belongs to one member and one kind of call, with the request it was first sent with:
    // another member's request with the same key is a request of its own, and the same key with another amount is
    // refused. A capture keeps its own key; a subscription start holds a lease while it talks to the gateway.
    id: '0002_billing_keys',
    sql: `
ALTER TABLE billing_transactions DROP CONSTRAINT billing_transactions_idempotency_key_key;
CREATE UNIQUE INDEX billing_transactions_key_idx ON billing_transactions (member_id, kind, idempotency_key) WHERE idempotency_key IS NOT NULL;
ALTER TABLE billing_transactions ADD COLUMN request_hash text;
ALTER TABLE billing_transactions ADD COLUMN capture_key text;
ALTER TABLE billing_transactions ADD COLUMN capture_hash text;
CREATE UNIQUE INDEX billing_transactions_capture_key_idx ON billing_transactions (member_id, capture_key) WHERE capture_key IS NOT NULL;
ALTER TABLE billing_customers ADD COLUMN start_lease uuid, ADD COLUMN start_lease_until timestamptz;
`,
  },
  {
    // When support last asked the gateway to decide a held charge: while that call is out, the gateway's webhook of the
    // same decision leaves the row to it (the call records and audits the decision as support's).
    id: '0003_billing_review',
    sql: `
ALTER TABLE billing_transactions ADD COLUMN review_started_at timestamptz;
-- When an authorization was captured: a key-less capture repeating it within the duplicate window is refused.
ALTER TABLE billing_transactions ADD COLUMN captured_at timestamptz;
-- The gateway transactions a charge was before support charged it again (a declined attempt): the charge's row now
-- names the new one, and neither the transaction sync nor a webhook may record an old attempt as a charge of its own.
CREATE TABLE billing_superseded_attempts (
  gateway_trans_id integer PRIMARY KEY,
  transaction_id integer NOT NULL REFERENCES billing_transactions(id)
);
`,
  },
  {
    // Columns nothing writes or reads any more: the count of memberships started (a start is now decided by the start
    // lease and the member's transactions) and a capture's time (every capture takes an idempotency key instead of the
    // duplicate window it served).
    id: '0004_billing_unused_columns',
    sql: `
ALTER TABLE billing_customers DROP COLUMN subscriptions_started;
ALTER TABLE billing_transactions DROP COLUMN captured_at;
`,
  },
  {
    // Support's reads of every member's charges (src/server/support-queries.ts), which read the whole table without
    // these: the work queue's count of held, declined and authorized charges and the grid filtered to one of those
    // (its default, Declined, newest first) read the few open charges, in date order; the grid's and the export's date
    // order (either way) and the export's keyset batches read the newest (or oldest) rows only; a refund or void looks
    // for an earlier one of the same charge by ref_transaction_id.
    id: '0005_billing_support_indexes',
    sql: `
CREATE INDEX billing_transactions_open_idx ON billing_transactions (status, created_at DESC, id DESC) WHERE status IN ('Pending', 'Declined', 'Authorized');
CREATE INDEX billing_transactions_created_idx ON billing_transactions (created_at DESC, id DESC);
CREATE INDEX billing_transactions_ref_idx ON billing_transactions (ref_transaction_id) WHERE ref_transaction_id IS NOT NULL;
`,
  },
  {
    // Support's grid and spreadsheet sorted by Amount or by Status sorted every charge the filter finds for each page
    // and batch (231-294 ms a page at 200,000 charges on PGlite): these give both orders, so a page reads its own rows.
    // Built without blocking writes to a table that already holds charges (CONCURRENTLY, outside a transaction).
    id: '0006_billing_sort_indexes',
    transaction: false,
    statements: [
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS billing_transactions_amount_idx ON billing_transactions (amount_cents, id)',
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS billing_transactions_status_idx ON billing_transactions (status, id)',
    ],
  },
  {
    // A membership canceled because the member terminated (not by a cancel of the membership itself): a reactivation
    // while the period paid for lasts gives it back (restoreAfterReactivation).
    id: '0007_billing_ended_by_termination',
    sql: 'ALTER TABLE billing_customers ADD COLUMN ended_by_termination boolean NOT NULL DEFAULT false',
  },
  {
    // The coupons plugin asks which codes members' memberships were given with (a coupon's view counts them, a delete
    // of a coupon in use is refused: coupon-usage.ts), ignoring case: this reads the few members with a coupon instead
    // of every member. Built without blocking writes to a table that already holds members (CONCURRENTLY).
    id: '0008_billing_coupon_code_index',
    transaction: false,
    statements: [
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS billing_customers_coupon_code_idx ON billing_customers (lower(coupon_code)) WHERE coupon_code IS NOT NULL',
    ],
  },
  {
    // A void or refund asked of the gateway through us is that call's to record for a minute: the gateway's webhook of
    // it (void.created, refund.created) meanwhile leaves it alone, so it is audited as the actor who asked (REVERSAL_FREE).
    id: '0009_billing_reversal_started_at',
    sql: 'ALTER TABLE billing_transactions ADD COLUMN reversal_started_at timestamptz',
  },
  {
    // Support's text search looked for each word in every charge's text folded afresh (foldSql over the concatenated
    // columns, 1.5-10 us a charge): a search over every status took 2 s at 200,000 charges on PGlite when half the
    // members' names have an accent. The charge's own text (id, gateway id, PA number, description, status), folded once
    // when the row is written, is kept here; the member's part is looked up in members (support-queries.ts). The
    // expression is foldSql's of CHARGE_TEXT when this was written, frozen: `search-text.test.ts` fails if foldSql
    // or CHARGE_TEXT changes, and a change then needs a migration that redefines the column. Adding it rewrites the
    // table (about 3 s at 200,000 charges on PGlite).
    id: '0010_billing_search_text',
    sql: `ALTER TABLE billing_transactions ADD COLUMN search_text text NOT NULL GENERATED ALWAYS AS (
  CASE WHEN octet_length((id::text || ' ' || coalesce(gateway_trans_id::text, '') || ' ' || coalesce(pa_number, '') || ' ' || coalesce(description, '') || ' ' || status)) = length((id::text || ' ' || coalesce(gateway_trans_id::text, '') || ' ' || coalesce(pa_number, '') || ' ' || coalesce(description, '') || ' ' || status)) THEN lower((id::text || ' ' || coalesce(gateway_trans_id::text, '') || ' ' || coalesce(pa_number, '') || ' ' || coalesce(description, '') || ' ' || status)) ELSE replace(replace(replace(translate(lower(regexp_replace(normalize((id::text || ' ' || coalesce(gateway_trans_id::text, '') || ' ' || coalesce(pa_number, '') || ' ' || coalesce(description, '') || ' ' || status), NFD), '[\\u0300-\\u036f]', '', 'g')), 'łŁøØđĐħĦıðÐ', 'llooddhhidd'), 'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe') END
) STORED`,
  },
  {
    // Support's text search looked through every charge's stored text for each word (0.2-0.35 us a charge: about 200 ms
    // at a million charges on PostgreSQL with its parallel workers, and more on PGlite): a trigram index (pg_trgm, kernel
    // migration 0011) reads the charges whose text holds a word of three letters or more. Built without blocking writes
    // to a table that already holds charges (CONCURRENTLY; about 10 s at a million charges on PostgreSQL).
    id: '0011_billing_search_trgm_index',
    transaction: false,
    statements: ['CREATE INDEX CONCURRENTLY IF NOT EXISTS billing_transactions_search_trgm_idx ON billing_transactions USING gin (search_text gin_trgm_ops)'],
  },
];
