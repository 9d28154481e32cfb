import type { Migration } from '@portal/core';

export const migrations: Migration[] = [
  {
    id: '0001_help_topics',
    sql: `
CREATE TABLE help_topics (
  id text PRIMARY KEY,
  sort integer NOT NULL,
  -- Roles that see the topic; empty means everyone who may open help.
  roles text[] NOT NULL DEFAULT '{}'
);
INSERT INTO help_topics (id, sort, roles) VALUES
  ('signing-in', 1, '{}'),
  ('reset-password', 2, '{}'),
  ('bills', 3, '{SuperUser,CareGuardFinance}'),
  ('statements', 4, '{SuperUser,CareGuardFinance}'),
  ('prepaid-card', 5, '{CareGuard}'),
  ('bank-linking', 6, '{SuperUser,CareGuardFinance,CareGuard}'),
  ('assistance-program', 7, '{CareAssist}'),
  ('acting-for-member', 8, '{SuperUser,CareSupport}'),
  ('contact-us', 9, '{}');
`,
  },
  {
    // The header's help menu offers SuperUser the prepaid-card and assistance-program guides (to support members):
    // the topics of the same names now list SuperUser too, so the menu and /help agree.
    id: '0002_help_topics_superuser_guides',
    sql: `
UPDATE help_topics SET roles = '{CareGuard,SuperUser}' WHERE id = 'prepaid-card';
UPDATE help_topics SET roles = '{CareAssist,SuperUser}' WHERE id = 'assistance-program';
`,
  },
];
