import { describe, expect, it } from 'vitest';
import { memberDataParts } from './groups';

type Part = { id: string; memberData?: boolean };
const parts: Part[] = [{ id: 'claims.recent' }, { id: 'ledger.recent', memberData: true }, { id: 'ledger.balanceByMonth', memberData: true }];
const claimsOnly: Part[] = [{ id: 'claims.recent' }];

describe('the parts of one member data a page shows', () => {
  it('leaves them out for staff acting for nobody and asks them once to choose a member', () => {
    expect(memberDataParts(parts, null, ['CareSupport'])).toEqual({ parts: [{ id: 'claims.recent' }], askForMember: true });
    expect(memberDataParts(parts, null, ['SuperUser']).askForMember).toBe(true);
  });

  it('leaves them out without asking a user who may not act for a member', () => {
    expect(memberDataParts(parts, null, ['CareGuardFinance'])).toEqual({ parts: [{ id: 'claims.recent' }], askForMember: false });
  });

  it('shows every part for a member, for staff acting for one, and while the identity is still loading', () => {
    for (const acting of [42, undefined]) expect(memberDataParts(parts, acting, ['CareSupport'])).toEqual({ parts, askForMember: false });
  });

  it('does not ask when nothing was left out', () => {
    expect(memberDataParts(claimsOnly, null, ['SuperUser'])).toEqual({ parts: claimsOnly, askForMember: false });
  });
});
