import { hasAnyRole } from '@portal/core';
import { route, withMessage } from '@portal/server';
import { LedgerAccess } from '../../access';
import { LedgerApi, PayerMessages } from '../../contract';
import { checkLowBalance } from '../lowBalance';
import { createTransaction, deleteTransaction, memberOf, reportCheck, reportSend, searchLedger, setBalance, updateTransaction } from '../repo';
import { sendReport } from '../report';

/** The member ledger (spec 02 section 7, transactions): every read audited, every write audited in its transaction. */
export const transactionRoutes = [
  route(LedgerApi.search, {
    access: LedgerAccess.read,
    // A search (its filters in the body), read through ctx.searchSql.
    readOnly: true,
    handler: async (ctx) => {
      // The editable ledger view is the /transactions roles'; CareAssist reads the reported view.
      // The whole ledger is the /transactions roles'; anyone else (CareAssist) sees its reported view only.
      const view = hasAnyRole(ctx.user?.roles ?? [], LedgerAccess.ledger) ? ctx.body.Query.View : 'reported';
      const result = await searchLedger(ctx, { ...ctx.body, Query: { ...ctx.body.Query, View: view } });
      ctx.auditRead({
        action: `ledger.search.${view}`,
        entity: 'ledger_transaction',
        memberId: memberOf(ctx),
        detail: { count: result.Items.length, total: result.ItemCount, From: result.From, To: result.To },
      });
      return result;
    },
  }),
  // Each change of the balance, once committed, goes through the low-balance rule (checkLowBalance never fails it).
  route(LedgerApi.create, {
    access: LedgerAccess.ledger,
    handler: async (ctx) => {
      const row = await createTransaction(ctx, ctx.body);
      await checkLowBalance(ctx, memberOf(ctx));
      return withMessage(row, 'The transaction was added.');
    },
  }),
  route(LedgerApi.update, {
    access: LedgerAccess.ledger,
    handler: async (ctx) => {
      const row = await updateTransaction(ctx, ctx.body);
      await checkLowBalance(ctx, memberOf(ctx));
      return withMessage(row, 'The transaction was saved.');
    },
  }),
  route(LedgerApi.delete, {
    access: LedgerAccess.ledger,
    handler: async (ctx) => {
      await deleteTransaction(ctx, ctx.body.TransactionID, ctx.body.Version);
      await checkLowBalance(ctx, memberOf(ctx));
      return withMessage({ TransactionID: ctx.body.TransactionID }, 'The transaction was deleted.');
    },
  }),
  route(LedgerApi.balance, {
    access: LedgerAccess.ledger,
    handler: async (ctx) => {
      const balance = await setBalance(ctx, ctx.body.Amount);
      await checkLowBalance(ctx, memberOf(ctx));
      return withMessage(balance, 'The initial balance was saved.');
    },
  }),
  route(LedgerApi.reportCheck, {
    access: LedgerAccess.ledger,
    // Only a check: it saves nothing, not even the header it is given (the send saves that).
    readOnly: true,
    handler: async (ctx) => {
      const issues = await reportCheck(ctx, ctx.body);
      ctx.auditRead({ action: 'ledger.report.check', entity: 'ledger_transaction', memberId: memberOf(ctx), detail: { issues: issues.length } });
      return issues;
    },
  }),
  route(LedgerApi.reportSend, {
    access: LedgerAccess.ledger,
    handler: async (ctx) => {
      const outcome = await reportSend(ctx, ctx.body);
      return withMessage(outcome, outcome.AlreadySent ? PayerMessages.alreadySent : PayerMessages.sent);
    },
  }),
  route(LedgerApi.report, {
    access: LedgerAccess.ledger,
    handler: async (ctx) => sendReport(ctx, ctx.body),
  }),
];
