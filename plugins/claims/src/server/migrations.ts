import { ClaimStatus, type Migration } from '@portal/core';
import { PAID_STATUS_IDS } from '../contract';
import { PAYEES } from './payees';

const lit = (s: string | null) => (s === null ? 'NULL' : `'${s.replace(/'/g, "''")}'`);

/**
 * The secondary indexes of claims that migration 0001 made. Its text is built from this list, so the list stays as
 * it shipped: later changes are migrations of their own, and CLAIM_INDEXES below is the set they leave.
 */
const INDEXES_0001: readonly { name: string; sql: string }[] = [
  // Claim ids follow the received date: a cross-member page in id order with a received range walks this index alone.
  { name: 'claims_claim_received_idx', sql: 'CREATE INDEX claims_claim_received_idx ON claims (claim_id DESC, received_date)' },
  { name: 'claims_member_claim_idx', sql: 'CREATE INDEX claims_member_claim_idx ON claims (member_id, claim_id DESC)' },
  { name: 'claims_member_received_idx', sql: 'CREATE INDEX claims_member_received_idx ON claims (member_id, received_date DESC, claim_id DESC)' },
  { name: 'claims_received_idx', sql: 'CREATE INDEX claims_received_idx ON claims (received_date DESC, claim_id DESC)' },
  { name: 'claims_status_received_idx', sql: 'CREATE INDEX claims_status_received_idx ON claims (claim_status_id, received_date DESC, claim_id DESC)' },
  { name: 'claims_paid_date_idx', sql: 'CREATE INDEX claims_paid_date_idx ON claims (paid_date DESC NULLS LAST, claim_id DESC)' },
  { name: 'claims_service_date_idx', sql: 'CREATE INDEX claims_service_date_idx ON claims (service_date_from DESC, claim_id DESC)' },
  { name: 'claims_number_idx', sql: 'CREATE INDEX claims_number_idx ON claims (claim_number text_pattern_ops)' },
  { name: 'claims_check_idx', sql: 'CREATE INDEX claims_check_idx ON claims (check_number) WHERE check_number IS NOT NULL' },
  { name: 'claims_payee_idx', sql: 'CREATE INDEX claims_payee_idx ON claims (payee_id, claim_id DESC)' },
];

/**
 * A check number as the searches compare it: upper case, spaces and '-' removed (textMatch.ts identifierSql). Not a
 * partial index: the planner reads statistics of an index expression only from an index without a WHERE, and without
 * them it guessed many bills per check and walked every bill newest first (335 ms at 300,000 bills, against 0.1 ms).
 */
const CHECK_NORM_INDEX = "claims_check_norm_idx ON claims (upper(translate(check_number, ' -', '')))";

/**
 * The status a bill shows: the paid statuses (8, 29, 30) as 8, Paid (spec 02 section 4; the contract's displayStatus).
 * A sort on the status column sorts on it, so bills shown as Paid stay together; the index below walks it for a
 * cross-member page (the expression must read as the query's for the planner to use it).
 */
export const DISPLAY_STATUS_SQL = (alias: string) =>
  `(CASE WHEN ${alias}claim_status_id IN (${PAID_STATUS_IDS.join(', ')}) THEN ${ClaimStatus.Paid} ELSE ${alias}claim_status_id END)`;
const DISPLAY_STATUS_INDEX = `claims_display_status_idx ON claims (${DISPLAY_STATUS_SQL('')}, claim_id)`;

/**
 * The columns of claims a bills list shows (query.ts CLAIM_COLUMNS) besides the member index's keys: carried in that
 * index (INCLUDE), so one member's bills are read from the index's few pages, in any sort, without visiting the table.
 * A member's bills arrive over years, one table page each: sorting a member's 200 bills by a column read 200 table
 * pages (6–11 ms on the million-claim bench database), the index holds them in about five (1.2–2.4 ms), and the bills
 * search's throughput at a million claims rose from 580–730 to about 995 requests a second (docs/performance-log.md,
 * seventieth pass). A column a list adds belongs here too (query.test.ts fails until it is; claims.int.test.ts holds
 * the migrated index to this list), with a migration of its own that builds the index again under a new name and
 * drops this one (as 0006 replaced the check number's): migration 0008 built it from this list as it shipped. The
 * longest values the contract allows (a 120-character payee name, 40-character numbers) stay far below a btree
 * entry's 2,704 bytes.
 */
