import { LOOKUP_ITEMS, type Migration } from '@portal/core';

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Tables the kernel owns: people, sign-in, sessions, audit, throttling, lookups. */
export const kernelMigrations: Migration[] = [
  {
    id: '0001_kernel',
    sql: `
CREATE TABLE members (
  member_id serial PRIMARY KEY,
  member_number text NOT NULL UNIQUE,
  brand text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text,
  date_of_birth date,
  gender text,
  home_phone text,
  work_phone text,
  mobile_phone text,
  preferred_contact text NOT NULL DEFAULT 'Mobile' CHECK (preferred_contact IN ('Home', 'Work', 'Mobile')),
  is_phone_validated boolean NOT NULL DEFAULT false,
  is_msa boolean NOT NULL DEFAULT false,
  pbm_vendor integer,
  approved_date timestamptz,
  termination_date timestamptz,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX members_name_idx ON members (lower(last_name), lower(first_name));

CREATE TABLE users (
  id uuid PRIMARY KEY,
  user_name text NOT NULL,
  password_hash text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text,
  brand text NOT NULL,
  member_id integer REFERENCES members (member_id),
  company_id integer,
  is_active boolean NOT NULL DEFAULT true,
  registration_step integer NOT NULL DEFAULT 10,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_user_name_idx ON users (lower(user_name));
CREATE INDEX users_member_idx ON users (member_id);

CREATE TABLE user_roles (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL,
  PRIMARY KEY (user_id, role)
);

-- A session is one refresh-token chain: idle and absolute expiry, revocation.
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoke_reason text,
  ip text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE refresh_tokens (
  token_hash text PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  spent_at timestamptz
);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  action text NOT NULL,
  actor_user_id uuid,
  actor_name text,
  member_id integer,
  entity text,
  entity_id text,
  outcome text NOT NULL DEFAULT 'success',
  ip text,
  request_id text,
  detail jsonb
);
CREATE INDEX audit_log_member_idx ON audit_log (member_id, at DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_user_id, at DESC);
CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC);

CREATE TABLE throttle_events (
  kind text NOT NULL,
  key text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX throttle_events_idx ON throttle_events (kind, key, at);

CREATE TABLE lookups (
  category text NOT NULL,
  key integer NOT NULL,
  value text NOT NULL,
  sort integer NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  PRIMARY KEY (category, key)
);
INSERT INTO lookups (category, key, value, sort, is_default) VALUES
${LOOKUP_ITEMS.map((i) => `(${lit(i.Category)}, ${i.Key}, ${lit(i.Value)}, ${i.Sort}, ${i.IsDefault})`).join(',\n')};
`,
  },
  {
    id: '0002_session_brand',
    sql: `
-- The brand site a session signed in on: its tokens work only there (security issue 11, item 9).
ALTER TABLE sessions ADD COLUMN brand text;
`,
  },
  {
    id: '0003_user_closed',
    sql: `
-- A login closed for good (a member terminated by support): /token refuses it, and its refresh tokens stop working.
ALTER TABLE users ADD COLUMN closed_at timestamptz;
ALTER TABLE users ADD COLUMN closed_reason text;
`,
  },
  {
    id: '0004_user_language',
    sql: `
-- The language the user last signed in with (or registered in): e-mails to them are written in it.
ALTER TABLE users ADD COLUMN language text NOT NULL DEFAULT 'en';
`,
  },
  {
    id: '0005_session_handover',
    sql: `
-- A session made to be handed over in an address (/t/<token>): the only kind the token-exchange grant takes.
ALTER TABLE sessions ADD COLUMN handover boolean NOT NULL DEFAULT false;
`,
  },
  {
    id: '0006_create_keys',
    sql: `
-- The idempotency keys of creates (services.createKeys): per user and kind of record, the request a key stood for
-- (a hash) and the record it made. Claimed in the create's transaction; kept 30 days (the daily sessions.prune job).
CREATE TABLE create_keys (
  user_id uuid NOT NULL,
  scope text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  record_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, scope, key)
);
CREATE INDEX create_keys_created_idx ON create_keys (created_at);
`,
  },
  {
    // Measured at 100,000 members and logins on PGlite: support's members list sorted by first name (its default) read
    // and sorted every member (230-333 ms a page, 320 ms its plan), its Pending count (every work-queue load) scanned
    // every login (109-205 ms), and the users admin's role filter every role row (86 ms). These give each a path of
    // its own. Built without blocking writes to tables that already hold rows (CONCURRENTLY, outside a transaction).
    id: '0007_member_list_indexes',
    transaction: false,
    statements: [
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS members_first_name_idx ON members (lower(first_name), member_id)',
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS users_pending_member_idx ON users (member_id) WHERE NOT is_active OR registration_step < 10',
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS user_roles_role_idx ON user_roles (role, user_id)',
    ],
  },
  {
    // The users admin sorted by first or last name read and sorted every login (156-328 ms at 100,000 logins on
    // PGlite, against 16-22 ms by user name): these give both orders a path, in either direction (the id follows it).
    id: '0008_user_name_sort_indexes',
    transaction: false,
    statements: [
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS users_first_name_idx ON users (lower(first_name), id)',
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS users_last_name_idx ON users (lower(last_name), id)',
    ],
  },
  {
    // Who ended a membership: 'member' (My Profile) or 'staff' (support). A member may reactivate only what they ended
    // themselves; staff reactivate either. NULL: not terminated, or terminated before this column (as the member's).
    id: '0009_member_terminated_by',
    sql: `ALTER TABLE members ADD COLUMN terminated_by text CHECK (terminated_by IN ('member', 'staff'));`,
  },
  {
    // A member's name, number and e-mail as the searches compare them (foldSql of MEMBER_TEXT, db/search.ts), folded
    // once as the row is written: the members list and support's charges search folded them for every member at every
    // search (40 ms a word at 5,000 members, about half of them accented, on either engine). Frozen here: search.test.ts
    // fails if foldSql or MEMBER_TEXT changes, and a change then needs a migration that redefines the column.
    id: '0010_member_search_text',
    sql: `ALTER TABLE members ADD COLUMN search_text text NOT NULL GENERATED ALWAYS AS (
  CASE WHEN octet_length((first_name || ' ' || last_name || ' ' || member_number || ' ' || coalesce(email, ''))) = length((first_name || ' ' || last_name || ' ' || member_number || ' ' || coalesce(email, ''))) THEN lower((first_name || ' ' || last_name || ' ' || member_number || ' ' || coalesce(email, ''))) ELSE replace(replace(replace(translate(lower(regexp_replace(normalize((first_name || ' ' || last_name || ' ' || member_number || ' ' || coalesce(email, '')), NFD), '[\\u0300-\\u036f]', '', 'g')), 'łŁøØđĐħĦıðÐ', 'llooddhhidd'), 'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe') END
) STORED`,
  },
  {
    // pg_trgm (PostgreSQL's contrib; PGlite loads it, db/database.ts PGLITE_EXTENSIONS): its trigram indexes serve a
    // search's `LIKE '%word%'` over text kept folded (allWordsSql({ folded })), where a plain index cannot help. A
    // trusted extension: the database's owner creates it without superuser rights (PostgreSQL 13 and later).
    id: '0011_pg_trgm',
    sql: 'CREATE EXTENSION IF NOT EXISTS pg_trgm',
  },
  {
    // The members list and support's charges search find members by a word anywhere in their name, number or e-mail
    // (members.search_text): a trigram index reads the members that hold a word of three letters or more instead of
    // every member. Built without blocking writes to a table that already holds members (CONCURRENTLY).
    id: '0012_member_search_trgm_index',
    transaction: false,
    statements: ['CREATE INDEX CONCURRENTLY IF NOT EXISTS members_search_trgm_idx ON members USING gin (search_text gin_trgm_ops)'],
  },
];
