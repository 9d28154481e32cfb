import type { Migration } from '@portal/core';

export const migrations: Migration[] = [
  {
    id: '0001_trends_low_balance',
    sql: `
-- The low-balance e-mail's state per member: whether the last balance seen was under the threshold, so the e-mail
-- goes out once per crossing (spec 01 section 7, POST email/lowbalance), not on every read.
CREATE TABLE trends_low_balance (
  member_id integer PRIMARY KEY REFERENCES members (member_id),
  below boolean NOT NULL,
  balance_cents bigint NOT NULL,
  account_type text NOT NULL,
  notified_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
];
