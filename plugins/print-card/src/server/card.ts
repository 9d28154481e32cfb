import { type BrandManifest, type Message, msg } from '@portal/core';
import { badRequest, conflict, notFound, type RouteContext } from '@portal/server';
import type { PrintCard } from '../contract';
import { printCardConfig } from './config';

/** A member-role login with no member record (only staff act for a member, and staff have no print screen). */
export const NO_MEMBER_MESSAGE = 'Your account has no member record yet, so it has no card. Please call us at {{phone}}.';
/** The same with no phone to give. */
export const NO_MEMBER_NO_PHONE_MESSAGE = 'Your account has no member record yet, so it has no card.';
export const NO_MEMBER_RECORD_MESSAGE = 'The member was not found.';
/** The membership has ended: the card would carry billing data for a plan the member no longer has. */
export const TERMINATED_MESSAGE =
  'Your membership has ended, so your prescription card can no longer be printed or downloaded. Questions? Call us at {{phone}}.';
/** The same with no phone to give. */
export const TERMINATED_NO_PHONE_MESSAGE = 'Your membership has ended, so your prescription card can no longer be printed or downloaded.';
/** The member's PBM vendor is not in the configuration: no card rather than another vendor's BIN, PCN and group. */
export const UNKNOWN_VENDOR_MESSAGE =
  'Your prescription card cannot be shown because your pharmacy benefit manager is not set up with us. Please call us at {{phone}}.';
/** The same with no phone to give. */
export const UNKNOWN_VENDOR_NO_PHONE_MESSAGE = 'Your prescription card cannot be shown because your pharmacy benefit manager is not set up with us.';

/**
 * The support phone a brand gives (its manifest's `contacts.phone`), or null: no brand, or a phone of blanks. A brand's
 * manifest requires a phone, so null is a safeguard: a message then leaves out the sentence that would give one, never
 * saying "call us at .".
 */
export const supportPhone = (brand: Pick<BrandManifest, 'contacts'> | null | undefined): string | null => brand?.contacts.phone.trim() || null;

/** A message that ends by giving the phone to call (`withPhone`, a {{phone}} template), or the one without that sentence. */
export const callUs = (withPhone: string, withoutPhone: string, phone: string | null): Message => (phone ? msg(withPhone, { phone }) : withoutPhone);

type Ctx = Pick<RouteContext, 'memberId' | 'services' | 'brand' | 'req'>;

/**
 * The acting member's card: the member's name and number, the vendor's data and the fixed data from configuration, the
 * support phone and program name from the member's brand (also when the member signs in on another brand's site; the
 * site's only for a member of a brand this API does not serve). Refused (409) once the membership has ended, and for a
 * PBM vendor the configuration does not know; a refusal without a phone to give leaves out the sentence giving it.
 */
export async function loadCard(ctx: Ctx): Promise<PrintCard & { memberId: number; brand: BrandManifest | null }> {
  // No member record, so no member's brand: the site's phone.
  if (ctx.memberId === null) throw badRequest(callUs(NO_MEMBER_MESSAGE, NO_MEMBER_NO_PHONE_MESSAGE, supportPhone(ctx.brand)));
  const member = await ctx.services.members.load(ctx.memberId);
  if (!member) throw notFound(NO_MEMBER_RECORD_MESSAGE);
  const brand = ctx.services.brands.byId(member.brand) ?? ctx.brand;
  const phone = supportPhone(brand);
  if (await ctx.services.members.isTerminated(member.memberId)) throw conflict(callUs(TERMINATED_MESSAGE, TERMINATED_NO_PHONE_MESSAGE, phone));
  const config = printCardConfig();
  const vendorId = member.pbmVendor ?? config.defaultVendor;
  const vendor = config.vendors[String(vendorId)];
  if (!vendor) {
    ctx.req.log.error({ memberId: member.memberId, pbmVendor: vendorId }, 'print-card: the member has a PBM vendor the configuration does not know');
    throw conflict(callUs(UNKNOWN_VENDOR_MESSAGE, UNKNOWN_VENDOR_NO_PHONE_MESSAGE, phone));
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
    SupportPhone: phone ?? '',
    PayerNumber: config.payerNumber,
    Copay: config.copay,
    ProgramName: brand?.displayName ?? '',
  };
}
