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
    // Every member's banks in three statements whatever the list's length (not three per member), answered in the
    // list's order with duplicates once. Each member's read is audited as support/accounts audits it, before the read:
    // auditRead takes one entry and buffers it (AuditBuffer), so the rows are written in batched inserts off the
    // request's path, not one statement per member.
    handler: async (ctx) => {
      const memberIds = [...new Set(ctx.body.MemberIds)];
      for (const memberId of memberIds) ctx.auditRead({ action: 'banking.accounts.read', entity: 'member', entityId: String(memberId), memberId });
      const all = await bankingOf(ctx).linkedAccountsOfMembers(memberIds);
      return [...all].map(([memberId, accounts]) => {
        const a = wordedAccounts(ctx, accounts);
        return { ...a, MemberId: memberId, IsLinked: a.Banks.length > 0 };
      });
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
