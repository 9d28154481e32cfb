import { route } from '@portal/server';
import { LedgerAccess } from '../../access';
import { LedgerApi } from '../../contract';
import { businessToday, loadBalance, loadMember, memberOf, searchActivity, searchCard } from '../repo';

/** Financials (spec 02 section 7): activity, card transactions, the balance and the member's ledger header. Reads audited. */
export const financialRoutes = [
  route(LedgerApi.financialsSearch, {
    access: LedgerAccess.activity,
    handler: async (ctx) => {
      const result = await searchActivity(ctx, ctx.body);
      ctx.auditRead({ action: 'ledger.search.activity', entity: 'ledger_transaction', memberId: memberOf(ctx), detail: { count: result.Items.length } });
      // The rows' type ('Card Settled') is text the page shows: in the user's language.
      return { ...result, Items: result.Items.map((i) => ({ ...i, type: ctx.t(i.type) })) };
    },
  }),
  route(LedgerApi.amethystSearch, {
    access: LedgerAccess.card,
    handler: async (ctx) => {
      const result = await searchCard(ctx, ctx.body);
      ctx.auditRead({ action: 'ledger.search.card', entity: 'ledger_transaction', memberId: memberOf(ctx), detail: { count: result.Items.length } });
      return result;
    },
  }),
  route(LedgerApi.loadBalance, {
    access: LedgerAccess.read,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const balance = await loadBalance(ctx.database.sql, memberId, businessToday(ctx));
      ctx.auditRead({ action: 'ledger.balance.read', entity: 'ledger_account', entityId: memberId, memberId });
      return balance;
    },
  }),
  route(LedgerApi.loadMember, {
    access: LedgerAccess.read,
    handler: async (ctx) => {
      const member = await loadMember(ctx);
      ctx.auditRead({ action: 'ledger.member.read', entity: 'ledger_account', entityId: member.MemberID, memberId: member.MemberID });
      return member;
    },
  }),
];
