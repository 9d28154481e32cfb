import { hasAnyRole } from '@portal/core';
import { route } from '@portal/server';
import { HELP_ACCESS } from '../../access';
import { HelpApi } from '../../contract';

export const topicRoutes = [
  route(HelpApi.topics, {
    access: HELP_ACCESS,
    handler: async ({ database, user, brand, memberId, services }) => {
      const rows = await database.sql.query<{ id: string; sort: number; roles: string[] }>('SELECT id, sort, roles FROM help_topics ORDER BY sort');
      const roles = user?.roles ?? [];
      // The contacts of the acting member's brand, as the card and the letters give them (a member may sign in on
      // another brand's site); the site's brand when no member is acted for.
      const member = memberId === null ? null : await services.members.load(memberId);
      const contacts = (member && services.brands.byId(member.brand)) ?? brand;
      return {
        Topics: rows.filter((r) => r.roles.length === 0 || hasAnyRole(roles, r.roles)).map((r) => ({ Id: r.id, Sort: r.sort })),
        SupportPhone: contacts?.contacts.phone ?? null,
        SupportEmail: contacts?.contacts.supportEmail ?? null,
      };
    },
  }),
];
