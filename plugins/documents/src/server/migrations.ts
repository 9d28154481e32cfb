import type { Migration } from '@portal/core';

/** The documents plugin's tables. Applied once each, in id order; never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_member_documents',
    sql: `
-- One row per document a member has: generated from the ledger (the PDF is rendered from the ledger on each
-- download, the same bytes for the same data) or a file in the file store. The id is what the web sends back.
CREATE TABLE member_documents (
  document_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id integer NOT NULL,
  document_type_id smallint NOT NULL,
  -- Generated: the year (YYYY), the month (YYYY-MM) or the day of the event (YYYY-MM-DD) it covers.
  period_key text NOT NULL,
  effective_date date NOT NULL,
  source text NOT NULL DEFAULT 'generated' CHECK (source IN ('generated', 'uploaded')),
  file_key text,
  file_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (member_id, document_type_id, period_key)
);
CREATE INDEX member_documents_member_idx ON member_documents (member_id, document_type_id, effective_date DESC, document_id DESC);
`,
  },
  {
    id: '0002_member_document_plans',
    sql: `
-- What each member's generated documents were last planned from (catalog.ts materialize): the ledger's change mark
-- (ledgerService.changeMark) read before planning, and the month planned in (statements run to last month). A list
-- whose mark and month are still these reads member_documents only, not the member's ledger rows.
CREATE TABLE member_document_plans (
  member_id integer PRIMARY KEY,
  ledger_mark text NOT NULL,
  planned_month text NOT NULL,
  planned_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    id: '0003_member_documents_withdrawn',
    sql: `
-- Depletion letters follow the ledger (catalog.ts materialize): a generated letter the ledger no longer calls for (the
-- expense that emptied the account corrected; a depletion funded again the same day, whose letter is temporary, not
-- permanent) is withdrawn. The row stays, so the ids the audit log names (lists, downloads, 'documents.withdraw') keep
-- naming a document; a withdrawn one is neither listed nor downloaded. Called for again, it is listed again under its
-- id (withdrawn_at cleared, 'documents.reinstate' audited). Uploaded documents are never withdrawn.
ALTER TABLE member_documents ADD COLUMN withdrawn_at timestamptz;
-- Goes up with every plan stored: a list stores what it planned only if no other list stored a plan since it read
-- the revision (two lists planning at once never write an older plan over a newer one).
ALTER TABLE member_document_plans ADD COLUMN revision integer NOT NULL DEFAULT 0;
-- Every member plans again on the next list, so letters kept under the former rule (a letter once listed stayed) are
-- withdrawn where the ledger no longer calls for them.
DELETE FROM member_document_plans;
`,
  },
  {
    id: '0004_member_documents_snapshot',
    sql: `
-- A monthly statement is frozen once issued (freeze.ts): its figures (opening balance, the adjustments to earlier
-- periods, every row with its running balance, closing balance, the day it was issued) are taken once, as JSON, and
-- the PDF is rendered from them ever after; a later change to its period shows on the next statement issued, as an
-- adjustment. NULL: not frozen yet (other kinds of document; statements issued before this column, which are frozen
-- from the ledger as it is at their next listing or download). Nullable with no default: no table rewrite.
ALTER TABLE member_documents ADD COLUMN snapshot jsonb;
`,
  },
  {
    id: '0005_member_documents_furnished',
    sql: `
-- A 1099 is rendered from the ledger on each download (live). The Box 1 figure last furnished (downloaded) is kept, and
-- once a download's figure differs from it the form is marked CORRECTED on that and every later download, as the IRS
-- asks of a changed form furnished again. NULL: never furnished (other kinds of document). No table rewrite.
ALTER TABLE member_documents ADD COLUMN furnished_cents bigint;
ALTER TABLE member_documents ADD COLUMN corrected boolean NOT NULL DEFAULT false;
`,
  },
];
