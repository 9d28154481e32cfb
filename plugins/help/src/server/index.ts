import { hasAnyRole } from '@portal/core';
import { defineServerPlugin, route } from '@portal/server';
import { HELP_ACCESS, HelpApi, type HelpTopicsResponse } from '../contract';

export default defineServerPlugin({
  id: 'help',
  migrations: [
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
  ],
  routes: [
    route({
      method: 'GET',
      url: HelpApi.topics,
      access: HELP_ACCESS,
      handler: async ({ database, user, brand }): Promise<HelpTopicsResponse> => {
        const rows = await database.sql.query<{ id: string; sort: number; roles: string[] }>('SELECT id, sort, roles FROM help_topics ORDER BY sort');
        const roles = user?.roles ?? [];
        return {
          Topics: rows.filter((r) => r.roles.length === 0 || hasAnyRole(roles, r.roles)).map((r) => ({ Id: r.id, Sort: r.sort })),
          SupportPhone: brand?.contacts.phone ?? null,
          SupportEmail: brand?.contacts.supportEmail ?? null,
        };
      },
    }),
  ],
});
