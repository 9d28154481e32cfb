import type { Migration } from '@portal/core';

/** The contacts plugin's tables. Applied once each, in id order; never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_contacts',
    sql: `
CREATE TABLE contacts (
  contact_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id integer NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  phone text,
  email text,
  contact_type_id integer,
  phone_type_id integer,
  address_type_id integer,
  address1 text,
  address2 text,
  city text,
  state_code_id integer,
  zip text,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);
CREATE INDEX contacts_member_name_idx ON contacts (member_id, lower(last_name), lower(first_name), contact_id);
`,
  },
];
