import type { Migration } from '@portal/core';

/** The profile plugin's tables. Applied once each, in id order; never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_profile',
    sql: `
CREATE TABLE profile_addresses (
  address_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id integer NOT NULL,
  address1 text NOT NULL,
  address2 text,
  city text NOT NULL,
  state text NOT NULL,
  zip text NOT NULL,
  address_type_id integer NOT NULL DEFAULT 4,
  is_current boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX profile_addresses_member_idx ON profile_addresses (member_id, address_id);
-- One current address per member, enforced by the database as well as by the handlers.
CREATE UNIQUE INDEX profile_addresses_current_idx ON profile_addresses (member_id) WHERE is_current;

-- SMS verification codes: only a salted hash is stored; a code lives 10 minutes and allows 5 wrong tries.
CREATE TABLE profile_phone_codes (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id integer NOT NULL,
  phone text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  spent_at timestamptz,
  verified_at timestamptz
);
CREATE INDEX profile_phone_codes_member_idx ON profile_phone_codes (member_id, id DESC);
`,
  },
];
