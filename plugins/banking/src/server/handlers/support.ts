import { route } from '@portal/server';
import { BankingAccess } from '../../access';
import { BankingApi } from '../../contract';
import { bankingOf, wordedAccounts } from '../banking-ref';

/** The finance service's support calls (spec 02 section 7) and the support tooling's linked-bank check. */
export const supportRoutes = [
  route(BankingApi.supportAccounts, {
    access: BankingAccess.support,
    handler: async (ctx) => {
      const memberId = ctx.body.MemberId;
      ctx.auditRead({ action: 'banking.accounts.read', entity: 'member', entityId: String(memberId), memberId });
      const a = wordedAccounts(ctx, await bankingOf(ctx).linkedAccounts(memberId));
      return { ...a, MemberId: memberId, IsLinked: a.Banks.length > 0 };
    },
  }),
  route(BankingApi.supportMultipleAccounts, {
    access: BankingAccess.support,
    handler: async (ctx) => {
      const banking = bankingOf(ctx);
      const out = [];
      for (const memberId of new Set(ctx.body.MemberIds)) {
        ctx.auditRead({ action: 'banking.accounts.read', entity: 'member', entityId: String(memberId), memberId });
        const a = wordedAccounts(ctx, await banking.linkedAccounts(memberId));
        out.push({ ...a, MemberId: memberId, IsLinked: a.Banks.length > 0 });
      }
      return out;
    },
  }),
  route(BankingApi.supportValidate, {
    access: BankingAccess.support,
    handler: async (ctx) => {
      const memberId = ctx.query.memberId;
      ctx.auditRead({ action: 'banking.account.validate.read', entity: 'member', entityId: String(memberId), memberId });
      const a = await bankingOf(ctx).linkedAccounts(memberId);
      return { IsValid: a.Banks.length > 0, IsStale: a.Banks.some((b) => b.Status === 'STALE') };
    },
  }),
  route(BankingApi.supportTransactions, {
    access: BankingAccess.support,
    handler: async (ctx) => {
      const { MemberId, ...filter } = ctx.body;
      ctx.auditRead({ action: 'banking.transactions.read', entity: 'member', entityId: String(MemberId), memberId: MemberId });
      return bankingOf(ctx).transactions(MemberId, filter);
    },
  }),
  route(BankingApi.isLinkedBank, {
    access: BankingAccess.isLinked,
    handler: async (ctx) => {
      const memberId = ctx.params.memberId;
      ctx.auditRead({ action: 'banking.linked.read', entity: 'member', entityId: String(memberId), memberId });
      return bankingOf(ctx).isLinked(memberId);
    },
  }),
];