export const MEMBER_INDEX_COVERS = [
  'claim_number',
  'payee_name',
  'payee_id',
  'claim_status_id',
  'bill_type_id',
  'claim_type_id',
  'billed_cents',
  'submitted_unc_cents',
  'service_date_from',
  'service_date_to',
  'bill_review_received_date',
  'paid_date',
  'paid_cents',
  'check_number',
  'version',
] as const;
/** A member's bills by received date (their default list, their series), carrying every listed column. */
const MEMBER_COVER_INDEX = `claims_member_cover_idx ON claims (member_id, received_date DESC, claim_id DESC) INCLUDE (${MEMBER_INDEX_COVERS.join(', ')})`;

/**
 * Secondary indexes of claims, kept in one list so the bulk seed can drop them, load, and build them again (far
 * faster than maintaining them row by row). Member-scoped queries (a member's few hundred bills) use
 * (member_id, claim_id DESC) and the covering (member_id, received_date DESC, claim_id DESC); cross-member staff
 * searches use the date, status, number and payee indexes. Every index ends in claim_id so ORDER BY x, claim_id pages
 * walk an index (but the check number's, which finds a check's few bills).
 */
export const CLAIM_INDEXES: readonly { name: string; sql: string }[] = [
  ...INDEXES_0001.filter((i) => i.name !== 'claims_check_idx' && i.name !== 'claims_member_received_idx'),
  { name: 'claims_check_norm_idx', sql: `CREATE INDEX ${CHECK_NORM_INDEX}` },
  { name: 'claims_display_status_idx', sql: `CREATE INDEX ${DISPLAY_STATUS_INDEX}` },
  { name: 'claims_member_cover_idx', sql: `CREATE INDEX ${MEMBER_COVER_INDEX}` },
];

