import { hasAnyRole, IMPERSONATOR_ROLES } from '@portal/core';

/**
 * The member's own bills ('trends.memberBills': the member, or staff acting for one) are left out for a user who also
 * sees the finance bills ('trends.bills', a SuperUser): acting for a member, those are the same member's bills with
 * the claims too; acting for nobody, every member's.
 */
export const OVERLAPPED: Readonly<Record<string, string>> = { 'trends.memberBills': 'trends.bills' };

export function withoutOverlaps<G extends { id: string }>(groups: readonly G[]): G[] {
  const ids = new Set(groups.map((g) => g.id));
  return groups.filter((g) => {
    const wider = OVERLAPPED[g.id];
    return wider === undefined || !ids.has(wider);
  });
}

/**
 * The parts of a page (trend groups, dashboard widgets) that have something to show this user: acting for nobody
 * (`acting` null), a part of one member's data (`memberData`) has no member and is left out. `askForMember`: parts were
 * left out and the user may act for a member, so the page says once how to choose one (each part said so before, one
 * hint per part). The pages ask through `useMemberDataParts`.
 */
export function memberDataParts<P extends { memberData?: boolean }>(
  offered: readonly P[],
  acting: number | null | undefined,
  roles: readonly string[],
): { parts: readonly P[]; askForMember: boolean } {
  const parts = acting === null ? offered.filter((p) => !p.memberData) : offered;
  return { parts, askForMember: parts.length < offered.length && hasAnyRole(roles, IMPERSONATOR_ROLES) };
}
