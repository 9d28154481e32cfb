import { ApiError, type RouteContext, reissueSessionTokens, route, withMessage } from '@portal/server';
import { BankingAccess } from '../../access';
import { BankingApi } from '../../contract';
import { bankingOf, memberOf, wordedAccounts, wordedLink } from '../banking-ref';
import { type BankAudit, popularProviders, toProvider, viaAggregator } from '../core';
import { BANK_MESSAGES } from '../messages';

const access = BankingAccess.finance;
/** A write's audit row, by the user of the request, in the write's own transaction (see BankAudit). */
const auditOf =
  (ctx: Pick<RouteContext, 'audit'>): BankAudit =>
  (entry, tx) =>
    ctx.audit(entry, tx);

/** The finance service's member calls (spec 01 section 7): the member's own banks, or the impersonated member's. */
export const financeRoutes = [
  // Every call acts for a member (own or impersonated), the institution look-ups too: they open a member's linking.
  route(BankingApi.popular, {
    access,
    handler: async (ctx) => {
      memberOf(ctx);
      return popularProviders(await viaAggregator(() => ctx.services.banks.popular()));
    },
  }),
  route(BankingApi.search, {
    access,
    handler: async (ctx) => {
      memberOf(ctx);
      return (await viaAggregator(() => ctx.services.banks.search(ctx.body.Query))).map((i) => toProvider(i, '1'));
    },
  }),
  route(BankingApi.provider, {
    access,
    handler: async (ctx) => {
      memberOf(ctx);
      return toProvider(await viaAggregator(() => ctx.services.banks.institution(ctx.body.ProviderId)), ctx.query.version);
    },
  }),
  route(BankingApi.add, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const r = await bankingOf(ctx).add(memberId, ctx.body.ProviderId, ctx.body.LoginForm, ctx.query.version, auditOf(ctx));
      return wordedLink(ctx, r);
    },
  }),
  route(BankingApi.mfa, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const r = await bankingOf(ctx).mfa(memberId, ctx.body.ProviderAccountId, ctx.body.LoginForm, ctx.query.version, auditOf(ctx));
      return wordedLink(ctx, r);
    },
  }),
  route(BankingApi.change, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const r = await bankingOf(ctx).change(memberId, ctx.body.ProviderAccountId, ctx.body.LoginForm, auditOf(ctx));
      if (r.Status !== 'SUCCESS') return wordedLink(ctx, r);
      // The member's own session gets tokens without the DeactivateBank marker at once (no new sign-in).
      const user = ctx.user;
      const token =
        user && !ctx.impersonating && user.memberId === memberId ? await reissueSessionTokens(ctx.database.sql, ctx.config, user.id, user.sessionId) : null;
      return withMessage({ ...wordedLink(ctx, r), Token: token }, BANK_MESSAGES.credentialsUpdated);
    },
  }),
  route(BankingApi.siteAccounts, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'banking.accounts.read', entity: 'member', entityId: String(memberId), memberId });
      return wordedAccounts(ctx, await bankingOf(ctx).linkedAccounts(memberId));
    },
  }),
  route(BankingApi.siteSync, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      return wordedAccounts(ctx, await bankingOf(ctx).syncLinks(memberId, auditOf(ctx)));
    },
  }),
  route(BankingApi.remove, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const r = await bankingOf(ctx).remove(memberId, ctx.body.ProviderAccountId, auditOf(ctx));
      return withMessage(wordedAccounts(ctx, r), BANK_MESSAGES.removed);
    },
  }),
  route(BankingApi.refresh, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const queued = await bankingOf(ctx).queueRefresh(memberId, ctx.body.AccountIds, auditOf(ctx));
      return withMessage({ Queued: queued }, BANK_MESSAGES.refreshed);
    },
  }),
  route(BankingApi.accounts, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'banking.accounts.read', entity: 'member', entityId: String(memberId), memberId });
      return (await bankingOf(ctx).linkedAccounts(memberId)).Accounts;
    },
  }),
  route(BankingApi.details, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'banking.account.details.read', entity: 'member', entityId: String(memberId), memberId });
      return wordedAccounts(ctx, await bankingOf(ctx).linkedAccounts(memberId));
    },
  }),
  route(BankingApi.transactions, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'banking.transactions.read', entity: 'member', entityId: String(memberId), memberId });
      return bankingOf(ctx).transactions(memberId, ctx.body);
    },
  }),
  route(BankingApi.defaultAccount, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const r = await bankingOf(ctx).setDefault(memberId, ctx.params.id, auditOf(ctx));
      return withMessage(wordedAccounts(ctx, r), BANK_MESSAGES.fundingSet);
    },
  }),
  route(BankingApi.validate, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'banking.account.validate.read', entity: 'member', entityId: String(memberId), memberId });
      const a = await bankingOf(ctx).linkedAccounts(memberId);
      return { IsValid: a.Banks.length > 0, IsStale: a.Banks.some((b) => b.Status === 'STALE') };
    },
  }),
  route(BankingApi.terminate, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const r = await bankingOf(ctx).terminate(memberId, auditOf(ctx));
      return withMessage(wordedAccounts(ctx, r), BANK_MESSAGES.terminated);
    },
  }),
  route(BankingApi.token, {
    access,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const host = ctx.req.headers.host;
      if (!host) throw new ApiError(400, 'The request names no host.');
      const token = await viaAggregator(() => ctx.services.banks.linkToken(`member-${memberId}`, `${ctx.req.protocol}://${host}`));
      // A link made in the frame is mirrored even if the frame's message to the page is lost.
      await bankingOf(ctx).scheduleFrameSync(memberId);
      return token;
    },
  }),
];
