import type { BrandManifest } from '@portal/core';
import { badRequest, notFound, type RouteContext } from '@portal/server';
import type { PrintCard } from '../contract';
import { printCardConfig } from './config';

export const NO_MEMBER_MESSAGE = 'Your account has no card of its own. Choose a member to act for first.';
export const NO_MEMBER_RECORD_MESSAGE = 'The member was not found.';

type Ctx = Pick<RouteContext, 'memberId' | 'services' | 'brand'>;

/**
 * The acting member's card: the member's name and number, the vendor's data and the fixed data from configuration, the
 * support phone and program name from the member's brand.
 */
export async function loadCard(ctx: Ctx): Promise<PrintCard & { memberId: number; brand: BrandManifest | null }> {
  if (ctx.memberId === null) throw badRequest(NO_MEMBER_MESSAGE);
  const member = await ctx.services.members.load(ctx.memberId);
  if (!member) throw notFound(NO_MEMBER_RECORD_MESSAGE);
  const config = printCardConfig();
  const brand = ctx.services.brands.byId(member.brand) ?? ctx.brand;
  const vendor = config.vendors[String(member.pbmVendor ?? config.defaultVendor)] ?? config.vendors[String(config.defaultVendor)];
  if (!vendor) throw new Error('print-card: the default vendor is missing from the configuration');
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
    SupportPhone: brand?.contacts.phone ?? '',
    PayerNumber: config.payerNumber,
    Copay: config.copay,
    ProgramName: brand?.displayName ?? '',
  };
}