export const migrations: Migration[] = [
  {
    id: '0001_claims',
    sql: `
-- Payees (vendors): hospitals, clinics, pharmacies, DME suppliers ... chosen on the bill entry form.
CREATE TABLE claim_payees (
  payee_id serial PRIMARY KEY,
  name text NOT NULL,
  kind text NOT NULL,
  city text,
  state text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX claim_payees_name_idx ON claim_payees (lower(name) text_pattern_ops);

-- Bills. Money is integer cents; the API carries dollars with 2 decimals.
CREATE TABLE claims (
  claim_id serial PRIMARY KEY,
  claim_number text NOT NULL,
  member_id integer NOT NULL REFERENCES members (member_id),
  payee_id integer REFERENCES claim_payees (payee_id),
  -- The payee's name as on the bill (kept when a payee is renamed; sorts without a join).
  payee_name text NOT NULL,
  claim_status_id smallint NOT NULL DEFAULT 1,
  bill_type_id smallint NOT NULL,
  claim_type_id smallint NOT NULL DEFAULT 5,
  billed_cents bigint NOT NULL CHECK (billed_cents >= 0),
  submitted_unc_cents bigint CHECK (submitted_unc_cents >= 0),
  service_date_from date NOT NULL,
  service_date_to date,
  received_date date NOT NULL DEFAULT current_date,
  bill_review_received_date date,
  paid_date date,
  paid_cents bigint CHECK (paid_cents >= 0),
  check_number text,
  version integer NOT NULL DEFAULT 1,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (service_date_to IS NULL OR service_date_to >= service_date_from)
);
${INDEXES_0001.map((i) => `${i.sql};`).join('\n')}

-- Every status change: who, when, from, to (the audit log holds the same with the request).
CREATE TABLE claim_status_history (
  id bigserial PRIMARY KEY,
  claim_id integer NOT NULL REFERENCES claims (claim_id),
  from_status_id smallint,
  to_status_id smallint NOT NULL,
  changed_by_user_id uuid,
  changed_by_name text,
  changed_at timestamptz NOT NULL DEFAULT now(),
  reason text
);
CREATE INDEX claim_status_history_claim_idx ON claim_status_history (claim_id, id);

INSERT INTO claim_payees (name, kind, city, state) VALUES
${PAYEES.map((p) => `(${lit(p.name)}, ${lit(p.kind)}, ${lit(p.city)}, ${lit(p.state)})`).join(',\n')};
`,
  },
  {
    id: '0002_free_text_payees',
    sql: `
-- A member's own payee name stays on the bill (payee_id NULL) instead of becoming a shared payee. The global
-- search looks those names up on the bills themselves: this index holds only such bills, newest first.
CREATE INDEX claims_free_text_payee_idx ON claims (claim_id DESC) WHERE payee_id IS NULL;
`,
  },
  {
    id: '0003_claim_create_keys',
    sql: `
-- The idempotency keys of creates (the page makes one per submission of its form and sends it again when that
-- submission is retried): a create repeated with a key its caller used answers the bill the key made and adds none, so
-- a create whose answer was lost is not billed (and paid) twice. Keys are the caller's (staff add bills for any
-- member): per user, like a payment's key. The fingerprint is the create as the contract parsed it, with the bill's
-- member: the same key with another bill is refused. The key is claimed in the transaction of the bill it makes, so a
-- refused create claims nothing.
CREATE TABLE claim_create_keys (
  user_id uuid NOT NULL,
  idempotency_key text NOT NULL,
  fingerprint text NOT NULL,
  claim_id integer REFERENCES claims (claim_id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, idempotency_key)
);
`,
  },
  {
    id: '0004_drop_claim_create_keys',
    sql: `
-- Creates' idempotency keys moved to the kernel's create_keys (services.createKeys, scope 'claims.bill'), which the
-- daily housekeeping prunes. The keys held here go: each stood for a retry within minutes of its create, long past.
DROP TABLE claim_create_keys;
`,
  },
  {
    id: '0005_claim_source',
    sql: `
-- How a bill came to be: 'bill' (entered on the bill forms, imported, seeded) or 'reimbursement' (made by the claims
-- service's recordReimbursement from a member's reimbursement request: its amount, service date and payee are the
-- request's, so its member may not edit it). A constant default adds the column without rewriting the table.
ALTER TABLE claims ADD COLUMN source text NOT NULL DEFAULT 'bill' CHECK (source IN ('bill', 'reimbursement'));
-- The bills made before: recordReimbursement writes their first status history row with the reason
-- 'Reimbursement request' (a bill entered on the forms starts with 'Created').
UPDATE claims SET source = 'reimbursement'
WHERE claim_id IN (SELECT claim_id FROM claim_status_history WHERE from_status_id IS NULL AND reason = 'Reimbursement request');
`,
  },
  {
    // The bills filter and the global search find a check number in any case, with spaces and '-' ignored ("chk 002"
    // finds CHK-002; check numbers are stored as typed): an index on that form replaces the one on the number as stored,
    // which nothing else reads. Built without blocking writes to a table that already holds bills (CONCURRENTLY).
    id: '0006_claims_check_norm_idx',
    transaction: false,
    statements: [`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${CHECK_NORM_INDEX}`, 'DROP INDEX CONCURRENTLY IF EXISTS claims_check_idx'],
  },
  {
    // The status column sorts on the status shown (29 and 30 are shown as 8, Paid): an index on that form, so a
    // cross-member page sorted by status walks it. Built without blocking writes (CONCURRENTLY).
    id: '0007_claims_display_status_idx',
    transaction: false,
    statements: [`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${DISPLAY_STATUS_INDEX}`],
  },
  {
    // One member's bills are read from the member index alone, in any sort (MEMBER_INDEX_COVERS): the index on the same
    // keys that carries every listed column replaces the one without them. Built without blocking writes (CONCURRENTLY).
    id: '0008_claims_member_cover_idx',
    transaction: false,
    statements: [`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${MEMBER_COVER_INDEX}`, 'DROP INDEX CONCURRENTLY IF EXISTS claims_member_received_idx'],
  },
];
