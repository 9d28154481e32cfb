import { ApiError, badRequest, conflict, notFound, reissueSessionTokens, route, withMessage } from '@portal/server';
import { MEMBER_ADMIN_ROLES, PROFILE_ACCESS, TERMINATE_ACCESS } from '../../access';
import { MEMBER_NAME_SEARCH_LIMIT, ProfileApi, ProfileMessages } from '../../contract';
import { saveCurrentAddress } from '../addresses';
import { validatedRecently } from '../codes';
import { memberPage, memberSummaries } from '../list';
import { memberAnswer, ownMemberId, scopedMemberId, terminationOf } from '../members';
import { checkedPatch, syncLoginEmail } from '../rules';

export const memberRoutes = [
  route(ProfileApi.loadOwn, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const memberId = ownMemberId(ctx);
      const m = await ctx.services.members.load(memberId);
      if (!m) throw notFound(ProfileMessages.notFound);
      await ctx.audit({ action: 'profile.member.read', entity: 'member', entityId: memberId, memberId });
      return memberAnswer(ctx, m);
    },
  }),
  route(ProfileApi.load, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const memberId = await scopedMemberId(ctx, ctx.params.id);
      const m = await ctx.services.members.load(memberId);
      if (!m) throw notFound(ProfileMessages.notFound);
      await ctx.audit({ action: 'profile.member.read', entity: 'member', entityId: memberId, memberId });
      return memberAnswer(ctx, m);
    },
  }),
  route(ProfileApi.list, {
    access: MEMBER_ADMIN_ROLES,
    // A search (its filters in the body), read through ctx.searchSql: the read replica when one is set.
    readOnly: true,
    handler: async (ctx) => {
      const page = await memberPage(ctx.searchSql, ctx.body);
      await ctx.audit({
        action: 'profile.member.list',
        entity: 'member',
        detail: { status: ctx.body.Status, search: ctx.body.SearchString ?? null, count: page.Items.length },
      });
      return page;
    },
  }),
  route(ProfileApi.searchByName, {
    access: MEMBER_ADMIN_ROLES,
    handler: async (ctx) => {
      const found = await memberSummaries(ctx.database.sql, ctx.query.name, MEMBER_NAME_SEARCH_LIMIT);
      await ctx.audit({ action: 'profile.member.search', entity: 'member', detail: { name: ctx.query.name, count: found.length } });
      return found;
    },
  }),
  route(ProfileApi.save, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const { body, services, database } = ctx;
      const memberId = await scopedMemberId(ctx, body.MemberID);
      const current = await services.members.load(memberId);
      if (!current) throw notFound(ProfileMessages.notFound);
      // Staff saving a member by id (the support tab) may change the e-mail; a member's own save may not (rules.ts).
      const staff = ctx.memberId !== memberId;
      const { patch, changed } = await checkedPatch(ctx, current, body, { staff });
      const saved = await database.sql.transaction(async (tx) => {
        const s = await services.members.update(memberId, body.Version, patch, tx);
        if (staff) await syncLoginEmail(ctx, memberId, patch, changed, tx);
        await ctx.audit({ action: 'profile.member.update', entity: 'member', entityId: memberId, memberId, detail: { changed, version: s.version } }, tx);
        return s;
      });
      return withMessage(await memberAnswer(ctx, saved), ProfileMessages.saved);
    },
  }),
  route(ProfileApi.registrationSave, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const { body, services, database } = ctx;
      const memberId = await scopedMemberId(ctx, body.MemberID);
      const current = await services.members.load(memberId);
      if (!current) throw notFound(ProfileMessages.notFound);
      // Wizard step 1 requires a mobile of every member: a member still registering (step below 10) sets their own phones.
      const own = ctx.user?.memberId === memberId;
      const registering = own && ctx.user !== null && ((await services.identity.findById(ctx.user.id))?.registration_step ?? 10) < 10;
      const staff = ctx.memberId !== memberId;
      const { patch, changed } = await checkedPatch(ctx, current, body, { registering, staff });
      const result = await database.sql.transaction(async (tx) => {
        const member = await services.members.update(memberId, body.Version, patch, tx);
        if (staff) await syncLoginEmail(ctx, memberId, patch, changed, tx);
        const address = await saveCurrentAddress(tx, memberId, body, body.AddressVersion);
        await ctx.audit(
          { action: 'profile.member.registration-save', entity: 'member', entityId: memberId, memberId, detail: { changed, addressId: address.AddressID } },
          tx,
        );
        return { Member: await memberAnswer(ctx, member, tx), Address: address };
      });
      return withMessage(result, ProfileMessages.saved);
    },
  }),
  route(ProfileApi.phoneValidate, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const memberId = ownMemberId(ctx);
      const { services, database } = ctx;
      const saved = await database.sql.transaction(async (tx) => {
        const m = await services.members.load(memberId, tx);
        if (!m) throw notFound(ProfileMessages.notFound);
        if (ctx.query.validated) {
          // Only a code confirmed for the number on file lets the phone be marked verified.
          if (!m.mobilePhone || !(await validatedRecently(tx, memberId, m.mobilePhone))) throw badRequest(ProfileMessages.verifyFirst);
        }
        // At the version read: a change of the mobile number meanwhile is refused (409), not marked verified.
        await services.members.update(memberId, m.version, { isPhoneValidated: ctx.query.validated }, tx);
        await ctx.audit({ action: 'profile.phone.validated', entity: 'member', entityId: memberId, memberId, detail: { validated: ctx.query.validated } }, tx);
        return services.members.load(memberId, tx);
      });
      if (!saved) throw notFound(ProfileMessages.notFound);
      return memberAnswer(ctx, saved);
    },
  }),
  ...(['terminate', 'reactivate'] as const).map((which) =>
    route(ProfileApi[which], {
      access: TERMINATE_ACCESS,
      handler: async (ctx) => {
        const { services, database, user, config } = ctx;
        const memberId = ownMemberId(ctx);
        if (!user) throw notFound(ProfileMessages.notFound);
        const saved = await database.sql.transaction(async (tx) => {
          const m = await services.members.load(memberId, tx);
          if (!m) throw notFound(ProfileMessages.notFound);
          const terminated = m.terminationDate !== null;
          if (which === 'terminate' && terminated) throw conflict(ProfileMessages.alreadyTerminated);
          if (which === 'reactivate' && !terminated) throw conflict(ProfileMessages.notTerminated);
          // What support ended, support gives back: the member is told to contact them (the page says so too).
          if (which === 'reactivate' && m.terminatedBy === 'staff') throw conflict(ProfileMessages.terminatedByStaff);
          // At the version read: a terminate and a reactivate at once cannot both pass their checks.
          await services.members.update(
            memberId,
            m.version,
            which === 'terminate' ? { terminationDate: new Date().toISOString(), terminatedBy: 'member' } : { terminationDate: null, terminatedBy: null },
            tx,
          );
          await ctx.audit({ action: `profile.member.${which}`, entity: 'member', entityId: memberId, memberId, detail: { before: m.terminationDate } }, tx);
          // The plugins end what they keep running for the member (the gateway's renewals, linked banks): a job
          // stored with the termination, so neither commits without the other.
          if (which === 'terminate') await services.members.announceTermination(memberId, tx);
          // A reactivation gives back what the termination ended and the member already paid for (billing's membership
          // for the period paid), by the kernel's job stored with it.
          else await services.members.announceReactivation(memberId, tx);
          return services.members.load(memberId, tx);
        });
        if (!saved) throw notFound(ProfileMessages.notFound);
        const token = await reissueSessionTokens(database.sql, config, user.id, user.sessionId);
        if (!token) throw new ApiError(401, ProfileMessages.sessionEnded);
        return withMessage(
          { Member: await memberAnswer(ctx, saved), Termination: terminationOf(saved), Token: token },
          which === 'terminate' ? ProfileMessages.terminated : ProfileMessages.reactivated,
        );
      },
    }),
  ),
];
