import { profileService } from '@portal/plugin-profile/service';
import { route } from '@portal/server';
import { SUPPORT_ACCESS } from '../../access';
import { SupportApi } from '../../contract';
import { billingOf } from './common';

export const queueRoutes = [
  route(SupportApi.queue, {
    access: SUPPORT_ACCESS,
    readOnly: true,
    handler: async (ctx) => {
      const [charges, members] = await Promise.all([
        // The charges support's lists show, each status counted in one query.
        billingOf(ctx).countByStatus(['Pending', 'Declined', 'Authorized'], ctx.searchSql),
        ctx.use(profileService).memberPage({ Status: 'Pending', PageSize: 10, PageIndex: 0, SortColumn: 'FirstName', SortOrder: 'ASC' }, ctx.searchSql),
      ]);
      const queue = { ...charges, PendingMembers: members.ItemCount };
      ctx.auditRead({ action: 'support.queue', entity: 'billing_transaction', detail: queue });
      return queue;
    },
  }),
];
