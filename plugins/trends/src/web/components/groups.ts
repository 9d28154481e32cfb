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
