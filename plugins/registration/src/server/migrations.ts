import type { Migration } from '@portal/core';

/** The registration plugin's tables. Applied once each, in id order; never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_registration_answers',
    sql: `
CREATE TABLE registration_answers (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  question text NOT NULL CHECK (question IN ('Marketing', 'Broker', 'Adjuster', 'Attorney')),
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
];
