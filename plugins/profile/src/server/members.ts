import { hasAnyRole } from '@portal/core';
import { type MemberRecord, notFound, type RouteContext } from '@portal/server';
import { MEMBER_ADMIN_ROLES } from '../access';
import { type Member, PBM_VENDORS, ProfileMessages } from '../contract';

/** The kernel's member record in the spec's wire names. */
export function toWire(m: MemberRecord): Member {
  const dob = m.dateOfBirth;
  return {
    MemberID: m.memberId,
    MemberNumber: m.memberNumber,
    FirstName: m.firstName,
    LastName: m.lastName,
    Email: m.email,
    DateOfBirth: dob,
    DOBStr: dob ? `${dob.slice(5, 7)}/${dob.slice(8, 10)}/${dob.slice(0, 4)}` : null,
    Gender: m.gender,
    HomePhone: m.homePhone,
    WorkPhone: m.workPhone,
    MobilePhone: m.mobilePhone,
    PreferredContactNumber: m.preferredContact,
    IsPhoneValidated: m.isPhoneValidated,
    IsMSA: m.isMsa,
    PBMVendor: m.pbmVendor === null ? null : (PBM_VENDORS[m.pbmVendor - 1] ?? null),
    ApprovedDate: m.approvedDate,
    TerminationDate: m.terminationDate,
    Version: m.version,
  };
}

export const pbmVendorKey = (name: string | null): number | null =>
  name === null ? null : PBM_VENDORS.indexOf(name as (typeof PBM_VENDORS)[number]) + 1 || null;

/** The member the request acts for (the user's own, or the impersonated one); 404 for staff acting for nobody. */
export function ownMemberId(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId === null) throw notFound(ProfileMessages.noProfile);
  return ctx.memberId;
}

/**
 * A member id the request names: allowed when it is the member the request acts for, or, for support staff
 * not impersonating, any member account (the support list). Anything else is 404, as if it did not exist.
 */
export async function scopedMemberId(ctx: Pick<RouteContext, 'memberId' | 'impersonating' | 'user' | 'services'>, id: number): Promise<number> {
  if (ctx.memberId !== null && id === ctx.memberId) return id;
  if (!ctx.impersonating && ctx.user && hasAnyRole(ctx.user.roles, MEMBER_ADMIN_ROLES) && (await ctx.services.members.isMemberAccount(id))) return id;
  throw notFound(ProfileMessages.notFound);
}

/** The termination state as `user/termination` answers it (the kernel's rule: terminated once the date has passed). */
export function terminationOf(m: Pick<MemberRecord, 'terminationDate' | 'isMsa'>, now = Date.now()) {
  const end = m.terminationDate ? Date.parse(m.terminationDate) : null;
  const terminationPeriod = end === null ? 0 : Math.max(0, Math.ceil((end - now) / 86_400_000));
  return { isTerminated: end !== null && end <= now, terminationPeriod, isMsa: m.isMsa };
}
