import { hasAnyRole } from '@portal/core';
import { ApiError, badRequest, conflict, forbidden, type MemberPatch, type MemberRecord, type RouteContext, type SqlClient } from '@portal/server';
import { PHONE_EDIT_ROLES } from '../access';
import { type PreferredContact, ProfileMessages } from '../contract';
import { isMobileRequired, pbmVendorKey } from './members';

export interface MemberFields {
  FirstName: string;
  LastName: string;
  Email: string;
  DateOfBirth: string | null;
  Gender: string | null;
  HomePhone: string | null;
  WorkPhone: string | null;
  MobilePhone: string | null;
  PreferredContactNumber: PreferredContact;
  PBMVendor: string | null;
  Version: number;
}

/**
 * Applies the member data rules of spec 01 section 5 and 02 section 7 to a save and returns the kernel patch:
 * the caller may change phones; the preferred contact is forced to Mobile for CareGuard and CareAssist members,
 * whose mobile is always required; the preferred Home or Work number is required; a changed 10-digit number
 * must be known to the carrier lookup (+1 and the number); a changed mobile is no longer verified.
 * The e-mail address: a member's own save (My Profile, the wizard; staff impersonating too) keeps the stored one and
 * refuses another (trimmed, any case): it changes only on the account page (password, a link to the new address, a
 * notice to the old one), which sets the login's and the member's address together. A staff save of a member (the
 * support tab, `staff`) may change it; the handler then keeps the member's logins in step (syncLoginEmail).
 */
export async function checkedPatch(
  ctx: Pick<RouteContext, 'user' | 'services'>,
  current: MemberRecord,
  body: MemberFields,
  /** registering: the user is in the registration wizard (step below 10), whose step 1 requires a mobile of every member. */
  opts: { registering?: boolean; staff?: boolean } = {},
): Promise<{ patch: MemberPatch; changed: string[] }> {
  if (body.Version !== current.version) throw conflict(ProfileMessages.stale);
  const forced = await isMobileRequired(ctx.services.identity, current.memberId);
  const preferred: PreferredContact = forced ? 'Mobile' : body.PreferredContactNumber;
  const phones = [
    ['HomePhone', body.HomePhone, current.homePhone],
    ['WorkPhone', body.WorkPhone, current.workPhone],
    ['MobilePhone', body.MobilePhone, current.mobilePhone],
  ] as const;
  const changedPhones = phones.filter(([, next, before]) => next !== before);
  if (changedPhones.length > 0 && !opts.registering && !hasAnyRole(ctx.user?.roles ?? [], PHONE_EDIT_ROLES)) {
    throw forbidden(ProfileMessages.phoneEditRefused);
  }
  if (preferred === 'Mobile' && !body.MobilePhone) throw badRequest(ProfileMessages.mobileRequired);
  if (preferred === 'Home' && !body.HomePhone) throw badRequest(ProfileMessages.homeRequired);
  if (preferred === 'Work' && !body.WorkPhone) throw badRequest(ProfileMessages.workRequired);
  for (const [, next] of changedPhones) {
    if (!next) continue;
    let found: string | null;
    try {
      found = (await ctx.services.sms.lookup(`+1${next}`)).phoneNumber;
    } catch {
      throw new ApiError(503, 'The phone check service is not answering. Please try again in a moment.');
    }
    if (!found) throw badRequest(ProfileMessages.phoneInvalid(next));
  }
  const email = opts.staff ? body.Email : await ownEmail(ctx, current, body.Email);
  const mobileChanged = body.MobilePhone !== current.mobilePhone;
  const patch: MemberPatch = {
    firstName: body.FirstName,
    lastName: body.LastName,
    email,
    dateOfBirth: body.DateOfBirth,
    gender: body.Gender,
    homePhone: body.HomePhone,
    workPhone: body.WorkPhone,
    mobilePhone: body.MobilePhone,
    preferredContact: preferred,
    pbmVendor: pbmVendorKey(body.PBMVendor),
    ...(mobileChanged ? { isPhoneValidated: false } : {}),
  };
  const before: Record<string, unknown> = {
    firstName: current.firstName,
    lastName: current.lastName,
    email: current.email,
    dateOfBirth: current.dateOfBirth,
    gender: current.gender,
    homePhone: current.homePhone,
    workPhone: current.workPhone,
    mobilePhone: current.mobilePhone,
    preferredContact: current.preferredContact,
    pbmVendor: current.pbmVendor,
  };
  const changed = Object.keys(before).filter((k) => before[k] !== (patch as Record<string, unknown>)[k]);
  return { patch, changed };
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The e-mail address a member's own save keeps: the stored one (else their login's, which registration set), when
 * the body's is the same address; any other is refused (400) and nothing is saved.
 */
async function ownEmail(ctx: Pick<RouteContext, 'services'>, current: MemberRecord, sent: string): Promise<string> {
  let stored = current.email;
  if (!stored) {
    for (const userId of await ctx.services.identity.userIdsOfMember(current.memberId)) {
      stored = (await ctx.services.identity.findById(userId))?.email ?? null;
      if (stored) break;
    }
  }
  if (!stored || !sameEmail(stored, sent)) throw badRequest(ProfileMessages.emailChangeElsewhere);
  return stored;
}

/**
 * After a staff save changed a member's e-mail address: the member's logins take it too (users.email, where reset
 * and activation mails go), in the same transaction, so the two addresses never split.
 */
export async function syncLoginEmail(
  ctx: Pick<RouteContext, 'services'>,
  memberId: number,
  patch: MemberPatch,
  changed: string[],
  tx: SqlClient,
): Promise<void> {
  if (!changed.includes('email') || !patch.email) return;
  for (const userId of await ctx.services.identity.userIdsOfMember(memberId, tx)) await ctx.services.identity.setEmail(userId, patch.email, tx);
}
