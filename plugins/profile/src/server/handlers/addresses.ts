import { type Message, notFound, type RouteContext, route, withMessage } from '@portal/server';
import type { z } from 'zod';
import { PROFILE_ACCESS, SUPPORT_ADDRESS_ACCESS } from '../../access';
import { type Address, type createAddressSchema, ProfileApi, ProfileMessages } from '../../contract';
import { createAddress, listAddresses, loadAddress, searchAddresses, updateAddress } from '../addresses';
import { ownMemberId, scopedMemberId } from '../members';

/**
 * Adds an address to the member's (createAddress, the member's and support's): the address and its audit row in one
 * transaction. With an IdempotencyKey (and a signed-in user) the key is claimed first, in that transaction: the same
 * create sent again with it answers the address it added, as it is now, and writes nothing (no second audit row); the
 * key with another address (or another member's) is refused with 409 CREATE_KEY_REUSED. An address the member already
 * has (addresses.ts, addressKey) is refused with 409 in `duplicate`'s words, checked under the member's lock.
 */
async function addAddress(
  ctx: Pick<RouteContext, 'user' | 'database' | 'services' | 'audit'> & { body: z.output<typeof createAddressSchema> },
  memberId: number,
  duplicate: Message,
): Promise<Address> {
  const { body } = ctx;
  const ref = body.IdempotencyKey && ctx.user ? { userId: ctx.user.id, scope: 'profile.address', key: body.IdempotencyKey } : null;
  return ctx.database.sql.transaction(async (tx) => {
    if (ref) {
      const earlier = await ctx.services.createKeys.claim(tx, ref, body);
      if (earlier !== null) {
        const added = await loadAddress(tx, memberId, Number(earlier));
        if (!added) throw notFound(ProfileMessages.addressNotFound);
        return added;
      }
    }
    const a = await createAddress(tx, memberId, body, duplicate);
    await ctx.audit({ action: 'profile.address.create', entity: 'address', entityId: a.AddressID, memberId, detail: { current: a.IsCurrent } }, tx);
    if (ref) await ctx.services.createKeys.record(tx, ref, a.AddressID);
    return a;
  });
}

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
      return withMessage(await addAddress(ctx, memberId, ProfileMessages.addressDuplicate), ProfileMessages.addressSaved);
    },
  }),
  route(ProfileApi.updateAddress, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const memberId = ownMemberId(ctx);
      const { body } = ctx;
      if (body.MemberID !== memberId) throw notFound(ProfileMessages.addressNotFound);
      const saved = await ctx.database.sql.transaction(async (tx) => {
        const { before, after } = await updateAddress(tx, memberId, body.AddressID, body.Version, body, ProfileMessages.addressDuplicate);
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
      return withMessage(await addAddress(ctx, memberId, ProfileMessages.addressDuplicateSupport), ProfileMessages.addressSaved);
    },
  }),
  route(ProfileApi.supportUpdateAddress, {
    access: SUPPORT_ADDRESS_ACCESS,
    handler: async (ctx) => {
      const { body } = ctx;
      const memberId = await scopedMemberId(ctx, body.MemberID);
      const saved = await ctx.database.sql.transaction(async (tx) => {
        const { before, after } = await updateAddress(tx, memberId, body.AddressID, body.Version, body, ProfileMessages.addressDuplicateSupport);
        const changed = (['Address1', 'Address2', 'City', 'State', 'Zip', 'AddressTypeID', 'IsCurrent'] as const).filter((k) => before[k] !== after[k]);
        await ctx.audit({ action: 'profile.address.update', entity: 'address', entityId: after.AddressID, memberId, detail: { changed } }, tx);
        return after;
      });
      return withMessage(saved, ProfileMessages.addressSaved);
    },
  }),
];
