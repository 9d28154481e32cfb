import { hasAnyRole } from '@portal/core';
import { route } from '@portal/server';
import { HELP_ACCESS } from '../../access';
import { HelpApi } from '../../contract';

export const topicRoutes = [
  route(HelpApi.topics, {
    access: HELP_ACCESS,
    handler: async ({ database, user, brand }) => {
      const rows = await database.sql.query<{ id: string; sort: number; roles: string[] }>('SELECT id, sort, roles FROM help_topics ORDER BY sort');
      const roles = user?.roles ?? [];
      return {
        Topics: rows.filter((r) => r.roles.length === 0 || hasAnyRole(roles, r.roles)).map((r) => ({ Id: r.id, Sort: r.sort })),
        SupportPhone: brand?.contacts.phone ?? null,
        SupportEmail: brand?.contacts.supportEmail ?? null,
      };
    },
  }),
];
