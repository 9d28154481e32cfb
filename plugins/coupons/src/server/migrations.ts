import type { Migration } from '@portal/core';

/** The coupons plugin's tables. Applied once each, in id order; never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_coupons',
    sql: `
CREATE TABLE coupons (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL,
  product text NOT NULL CHECK (product IN ('Amethyst', 'CareGuard', 'CareAssist')),
  membership_type text NOT NULL CHECK (membership_type IN ('Monthly Membership', 'Year Membership', 'Lifetime Membership')),
  discount_type text NOT NULL CHECK (discount_type IN ('Lifetime', 'Months')),
  start_date date NOT NULL,
  end_date date,
  status text NOT NULL CHECK (status IN ('Active', 'Inactive')),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (end_date IS NULL OR end_date >= start_date)
);
CREATE UNIQUE INDEX coupons_code_unique ON coupons (lower(code));
CREATE INDEX coupons_created_idx ON coupons (created_at DESC, id DESC);
`,
  },
];
