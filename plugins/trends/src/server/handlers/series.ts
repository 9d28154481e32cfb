import { hasAnyRole } from '@portal/core';
import { claimsService, type SeriesScope } from '@portal/plugin-claims/service';
import { badRequest, forbidden, type RouteContext, route } from '@portal/server';
import { ACROSS_MEMBERS, TrendsAccess } from '../../access';
import { TrendsApi } from '../../contract';
import { nextFundingDate } from '../funding';

export const NO_MEMBER_MESSAGE = 'Your account has no bills of its own. Choose a member to act for first.';

/** A member's own series (or the member staff act for); SuperUser not acting for anyone sees every member's. */
export function seriesScope(ctx: Pick<RouteContext, 'user' | 'memberId'>): SeriesScope {
  if (ctx.memberId !== null) return { memberId: ctx.memberId };
  if (ctx.user && hasAnyRole(ctx.user.roles, ACROSS_MEMBERS)) return { memberId: null };
  throw forbidden(NO_MEMBER_MESSAGE);
}

/** The member whose own series these are: the caller's member record, or the member staff act for; never every member. */
export function ownMember(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId !== null) return ctx.memberId;
  throw badRequest(NO_MEMBER_MESSAGE);
}

/** Dollars with 2 decimals from integer cents. */
const dollars = (cents: number) => Math.round(cents) / 100;

/** The claims-based series of spec 01 section 7, computed by the claims plugin (which owns the table and its indexes). */
export const seriesRoutes = [
  route(TrendsApi.claims, {
    access: TrendsAccess.claimsDashboard,
    handler: async (ctx) => {
      const scope = seriesScope(ctx);
      const points = await ctx.use(claimsService).claimCounts(scope, ctx.params.period);
      ctx.auditRead({ action: 'dashboard.claims', entity: 'claim', detail: { period: ctx.params.period, memberId: scope.memberId } });
      return points;
    },
  }),
  route(TrendsApi.bills, {
    access: TrendsAccess.claimsDashboard,
    handler: async (ctx) => {
      const scope = seriesScope(ctx);
      const points = await ctx.use(claimsService).billAmounts(scope, ctx.params.period);
      ctx.auditRead({ action: 'dashboard.bills', entity: 'claim', detail: { period: ctx.params.period, memberId: scope.memberId } });
      return points.map((p) => ({ Date: p.Date, Amount: dollars(p.AmountCents) }));
    },
  }),
  route(TrendsApi.cities, {
    access: TrendsAccess.claimsDashboard,
    handler: async (ctx) => {
      const scope = seriesScope(ctx);
      const points = await ctx.use(claimsService).cityCounts(scope);
      ctx.auditRead({ action: 'dashboard.cities', entity: 'claim', detail: { memberId: scope.memberId } });
      return points;
    },
  }),
  route(TrendsApi.memberBills, {
    access: TrendsAccess.memberBills,
    handler: async (ctx) => {
      const memberId = ownMember(ctx);
      const points = await ctx.use(claimsService).billAmounts({ memberId }, ctx.params.period);
      ctx.auditRead({ action: 'dashboard.memberBills', entity: 'claim', detail: { period: ctx.params.period, memberId } });
      return points.map((p) => ({ Date: p.Date, Amount: dollars(p.AmountCents) }));
    },
  }),
  route(TrendsApi.memberCities, {
    access: TrendsAccess.memberBills,
    handler: async (ctx) => {
      const memberId = ownMember(ctx);
      const points = await ctx.use(claimsService).cityCounts({ memberId });
      ctx.auditRead({ action: 'dashboard.memberCities', entity: 'claim', detail: { memberId } });
      return points;
    },
  }),
  route(TrendsApi.fundingDate, {
    access: TrendsAccess.claimsDashboard,
    // The business's day (BUSINESS_TIME_ZONE), the same for every caller: not the UTC day, nor the caller's zone.
    handler: async (ctx) => ({ FundingDate: nextFundingDate(ctx.config.businessTimeZone) }),
  }),
];
