import type { Migration } from '@portal/core';

/** The ledger plugin's tables. Applied once each, in id order; never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_ledger',
    sql: `
-- One row per member with a set-aside ledger: the initial balance (set once) and the federal payer's report header.
CREATE TABLE ledger_accounts (
  member_id integer PRIMARY KEY,
  initial_balance_cents bigint,
  balance_set_at timestamptz,
  hicn text,
  date_of_injury date,
  date_of_settlement date,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- The one ledger: the member's own entries (source 'ledger') and card transactions (source 'card') alike.
CREATE TABLE ledger_transactions (
  transaction_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id integer NOT NULL,
  source text NOT NULL CHECK (source IN ('ledger', 'card')),
  status text NOT NULL DEFAULT 'Posted',
  date_created date NOT NULL,
  code text,
  company text,
  description text,
  transaction_type_id smallint NOT NULL CHECK (transaction_type_id IN (1, 2, 3)),
  amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
  report_id integer,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_transactions_member_date_idx ON ledger_transactions (member_id, date_created, transaction_id);
CREATE INDEX ledger_transactions_member_created_idx ON ledger_transactions (member_id, created_at DESC, transaction_id DESC);
CREATE INDEX ledger_transactions_report_idx ON ledger_transactions (report_id) WHERE report_id IS NOT NULL;
-- The audit trail of the ledger: every create, update and delete with the row before and after.
CREATE TABLE ledger_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id integer NOT NULL,
  member_id integer NOT NULL,
  action text NOT NULL CHECK (action IN ('create', 'update', 'delete', 'balance', 'report')),
  before jsonb,
  after jsonb,
  actor_user_id text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_history_member_idx ON ledger_history (member_id, at DESC);
-- Reports sent to the federal payer: one per member and period.
CREATE TABLE ledger_reports (
  report_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id integer NOT NULL,
  period_from date NOT NULL,
  period_to date NOT NULL,
  acknowledgement_id text NOT NULL,
  record_count integer NOT NULL,
  sent_by text,
  sent_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (member_id, period_from, period_to)
);
`,
  },
  {
    id: '0002_ledger_bank',
    sql: `
-- Transactions of linked bank accounts (the banking plugin) enter the ledger as source 'bank', once each (by the
-- aggregator's transaction id), read-only like card rows.
ALTER TABLE ledger_transactions DROP CONSTRAINT IF EXISTS ledger_transactions_source_check;
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_source_check CHECK (source IN ('ledger', 'card', 'bank'));
ALTER TABLE ledger_transactions ADD COLUMN external_ref text;
CREATE UNIQUE INDEX ledger_transactions_external_ref_idx ON ledger_transactions (source, external_ref) WHERE external_ref IS NOT NULL;
`,
  },
  {
    id: '0003_ledger_bank_member',
    sql: `
-- A bank transaction enters each member's ledger once: the aggregator's id is unique within one member's link, not
-- across members (two members linking one joint account), so another member's row with the same id is a row of its own.
DROP INDEX ledger_transactions_external_ref_idx;
CREATE UNIQUE INDEX ledger_transactions_external_ref_idx ON ledger_transactions (member_id, source, external_ref) WHERE external_ref IS NOT NULL;
`,
  },
  {
    id: '0004_ledger_report_claim',
    sql: `
-- A send claims its period ('sending') and marks the rows it reads in one short transaction before the payer is
-- called, and records the payer's answer ('sent') in another: no transaction stays open across the HTTP call, and the
-- marked rows cannot be edited while the payer has them. A claim has no acknowledgement, record count or sent time
-- yet; claimed_at dates it, so a send that crashed can be taken over. Reports sent before this stay 'sent'.
ALTER TABLE ledger_reports ADD COLUMN status text NOT NULL DEFAULT 'sent' CHECK (status IN ('sending', 'sent'));
ALTER TABLE ledger_reports ADD COLUMN claimed_at timestamptz;
ALTER TABLE ledger_reports ALTER COLUMN acknowledgement_id DROP NOT NULL;
ALTER TABLE ledger_reports ALTER COLUMN record_count DROP NOT NULL;
ALTER TABLE ledger_reports ALTER COLUMN sent_at DROP NOT NULL;
ALTER TABLE ledger_reports ADD CONSTRAINT ledger_reports_status_fields_check CHECK (
  (status = 'sent' AND acknowledgement_id IS NOT NULL AND record_count IS NOT NULL AND sent_at IS NOT NULL)
  OR (status = 'sending' AND claimed_at IS NOT NULL)
);
`,
  },
  {
    id: '0005_ledger_create_keys',
    sql: `
-- The idempotency keys of creates (the page makes one per new row): a repeated create with a key the member used
-- answers the row it made and inserts nothing, so a double press on Save moves the money once. Kept apart from the
-- rows so the key outlives its row: a repeat after the row was deleted does not bring it back.
CREATE TABLE ledger_create_keys (
  member_id integer NOT NULL,
  idempotency_key text NOT NULL,
  transaction_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, idempotency_key)
);
`,
  },
  {
    id: '0006_ledger_header_version',
    sql: `
-- The version of the federal payer's report header (HICN, date of injury, date of settlement): loadMember answers it
-- with the header, and a send that brings it back (HeaderVersion) is refused (409) when someone changed the header
-- since, instead of writing its stale copy over theirs. It goes up only when a send changes the header.
ALTER TABLE ledger_accounts ADD COLUMN header_version integer NOT NULL DEFAULT 1;
`,
  },
  {
    id: '0007_ledger_changes',
    sql: `
-- A per-member mark of the ledger's rows (ledgerService.changeMark): it goes up with every statement that inserts,
-- deletes or changes what a row says (member, day, status, code, company, description, type, amount) of the member's
-- rows, in the writer's transaction; triggers, so every writer counts. A report marking rows (report_id) changes
-- nothing a reader derives, and does not move it. Readers that derive something from the rows (documents' catalogue)
-- keep the mark they derived it from and read the rows again only once it moved. The counter row is locked until the
-- writer commits: writers of one member's rows take it in turn, and a mark read is never passed by an earlier writer.
CREATE TABLE ledger_changes (
  member_id integer PRIMARY KEY,
  seq bigint NOT NULL
);
CREATE FUNCTION ledger_changes_bump() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ledger_changes (member_id, seq) SELECT DISTINCT member_id, 1 FROM new_rows ORDER BY member_id
      ON CONFLICT (member_id) DO UPDATE SET seq = ledger_changes.seq + 1;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO ledger_changes (member_id, seq) SELECT DISTINCT member_id, 1 FROM old_rows ORDER BY member_id
      ON CONFLICT (member_id) DO UPDATE SET seq = ledger_changes.seq + 1;
  ELSE
    INSERT INTO ledger_changes (member_id, seq)
      SELECT DISTINCT m, 1 FROM (
        SELECT unnest(ARRAY[o.member_id, n.member_id]) AS m FROM old_rows o JOIN new_rows n ON n.transaction_id = o.transaction_id
        WHERE (o.member_id, o.date_created, o.status, o.code, o.company, o.description, o.transaction_type_id, o.amount_cents)
          IS DISTINCT FROM (n.member_id, n.date_created, n.status, n.code, n.company, n.description, n.transaction_type_id, n.amount_cents)
      ) changed ORDER BY m
      ON CONFLICT (member_id) DO UPDATE SET seq = ledger_changes.seq + 1;
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER ledger_changes_insert AFTER INSERT ON ledger_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_changes_bump();
CREATE TRIGGER ledger_changes_update AFTER UPDATE ON ledger_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_changes_bump();
CREATE TRIGGER ledger_changes_delete AFTER DELETE ON ledger_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_changes_bump();
`,
  },
  {
    id: '0008_ledger_report_submission',
    sql: `
-- The exact submission a send gives the payer (its JSON, idempotency key included), stored with the claim before the
-- payer is called. A send whose outcome is unknown (no answer: the network failed or the call timed out) keeps its
-- claim and its rows locked, marked unconfirmed; the next send of the period re-sends this very submission with the
-- same key, so the payer answers the acknowledgement it gave if it got the first one, and takes it now if not.
ALTER TABLE ledger_reports ADD COLUMN submission text;
ALTER TABLE ledger_reports ADD COLUMN unconfirmed boolean NOT NULL DEFAULT false;
`,
  },
  {
    id: '0009_ledger_create_key_request',
    sql: `
-- What each create key was sent with (the kernel's requestFingerprint of the parsed create, key left out): the key
-- sent again with other values (the row's answer was lost, then the member corrected it) is refused with 409 and the
-- row the key made, never answered as if the correction had been saved. Keys claimed before this have none.
ALTER TABLE ledger_create_keys ADD COLUMN request_hash text;
`,
  },
];
