import type { Migration } from '@portal/core';

/** The quote-rules plugin's tables. Applied once each, in id order; never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_quote_rules',
    sql: `
CREATE TABLE quote_companies (
  id text PRIMARY KEY,
  name text NOT NULL,
  sort integer NOT NULL,
  -- The company's rule set, in the wire shape (spec 02 section 3 Company rules).
  rules jsonb NOT NULL
);
CREATE TABLE quote_quotes (
  id serial PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  case_data jsonb NOT NULL,
  quote_data jsonb NOT NULL,
  company_ids text[] NOT NULL,
  -- The engine's outcome at save time, so a saved quote shows the checks it was saved with.
  outcome jsonb NOT NULL,
  saved_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX quote_quotes_user ON quote_quotes (user_id, saved_at DESC);
`,
  },
  {
    // A Version on a company's rule set and on a saved quote: a save made from an old read of either is refused (409),
    // not written over another person's save. Existing rows start at 1.
    id: '0002_quote_versions',
    sql: `
ALTER TABLE quote_companies ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE quote_quotes ADD COLUMN version integer NOT NULL DEFAULT 1;
`,
  },
  {
    // The rule Version of each company a saved quote's outcome was checked against ({"LC01": 3}), so reading it can say
    // which companies' rules changed since. Quotes saved before this have none (NULL).
    id: '0003_quote_rule_versions',
    sql: `
ALTER TABLE quote_quotes ADD COLUMN rule_versions jsonb;
`,
  },
];
