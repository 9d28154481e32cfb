import { hasAnyRole } from '@portal/core';
import { type IdentityService, type MemberRecord, notFound, type RouteContext, type SqlClient } from '@portal/server';
import { FORCED_MOBILE_ROLES, MEMBER_ADMIN_ROLES } from '../access';
import { type Member, type MemberRecordWire, PBM_VENDORS, ProfileMessages } from '../contract';

/** The kernel's member record in the spec's wire names (without IsMobileRequired: `memberAnswer` adds it). */
export function toWire(m: MemberRecord): MemberRecordWire {
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
    TerminatedBy: m.terminationDate ? m.terminatedBy : null,
    Version: m.version,
  };
}

/**
 * Spec 01 section 5: a CareGuard or CareAssist member (by the member's own login roles, not the caller's) always
 * needs a mobile and has Mobile as the preferred contact. The save rules and the IsMobileRequired flag both ask this.
 */
export async function isMobileRequired(identity: Pick<IdentityService, 'rolesOfMember'>, memberId: number, tx?: SqlClient): Promise<boolean> {
  return hasAnyRole(await identity.rolesOfMember(memberId, tx), FORCED_MOBILE_ROLES);
}

/** The member answer: the wire record and IsMobileRequired, the same whoever reads it (the member or staff). */
export async function memberAnswer(ctx: Pick<RouteContext, 'services'>, m: MemberRecord, tx?: SqlClient): Promise<Member> {
  return { ...toWire(m), IsMobileRequired: await isMobileRequired(ctx.services.identity, m.memberId, tx) };
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
