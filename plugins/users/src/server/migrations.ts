import type { Migration } from '@portal/core';

/**
 * The users plugin's tables: companies and their contacts (the pickers), a user's contact, teams and their
 * members, monthly quotas and permissions. The user itself, its company id and its roles are the kernel's
 * (users, user_roles), changed only through the identity service. Never edit a shipped migration: add 0002_...
 */
export const migrations: Migration[] = [
  {
    id: '0001_users_admin',
    sql: `
CREATE TABLE users_companies (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL
);
CREATE UNIQUE INDEX users_companies_name_idx ON users_companies (lower(name));

CREATE TABLE users_contacts (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id integer NOT NULL REFERENCES users_companies (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL
);
CREATE INDEX users_contacts_company_idx ON users_contacts (company_id, lower(last_name), lower(first_name));

-- The contact a user was made from (UserName is that contact's e-mail).
CREATE TABLE users_user_contacts (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  contact_id integer NOT NULL REFERENCES users_contacts (id)
);

CREATE TABLE users_teams (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id integer NOT NULL REFERENCES users_companies (id),
  name text NOT NULL
);
CREATE UNIQUE INDEX users_teams_name_idx ON users_teams (company_id, lower(name));

-- A team is assigned to a user only once: the key refuses a duplicate row.
CREATE TABLE users_team_members (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  team_id integer NOT NULL REFERENCES users_teams (id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, team_id)
);
CREATE INDEX users_team_members_team_idx ON users_team_members (team_id);

-- Monthly quotas: the minimum and maximum number of cases for a month of the year.
CREATE TABLE users_quotas (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  month_number smallint NOT NULL CHECK (month_number BETWEEN 1 AND 12),
  min_cases integer NOT NULL CHECK (min_cases >= 0),
  max_cases integer NOT NULL CHECK (max_cases >= 0),
  CHECK (min_cases <= max_cases),
  PRIMARY KEY (user_id, month_number)
);

CREATE TABLE users_permissions (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  permission_id smallint NOT NULL,
  PRIMARY KEY (user_id, permission_id)
);
`,
  },
  {
    // A team's Version: a rename or a delete made from an old view of the team is refused (409), not applied over
    // another administrator's rename.
    id: '0002_users_team_version',
    sql: `ALTER TABLE users_teams ADD COLUMN version integer NOT NULL DEFAULT 1;`,
  },
  {
    // Whose permissions an administrator has saved: those users hold exactly the saved ones (users_permissions, none
    // when saved empty); a user not here never had them saved and holds every permission. A user with rows saved
    // before the permissions were enforced is marked; one saved empty then (no rows; the permissions gated nothing yet)
    // holds every permission until an administrator saves them again. Nobody loses access on upgrade.
    id: '0003_users_permission_sets',
    sql: `
CREATE TABLE users_permission_sets (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  saved_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO users_permission_sets (user_id)
SELECT DISTINCT user_id FROM users_permissions;
`,
  },
];
