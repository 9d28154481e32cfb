import { hasAnyRole } from '@portal/core';
import { profileService } from '@portal/plugin-profile/service';
import { ApiError, route, withMessage } from '@portal/server';
import { SUPPORT_ACCESS } from '../../access';
import { SUPPORT_MESSAGES, SupportApi } from '../../contract';
import { mustBeMember } from './common';

const terminationOf = (memberId: number, date: string | null) => ({
  MemberID: memberId,
  TerminationDate: date,
  // A member is terminated when TerminationDate is non-empty (spec 02 section 4).
  IsTerminated: date !== null && date !== '',
});

export const memberRoutes = [
  route(SupportApi.verification, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => ({ IsSupport: hasAnyRole(ctx.user?.roles ?? [], SUPPORT_ACCESS), UserName: ctx.user?.name ?? '' }),
  }),
  route(SupportApi.members, {
    access: SUPPORT_ACCESS,
    // A search, read through ctx.searchSql: the read replica when one is set and has the caller's own changes.
    readOnly: true,
    handler: async (ctx) => {
      const { Query, ...paging } = ctx.body;
      const page = await ctx.use(profileService).memberPage({ ...paging, Status: Query.Status, SearchString: Query.SearchString }, ctx.searchSql);
      const ids = page.Items.map((m) => m.MemberID);
      const logins = ids.length
        ? await ctx.searchSql.query<{ member_id: number; id: string }>(
            'SELECT DISTINCT ON (member_id) member_id, id FROM users WHERE member_id = ANY($1::int[]) ORDER BY member_id, created_at',
            [ids],
          )
        : [];
      const userOf = new Map(logins.map((l) => [l.member_id, l.id]));
      ctx.auditRead({
        action: 'support.members.list',
        entity: 'member',
        detail: { status: Query.Status, search: Query.SearchString ?? null, count: ids.length },
      });
      return { ItemCount: page.ItemCount, Items: page.Items.map((m) => ({ ...m, UserId: userOf.get(m.MemberID) ?? null })) };
    },
  }),
  route(SupportApi.terminationDate, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      await mustBeMember(ctx, ctx.params.memberId);
      const m = await ctx.services.members.load(ctx.params.memberId);
      if (!m) throw new ApiError(404, SUPPORT_MESSAGES.memberNotFound);
      ctx.auditRead({ action: 'support.member.termination.read', entity: 'member', entityId: m.memberId, memberId: m.memberId });
      return terminationOf(m.memberId, m.terminationDate);
    },
  }),
  route(SupportApi.terminateMember, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      const memberId = ctx.body.Member.MemberID;
      await mustBeMember(ctx, memberId);
      const { services, database } = ctx;
      const saved = await database.sql.transaction(async (tx) => {
        const m = await services.members.load(memberId, tx);
        if (!m) throw new ApiError(404, SUPPORT_MESSAGES.memberNotFound);
        if (m.terminationDate) throw new ApiError(409, SUPPORT_MESSAGES.alreadyTerminated);
        // At the version read: of two terminations at once, the second is refused (409) instead of moving the date.
        await services.members.update(memberId, m.version, { terminationDate: new Date().toISOString(), terminatedBy: 'staff' }, tx);
        const closeLogins = ctx.body.CloseLogins === true;
        await ctx.audit({ action: 'support.member.terminate', entity: 'member', entityId: memberId, memberId, detail: { closeLogins } }, tx);
        // By default the member keeps their login, as a member who ends their own membership does: they still read their
        // documents, statements, tax forms and history, and write to support. Only when support also chooses to close
        // the logins (fraud, abuse) are they signed out everywhere at once and refused at sign-in from now on.
        if (closeLogins)
          for (const id of await services.identity.userIdsOfMember(memberId, tx)) await services.identity.close(id, 'member terminated by support', tx);
        // The plugins end what they keep running for the member (the gateway's renewals, linked banks): a job stored
        // with the termination, so neither commits without the other.
        await services.members.announceTermination(memberId, tx);
        return services.members.load(memberId, tx);
      });
      return terminationOf(memberId, saved?.terminationDate ?? null);
    },
  }),
  route(SupportApi.reactivateMember, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      const memberId = ctx.body.Member.MemberID;
      await mustBeMember(ctx, memberId);
      const { services, database } = ctx;
      const saved = await database.sql.transaction(async (tx) => {
        const m = await services.members.load(memberId, tx);
        if (!m) throw new ApiError(404, SUPPORT_MESSAGES.memberNotFound);
        if (!m.terminationDate) throw new ApiError(409, SUPPORT_MESSAGES.notTerminated);
        // At the version read: a termination and a reactivation at once cannot both pass their checks.
        await services.members.update(memberId, m.version, { terminationDate: null, terminatedBy: null }, tx);
        // The logins the termination closed open again (their sessions stay ended: the member signs in anew).
        const reopened: string[] = [];
        for (const id of await services.identity.userIdsOfMember(memberId, tx)) if (await services.identity.reopen(id, tx)) reopened.push(id);
        await ctx.audit(
          { action: 'support.member.reactivate', entity: 'member', entityId: memberId, memberId, detail: { before: m.terminationDate, reopened } },
          tx,
        );
        // Gives back what the termination ended and the member already paid for (billing's membership for the period
        // paid), by the kernel's job stored with the reactivation.
        await services.members.announceReactivation(memberId, tx);
        return services.members.load(memberId, tx);
      });
      return withMessage(terminationOf(memberId, saved?.terminationDate ?? null), SUPPORT_MESSAGES.reactivated);
    },
  }),
];
