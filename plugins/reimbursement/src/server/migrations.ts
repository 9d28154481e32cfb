import type { Migration } from '@portal/core';

/** The reimbursement plugin's tables. Applied once each, in id order; never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_reimbursements',
    sql: `
-- An upload in progress: its bytes sit in the file store as chunks until create checks, scans and keeps them.
CREATE TABLE reimbursement_uploads (
  id uuid PRIMARY KEY,
  member_id integer NOT NULL,
  user_id text NOT NULL,
  file_name text NOT NULL,
  size bigint NOT NULL,
  received bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reimbursement_uploads_created_idx ON reimbursement_uploads (created_at);
CREATE TABLE reimbursements (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id integer NOT NULL,
  batch_id uuid NOT NULL,
  upload_id uuid NOT NULL UNIQUE,
  service_date date NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  name text NOT NULL,
  extension text NOT NULL,
  content_type text NOT NULL,
  declared_type text NOT NULL,
  size bigint NOT NULL,
  file_key text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reimbursements_member_idx ON reimbursements (member_id, created_at DESC, id DESC);
CREATE INDEX reimbursements_batch_idx ON reimbursements (batch_id);
`,
  },
  {
    id: '0002_reimbursement_claims',
    sql: `
-- Each request (its batch of files) is a bill for finance staff to review, made by the claims plugin's service.
ALTER TABLE reimbursements ADD COLUMN claim_id integer;
ALTER TABLE reimbursements ADD COLUMN claim_number text;
`,
  },
  {
    id: '0003_reimbursement_create_keys',
    sql: `
-- The idempotency keys of creates (the page makes one per file of a request and sends it again on every retry): a
-- create repeated with a key the member used answers the reimbursement it made and stores nothing, also when the retry
-- carries a new upload of the same file (the first upload was used up by the create whose answer was lost). The
-- fingerprint is the create's body without its UploadId: the same key with another body is refused. The key is claimed
-- in the transaction of the row it makes, so a refused create claims nothing.
CREATE TABLE reimbursement_create_keys (
  member_id integer NOT NULL,
  idempotency_key text NOT NULL,
  fingerprint text NOT NULL,
  reimbursement_id integer REFERENCES reimbursements (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, idempotency_key)
);
`,
  },
  {
    id: '0004_reimbursement_upload_chunks',
    sql: `
-- Each attempt at a chunk is stored under a key of its own, and the UPDATE that moves an upload's offset records the
-- key of the chunk it moved with: an attempt that lost (another at the same offset went first) or failed removes only
-- its own file, never the chunk that counted. Uploads started before have no keys recorded (NULL): their chunks are the
-- files listed under them, as before.
ALTER TABLE reimbursement_uploads ADD COLUMN chunks text[];
ALTER TABLE reimbursement_uploads ALTER COLUMN chunks SET DEFAULT '{}';
-- Create keys go after the kernel's retention for its own (the daily job): a retry comes within minutes of its create.
CREATE INDEX reimbursement_create_keys_created_idx ON reimbursement_create_keys (created_at);
`,
  },
  {
    id: '0005_reimbursement_duplicates',
    sql: `
-- The SHA-256 of each kept file (computed while it is copied from its upload), so the first file of a new request can
-- be compared with the member's earlier files; NULL for files kept before. duplicate_of names the earlier reimbursement a
-- request sent anyway (AllowDuplicate) looked like, for finance staff reading the row.
ALTER TABLE reimbursements ADD COLUMN content_sha256 text;
ALTER TABLE reimbursements ADD COLUMN duplicate_of integer REFERENCES reimbursements (id);
`,
  },
];
