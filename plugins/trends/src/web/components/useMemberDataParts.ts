import { useActingMemberId, useRoles } from '@portal/web';
import { memberDataParts } from './groups';

/** `memberDataParts` for the signed-in user and the member they act for. */
export function useMemberDataParts<P extends { memberData?: boolean }>(offered: readonly P[]) {
  return memberDataParts(offered, useActingMemberId(), useRoles());
}
