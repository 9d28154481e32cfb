import { profileService } from '@portal/plugin-profile/service';
import { type RouteContext, route } from '@portal/server';
import { SUPPORT_ACCESS } from '../../access';
import { SupportApi } from '../../contract';
import { billingOf } from './common';

/** How many charges of a status there are: one row read, the count beside it. */
const countOf = (ctx: Pick<RouteContext, 'use' | 'searchSql'>, status: string) =>
  billingOf(ctx)
    .searchTransactions({ statuses: [status], search: null, memberId: null, sortColumn: 'DateCreated', sortOrder: 'DESC', offset: 0, limit: 1 }, ctx.searchSql)
    .then((page) => page.ItemCount);

export const queueRoutes = [
  route(SupportApi.queue, {
    access: SUPPORT_ACCESS,
    readOnly: true,
    handler: async (ctx) => {
      const [Pending, Declined, Authorized, members] = await Promise.all([
        countOf(ctx, 'Pending'),
        countOf(ctx, 'Declined'),
        countOf(ctx, 'Authorized'),
        ctx.use(profileService).memberPage({ Status: 'Pending', PageSize: 10, PageIndex: 0, SortColumn: 'FirstName', SortOrder: 'ASC' }, ctx.searchSql),
      ]);
      ctx.auditRead({ action: 'support.queue', entity: 'billing_transaction', detail: { Pending, Declined, Authorized, PendingMembers: members.ItemCount } });
      return { Pending, Declined, Authorized, PendingMembers: members.ItemCount };
    },
  }),
];
