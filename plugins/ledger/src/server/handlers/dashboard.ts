import { route } from '@portal/server';
import { adminBalanceScope, LedgerAccess } from '../../access';
import { LedgerApi } from '../../contract';
import { adminBalance, balanceByMonth, everyMembersAdminBalance, netByMonth, spending } from '../dashboard';
import { businessToday, loadBalance, memberOf, recentTransactions } from '../repo';

/**
 * The ledger's dashboard GETs (spec 01 section 7). Member data is the acting member's; reads audited. Their today (AsOf,
 * the periods' ends) is the business's (`businessToday`), whatever the reader's zone.
 */
export const dashboardRoutes = [
  route(LedgerApi.accountBalance, {
    access: LedgerAccess.dashboard,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const today = businessToday(ctx);
      const b = await loadBalance(ctx.database.sql, memberId, today);
      ctx.auditRead({ action: 'ledger.dashboard.balance', entity: 'ledger_account', entityId: memberId, memberId });
      return { Balance: b.CurrentBalance, InitialBalance: b.Amount, AsOf: today };
    },
  }),
  route(LedgerApi.adminBalance, {
    access: LedgerAccess.adminBalance,
    handler: async (ctx) => {
      // Every member's set-asides only for a SuperUser acting for nobody. Anyone else (a CareGuardFinance member, whose
      // brand anyone may register on; staff acting for a member) gets the set-aside of the member they act for.
      if (adminBalanceScope(ctx.user?.roles ?? [], ctx.memberId) === 'all') {
        // Kept for a minute: it sums the whole ledger (everyMembersAdminBalance).
        const all = await everyMembersAdminBalance(ctx.database.sql, ctx.config.businessTimeZone);
        ctx.auditRead({ action: 'ledger.dashboard.admin-balance', entity: 'ledger_account', detail: { scope: 'all', members: all.Members } });
        return all;
      }
      const memberId = memberOf(ctx);
      const own = await adminBalance(ctx.database.sql, memberId, businessToday(ctx));
      ctx.auditRead({ action: 'ledger.dashboard.admin-balance', entity: 'ledger_account', entityId: memberId, memberId, detail: { scope: 'member' } });
      return own;
    },
  }),
  route(LedgerApi.balanceMonth, {
    access: LedgerAccess.dashboard,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'ledger.dashboard.balance-month', entity: 'ledger_account', entityId: memberId, memberId });
      return balanceByMonth(ctx.database.sql, memberId, businessToday(ctx));
    },
  }),
  route(LedgerApi.transactionsBalanceMonth, {
    access: LedgerAccess.dashboard,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'ledger.dashboard.net-month', entity: 'ledger_account', entityId: memberId, memberId });
      return netByMonth(ctx.database.sql, memberId, businessToday(ctx));
    },
  }),
  ...(['time', 'quarter', 'month'] as const).map((series) =>
    route(series === 'time' ? LedgerApi.transactionsTime : series === 'quarter' ? LedgerApi.transactionsQuarter : LedgerApi.transactionsMonth, {
      access: LedgerAccess.dashboard,
      handler: async (ctx) => {
        const memberId = memberOf(ctx);
        ctx.auditRead({ action: `ledger.dashboard.spending-${series}`, entity: 'ledger_transaction', memberId });
        return spending(ctx.database.sql, memberId, series, businessToday(ctx));
      },
    }),
  ),
  route(LedgerApi.recent, {
    access: LedgerAccess.dashboard,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const rows = await recentTransactions(ctx.database.sql, memberId, ctx.config.businessTimeZone);
      ctx.auditRead({ action: 'ledger.dashboard.recent', entity: 'ledger_transaction', memberId, detail: { ids: rows.map((r) => r.TransactionID) } });
      return rows;
    },
  }),
];
