import type { Migration } from '@portal/core';

/** The account plugin's tables: the security question catalogue and answers, e-mailed links, registrations. */
export const migrations: Migration[] = [
  {
    id: '0001_account',
    sql: `
CREATE TABLE account_security_questions (
  id integer PRIMARY KEY,
  text text NOT NULL,
  sort integer NOT NULL
);
INSERT INTO account_security_questions (id, text, sort) VALUES
  (1, 'What was the name of your first pet?', 1),
  (2, 'In what city were you born?', 2),
  (3, 'What is your mother''s maiden name?', 3),
  (4, 'What was the make of your first car?', 4),
  (5, 'What was the name of your elementary school?', 5),
  (6, 'What is the name of the street you grew up on?', 6),
  (7, 'What was your childhood nickname?', 7),
  (8, 'What is the middle name of your oldest sibling?', 8);

-- Answers are stored hashed (the kernel's hashPassword of the normalised answer), never as text.
CREATE TABLE account_security_answers (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  question_id integer NOT NULL REFERENCES account_security_questions (id),
  answer_hash text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, question_id)
);

-- Activation and reset links: only the sha256 of the random token is kept; single use, expiring.
CREATE TABLE account_links (
  token_hash text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('activate', 'reset')),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX account_links_user_idx ON account_links (user_id, purpose);

-- Accounts created by self-registration; activated_at stays null until the e-mailed link is used.
CREATE TABLE account_registrations (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  brand text NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now(),
  activated_at timestamptz
);
`,
  },
  {
    id: '0002_email_change',
    sql: `
ALTER TABLE account_links DROP CONSTRAINT account_links_purpose_check;
ALTER TABLE account_links ADD CONSTRAINT account_links_purpose_check CHECK (purpose IN ('activate', 'reset', 'email'));
-- The new address of a pending e-mail change, beside its link; the account keeps its address until confirmed.
ALTER TABLE account_links ADD COLUMN new_email text;
`,
  },
];
