import { toCents } from '@portal/plugin-billing/contract';
import { ApiError, type RouteContext, route, withMessage } from '@portal/server';
import { SUPPORT_ACCESS } from '../../access';
import { SUPPORT_MESSAGES, SupportApi } from '../../contract';
import { isUnsettledRefund, paNumberMatches, shownStatusNames, statusesOf } from '../../rules';
import { actorOf, billingOf, inLanguage, memberTransaction, mustBeMember } from './common';

type Search = {
  PageSize: number;
  PageIndex: number;
  SortColumn: 'DateCreated' | 'Amount' | 'Status' | 'TransactionID' | 'MemberName';
  SortOrder: 'ASC' | 'DESC';
  Status: Parameters<typeof statusesOf>[0];
  SearchString?: string;
};
/**
 * Billing's search for a grid's request. The search box also finds a status by the name the grid shows for it, in
 * English and in the reader's language (`t`): 'paid' and 'pagada' find Charged.
 */
export const searchOf = (t: RouteContext['t'], s: Search, memberId: number | null, pending = false) => ({
  statuses: statusesOf(s.Status, pending),
  search: s.SearchString || null,
  statusNames: shownStatusNames().flatMap(([name, statuses]) => [[name, statuses] as const, [t(name), statuses] as const]),
  memberId,
  sortColumn: s.SortColumn,
  sortOrder: s.SortOrder,
  offset: s.PageIndex * s.PageSize,
  limit: s.PageSize,
});

type MoneyResult = Awaited<ReturnType<ReturnType<typeof billingOf>['refund']>>;

/** Billing's answer to a money call with its message in the user's language, and whether a refund met an unsettled charge. */
const moneyAnswer = (ctx: Pick<RouteContext, 't'>, r: MoneyResult, refund = false) => ({
  StatusString: r.StatusString,
  Message: ctx.t(r.Message),
  TransactionID: r.TransactionID,
  Unsettled: refund && isUnsettledRefund(r),
});

export const transactionRoutes = [
  // The lists read through ctx.searchSql: the read replica when one is set and has the caller's own changes.
  route(SupportApi.transactions, {
    access: SUPPORT_ACCESS,
    readOnly: true,
    handler: async (ctx) => {
      const b = ctx.body;
      const page = await billingOf(ctx).searchTransactions(searchOf(ctx.t, { ...b, ...b.Query }, null), ctx.searchSql);
      ctx.auditRead({ action: 'support.transactions.list', entity: 'billing_transaction', detail: { status: b.Query.Status, count: page.Items.length } });
      return inLanguage(ctx, page);
    },
  }),
  route(SupportApi.memberTransactions, {
    access: SUPPORT_ACCESS,
    readOnly: true,
    handler: async (ctx) => {
      await mustBeMember(ctx, ctx.params.id);
      const b = ctx.body;
      const page = await billingOf(ctx).searchTransactions(searchOf(ctx.t, { ...b, ...b.Query }, ctx.params.id), ctx.searchSql);
      ctx.auditRead({ action: 'support.transactions.member', entity: 'billing_transaction', memberId: ctx.params.id, detail: { count: page.Items.length } });
      return inLanguage(ctx, page);
    },
  }),
  route(SupportApi.pendingTransactions, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      const page = await billingOf(ctx).searchTransactions(searchOf(ctx.t, ctx.query, null, true), ctx.searchSql);
      ctx.auditRead({ action: 'support.transactions.pending', entity: 'billing_transaction', detail: { status: ctx.query.Status, count: page.Items.length } });
      return inLanguage(ctx, page);
    },
  }),
  route(SupportApi.saveTransaction, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      await memberTransaction(ctx, ctx.body.TransactionID);
      const billing = billingOf(ctx);
      if (!(await billing.declineTransaction(ctx.body.TransactionID, actorOf(ctx)))) throw new ApiError(409, SUPPORT_MESSAGES.notPending);
      const saved = await billing.findTransaction(ctx.body.TransactionID);
      if (!saved) throw new ApiError(404, SUPPORT_MESSAGES.notFound);
      return withMessage(saved, SUPPORT_MESSAGES.declined);
    },
  }),
  route(SupportApi.charge, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      await memberTransaction(ctx, ctx.body.TransactionID);
      return moneyAnswer(ctx, await billingOf(ctx).chargeTransaction(ctx.body.TransactionID, { idempotencyKey: ctx.body.IdempotencyKey }, actorOf(ctx)));
    },
  }),
  route(SupportApi.refund, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      await memberTransaction(ctx, ctx.body.TransactionID);
      return moneyAnswer(ctx, await billingOf(ctx).refund(ctx.body.TransactionID, actorOf(ctx)), true);
    },
  }),
  route(SupportApi.void, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      await memberTransaction(ctx, ctx.body.TransactionID);
      return moneyAnswer(ctx, await billingOf(ctx).voidTransaction(ctx.body.TransactionID, actorOf(ctx)));
    },
  }),
  route(SupportApi.capture, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      await memberTransaction(ctx, ctx.body.TransactionID);
      const amount = ctx.body.Amount === undefined ? null : toCents(ctx.body.Amount);
      return moneyAnswer(ctx, await billingOf(ctx).captureTransaction(ctx.body.TransactionID, amount, actorOf(ctx)));
    },
  }),
  route(SupportApi.addPaNumber, {
    access: SUPPORT_ACCESS,
    handler: (ctx) => savePaNumber(ctx, ctx.body.TransactionID, ctx.body.PANumber, ctx.body.PreviousPANumber),
  }),
  route(SupportApi.createTransaction, {
    access: SUPPORT_ACCESS,
    // A GET in the spec that stores the PA number: it needs the anti-forgery token like any change.
    writes: true,
    // `?previous=` (the number seen; empty: none) checks as the POST's PreviousPANumber does.
    handler: (ctx) =>
      savePaNumber(ctx, ctx.params.transactionId, ctx.params.paNumber, ctx.query.previous === undefined ? undefined : ctx.query.previous || null),
  }),
];

/**
 * Stores the PA number and compares the stored one with the submitted one (spec 02 section 5). With the number the
 * caller saw, a number someone else stored meanwhile is kept: the answer then names it, with the mismatch message.
 */
async function savePaNumber(
  ctx: Parameters<typeof memberTransaction>[0] & Pick<RouteContext, 't'>,
  transactionId: number,
  submitted: string,
  previous?: string | null,
) {
  await memberTransaction(ctx, transactionId);
  const stored = await billingOf(ctx).setPaNumber(transactionId, submitted, actorOf(ctx), previous);
  return { PANumber: stored, Message: ctx.t(paNumberMatches(submitted, stored) ? SUPPORT_MESSAGES.paNumberMatches : SUPPORT_MESSAGES.paNumberMismatch) };
}
