import { notFound, route, withMessage } from '@portal/server';
import { PROFILE_ACCESS, SUPPORT_ADDRESS_ACCESS } from '../../access';
import { ProfileApi, ProfileMessages } from '../../contract';
import { createAddress, listAddresses, searchAddresses, updateAddress } from '../addresses';
import { ownMemberId, scopedMemberId } from '../members';

/** Addresses of the member the request acts for (own or impersonated), under /api/members/addresses/. */
export const addressRoutes = [
  route(ProfileApi.loadAddresses, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const memberId = ownMemberId(ctx);
      const rows = await listAddresses(ctx.database.sql, memberId);
      await ctx.audit({ action: 'profile.address.read', entity: 'member', entityId: memberId, memberId, detail: { count: rows.length } });
      return rows;
    },
  }),
  route(ProfileApi.searchAddresses, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const memberId = ownMemberId(ctx);
      const page = await searchAddresses(ctx.database.sql, memberId, ctx.body);
      await ctx.audit({ action: 'profile.address.read', entity: 'member', entityId: memberId, memberId, detail: { count: page.Items.length } });
      return page;
    },
  }),
  route(ProfileApi.createAddress, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const memberId = ownMemberId(ctx);
      if (ctx.body.MemberID !== memberId) throw notFound(ProfileMessages.notFound);
      const saved = await ctx.database.sql.transaction(async (tx) => {
        const a = await createAddress(tx, memberId, ctx.body);
        await ctx.audit({ action: 'profile.address.create', entity: 'address', entityId: a.AddressID, memberId, detail: { current: a.IsCurrent } }, tx);
        return a;
      });
      return withMessage(saved, ProfileMessages.addressSaved);
    },
  }),
  route(ProfileApi.updateAddress, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const memberId = ownMemberId(ctx);
      const { body } = ctx;
      if (body.MemberID !== memberId) throw notFound(ProfileMessages.addressNotFound);
      const saved = await ctx.database.sql.transaction(async (tx) => {
        const { before, after } = await updateAddress(tx, memberId, body.AddressID, body.Version, body);
        const changed = (['Address1', 'Address2', 'City', 'State', 'Zip', 'AddressTypeID', 'IsCurrent'] as const).filter((k) => before[k] !== after[k]);
        await ctx.audit({ action: 'profile.address.update', entity: 'address', entityId: after.AddressID, memberId, detail: { changed } }, tx);
        return after;
      });
      return withMessage(saved, ProfileMessages.addressSaved);
    },
  }),
  // Support acts on a member account by id (never while impersonating): the same rules, audited with the member.
  route(ProfileApi.supportAddresses, {
    access: SUPPORT_ADDRESS_ACCESS,
    handler: async (ctx) => {
      const memberId = await scopedMemberId(ctx, ctx.params.id);
      const page = await searchAddresses(ctx.database.sql, memberId, ctx.body);
      await ctx.audit({ action: 'profile.address.read', entity: 'member', entityId: memberId, memberId, detail: { count: page.Items.length } });
      return page;
    },
  }),
  route(ProfileApi.supportCreateAddress, {
    access: SUPPORT_ADDRESS_ACCESS,
    handler: async (ctx) => {
      const memberId = await scopedMemberId(ctx, ctx.body.MemberID);
      const saved = await ctx.database.sql.transaction(async (tx) => {
        const a = await createAddress(tx, memberId, ctx.body);
        await ctx.audit({ action: 'profile.address.create', entity: 'address', entityId: a.AddressID, memberId, detail: { current: a.IsCurrent } }, tx);
        return a;
      });
      return withMessage(saved, ProfileMessages.addressSaved);
    },
  }),
  route(ProfileApi.supportUpdateAddress, {
    access: SUPPORT_ADDRESS_ACCESS,
    handler: async (ctx) => {
      const { body } = ctx;
      const memberId = await scopedMemberId(ctx, body.MemberID);
      const saved = await ctx.database.sql.transaction(async (tx) => {
        const { before, after } = await updateAddress(tx, memberId, body.AddressID, body.Version, body);
        const changed = (['Address1', 'Address2', 'City', 'State', 'Zip', 'AddressTypeID', 'IsCurrent'] as const).filter((k) => before[k] !== after[k]);
        await ctx.audit({ action: 'profile.address.update', entity: 'address', entityId: after.AddressID, memberId, detail: { changed } }, tx);
        return after;
      });
      return withMessage(saved, ProfileMessages.addressSaved);
    },
  }),
];
