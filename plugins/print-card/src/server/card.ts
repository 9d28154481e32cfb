import { badRequest, notFound, type RouteContext } from '@portal/server';
import type { PrintCard } from '../contract';
import { printCardConfig } from './config';

export const NO_MEMBER_MESSAGE = 'Your account has no card of its own. Choose a member to act for first.';
export const NO_MEMBER_RECORD_MESSAGE = 'The member was not found.';

type Ctx = Pick<RouteContext, 'memberId' | 'services' | 'brand'>;

/** The acting member's card: the member's name and number, the vendor's data from configuration and the fixed data. */
export async function loadCard(ctx: Ctx): Promise<PrintCard & { memberId: number }> {
  if (ctx.memberId === null) throw badRequest(NO_MEMBER_MESSAGE);
  const member = await ctx.services.members.load(ctx.memberId);
  if (!member) throw notFound(NO_MEMBER_RECORD_MESSAGE);
  const config = printCardConfig();
  const vendor = config.vendors[String(member.pbmVendor ?? config.defaultVendor)] ?? config.vendors[String(config.defaultVendor)];
  if (!vendor) throw new Error('print-card: the default vendor is missing from the configuration');
  return {
    memberId: member.memberId,
    MemberNumber: member.memberNumber,
    FirstName: member.firstName,
    LastName: member.lastName,
    BIN: vendor.bin,
    PCN: vendor.pcn,
    GroupId: vendor.group,
    PBMVendor: vendor.name,
    VendorPhone: vendor.phone,
    SupportPhone: config.supportPhone,
    PayerNumber: config.payerNumber,
    Copay: config.copay,
    ProgramName: ctx.brand?.displayName ?? '',
  };
}
