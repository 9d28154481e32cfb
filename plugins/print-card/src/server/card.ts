import { type BrandManifest, msg } from '@portal/core';
import { badRequest, conflict, notFound, type RouteContext } from '@portal/server';
import type { PrintCard } from '../contract';
import { printCardConfig } from './config';

/** A member-role login with no member record (only staff act for a member, and staff have no print screen). */
export const NO_MEMBER_MESSAGE = 'Your account has no member record yet, so it has no card. Please call us at {{phone}}.';
export const NO_MEMBER_RECORD_MESSAGE = 'The member was not found.';
/** The membership has ended: the card would carry billing data for a plan the member no longer has. */
export const TERMINATED_MESSAGE =
  'Your membership has ended, so your prescription card can no longer be printed or downloaded. Questions? Call us at {{phone}}.';
/** The member's PBM vendor is not in the configuration: no card rather than another vendor's BIN, PCN and group. */
export const UNKNOWN_VENDOR_MESSAGE =
  'Your prescription card cannot be shown because your pharmacy benefit manager is not set up with us. Please call us at {{phone}}.';

type Ctx = Pick<RouteContext, 'memberId' | 'services' | 'brand' | 'req'>;

/**
 * The acting member's card: the member's name and number, the vendor's data and the fixed data from configuration, the
 * support phone and program name from the member's brand. Refused (409) once the membership has ended, and for a PBM
 * vendor the configuration does not know.
 */
export async function loadCard(ctx: Ctx): Promise<PrintCard & { memberId: number; brand: BrandManifest | null }> {
  if (ctx.memberId === null) throw badRequest(msg(NO_MEMBER_MESSAGE, { phone: ctx.brand?.contacts.phone ?? '' }));
  const member = await ctx.services.members.load(ctx.memberId);
  if (!member) throw notFound(NO_MEMBER_RECORD_MESSAGE);
  const brand = ctx.services.brands.byId(member.brand) ?? ctx.brand;
  const phone = brand?.contacts.phone ?? '';
  if (await ctx.services.members.isTerminated(member.memberId)) throw conflict(msg(TERMINATED_MESSAGE, { phone }));
  const config = printCardConfig();
  const vendorId = member.pbmVendor ?? config.defaultVendor;
  const vendor = config.vendors[String(vendorId)];
  if (!vendor) {
    ctx.req.log.error({ memberId: member.memberId, pbmVendor: vendorId }, 'print-card: the member has a PBM vendor the configuration does not know');
    throw conflict(msg(UNKNOWN_VENDOR_MESSAGE, { phone }));
  }
  return {
    memberId: member.memberId,
    brand,
    MemberNumber: member.memberNumber,
    FirstName: member.firstName,
    LastName: member.lastName,
    BIN: vendor.bin,
    PCN: vendor.pcn,
    GroupId: vendor.group,
    PBMVendor: vendor.name,
    VendorPhone: vendor.phone,
    // The brand's own support line and name (its manifest), the member's brand also when staff act from another site.
    SupportPhone: phone,
    PayerNumber: config.payerNumber,
    Copay: config.copay,
    ProgramName: brand?.displayName ?? '',
  };
}
