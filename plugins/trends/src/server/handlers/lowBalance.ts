import { forbidden, route } from '@portal/server';
import { TrendsAccess } from '../../access';
import { TrendsApi } from '../../contract';
import { makeTrendsService } from '../lowBalance';

export const LOW_BALANCE_NO_MEMBER = 'Choose a member to act for first: the low-balance e-mail goes to a member.';

/**
 * POST email/lowbalance: the page reports the balance it shows; the server sends the e-mail to the member's own
 * address only when this balance crosses under the threshold (once per crossing). Who receives it, from whom and
 * the text are the server's; the body carries only the balance and the account type.
 */
export const lowBalanceRoutes = [
  route(TrendsApi.lowBalance, {
    access: TrendsAccess.lowBalance,
    handler: async (ctx) => {
      if (ctx.memberId === null) throw forbidden(LOW_BALANCE_NO_MEMBER);
      const result = await makeTrendsService({ sql: ctx.database.sql, services: ctx.services, config: ctx.config }).observeBalance(
        ctx.memberId,
        { balanceCents: Math.round(ctx.body.Balance * 100), accountType: ctx.body.AccountType },
        ctx.brand,
      );
      if (result.sent) await ctx.audit({ action: 'dashboard.lowbalance.mail', entity: 'member', entityId: String(ctx.memberId) });
      return { Sent: result.sent, Below: result.below };
    },
  }),
];
