import { hasAnyRole } from '@portal/core';
import { ApiError, badRequest, conflict, forbidden, type MemberPatch, type MemberRecord, type RouteContext } from '@portal/server';
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
 */
export async function checkedPatch(
  ctx: Pick<RouteContext, 'user' | 'services'>,
  current: MemberRecord,
  body: MemberFields,
  /** registering: the user is in the registration wizard (step below 10), whose step 1 requires a mobile of every member. */
  opts: { registering?: boolean } = {},
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
  const mobileChanged = body.MobilePhone !== current.mobilePhone;
  const patch: MemberPatch = {
    firstName: body.FirstName,
    lastName: body.LastName,
    email: body.Email,
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
