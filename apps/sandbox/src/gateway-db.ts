import type { PGlite } from '@electric-sql/pglite';

/** The card gateway's own tables in the sandbox database, applied once each (recorded in sandbox_migrations). */
const GATEWAY_MIGRATIONS: { id: string; sql: string }[] = [
  {
    id: 'gateway_0001',
    sql: `
CREATE TABLE gw_customers (
  id serial PRIMARY KEY,
  merchant_customer_id text NOT NULL UNIQUE,
  email text,
  description text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE gw_payment_profiles (
  id serial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES gw_customers(id),
  card_number text NOT NULL,
  card_type text NOT NULL,
  exp_month int NOT NULL,
  exp_year int NOT NULL,
  zip text,
  is_default boolean NOT NULL DEFAULT false,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE gw_form_tokens (
  token text PRIMARY KEY,
  customer_id int NOT NULL REFERENCES gw_customers(id),
  payment_profile_id int REFERENCES gw_payment_profiles(id),
  parent_origin text NOT NULL,
  billing_address text NOT NULL,
  manage text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE TABLE gw_subscriptions (
  id serial PRIMARY KEY,
  customer_id int NOT NULL REFERENCES gw_customers(id),
  payment_profile_id int NOT NULL REFERENCES gw_payment_profiles(id),
  name text NOT NULL,
  interval_months int NOT NULL,
  amount_cents int NOT NULL,
  status text NOT NULL,
  next_charge_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE gw_batches (
  id serial PRIMARY KEY,
  settled_at timestamptz NOT NULL DEFAULT now(),
  transaction_count int NOT NULL
);
CREATE TABLE gw_transactions (
  id serial PRIMARY KEY,
  type text NOT NULL,
  status text NOT NULL,
  response_code text NOT NULL,
  message text NOT NULL,
  auth_code text,
  amount_cents int NOT NULL,
  customer_id int REFERENCES gw_customers(id),
  payment_profile_id int REFERENCES gw_payment_profiles(id),
  ref_trans_id int REFERENCES gw_transactions(id),
  subscription_id int REFERENCES gw_subscriptions(id),
  description text,
  batch_id int REFERENCES gw_batches(id),
  idempotency_key text UNIQUE,
  request_hash text,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz
);
CREATE TABLE gw_webhooks (
  id serial PRIMARY KEY,
  url text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE gw_webhook_deliveries (
  id serial PRIMARY KEY,
  webhook_id int NOT NULL REFERENCES gw_webhooks(id),
  event_type text NOT NULL,
  body text NOT NULL,
  status int,
  error text,
  attempts int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    // Held for review: the merchant's decision on a transaction the fraud filters held (approve or decline), once.
    id: 'gateway_0002_review',
    sql: 'ALTER TABLE gw_transactions ADD COLUMN review_action text',
  },
  {
    // A subscription's anchor day (1 to 31, UTC): the day of the month it started on, which every renewal keeps, or the
    // month's last day when it is shorter (renewal.ts). Those made before take the day they were created on.
    id: 'gateway_0003_anchor_day',
    sql: `
ALTER TABLE gw_subscriptions ADD COLUMN anchor_day int CHECK (anchor_day BETWEEN 1 AND 31);
UPDATE gw_subscriptions SET anchor_day = extract(day FROM created_at AT TIME ZONE 'UTC')::int;
ALTER TABLE gw_subscriptions ALTER COLUMN anchor_day SET NOT NULL;
`,
  },
  {
    // A subscription that starts later (ARB's paymentSchedule.startDate after today) charges nothing when it is created:
    // the merchant's idempotency key is kept on the subscription, as there is no first transaction to keep it.
    id: 'gateway_0004_start_date',
    sql: 'ALTER TABLE gw_subscriptions ADD COLUMN idempotency_key text UNIQUE',
  },
];

export async function migrateGateway(db: PGlite): Promise<void> {
  await db.exec('CREATE TABLE IF NOT EXISTS sandbox_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const done = new Set((await db.query<{ id: string }>('SELECT id FROM sandbox_migrations')).rows.map((r) => r.id));
  for (const m of GATEWAY_MIGRATIONS) {
    if (done.has(m.id)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.query('INSERT INTO sandbox_migrations (id) VALUES ($1)', [m.id]);
    });
  }
}
