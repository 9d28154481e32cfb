import { describe, expect, it } from 'vitest';
import type { Member } from '../../contract';
import { forcedNoteKey, formSchema, renamesViewer, saveBodyOf, toForm } from './memberForm';

const member = (change: Partial<Member> = {}): Member => ({
  MemberID: 7,
  MemberNumber: 'M0000007',
  FirstName: 'Ada',
  LastName: 'Lovelace',
  Email: 'ada@example.com',
  DateOfBirth: '1980-02-29',
  DOBStr: '02/29/1980',
  Gender: 'F',
  HomePhone: '3125550142',
  WorkPhone: null,
  MobilePhone: '6465551001',
  PreferredContactNumber: 'Home',
  IsPhoneValidated: false,
  IsMSA: false,
  PBMVendor: null,
  ApprovedDate: null,
  TerminationDate: null,
  TerminatedBy: null,
  Version: 3,
  IsMobileRequired: false,
  ...change,
});
const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe("the profile form follows the member's IsMobileRequired, not the signed-in user's roles", () => {
  it('requires the mobile and sends Mobile as the preferred contact when the member answer says IsMobileRequired', () => {
    const m = member({ IsMobileRequired: true });
    const values = { ...toForm(m), MobilePhone: '', PreferredContactNumber: 'Home' as const };
    expect(issues(formSchema(m).safeParse(values))).toEqual(['MobilePhone: validation.required']);
    const withMobile = { ...values, MobilePhone: '6465551001' };
    expect(formSchema(m).safeParse(withMobile).success).toBe(true);
    expect(saveBodyOf(m, withMobile).PreferredContactNumber).toBe('Mobile');
  });

  it('leaves the mobile optional and keeps the chosen preferred contact when it does not', () => {
    const m = member({ IsMobileRequired: false });
    const values = { ...toForm(m), MobilePhone: '', PreferredContactNumber: 'Home' as const };
    expect(formSchema(m).safeParse(values).success).toBe(true);
    expect(saveBodyOf(m, values)).toMatchObject({ PreferredContactNumber: 'Home', MobilePhone: null, HomePhone: '3125550142' });
    // The preferred number is still required.
    expect(issues(formSchema(m).safeParse({ ...values, HomePhone: '' }))).toEqual(['HomePhone: validation.required']);
  });

  it('opens the locked preferred contact on Mobile for a forced member whose stored choice is another (a role changed since)', () => {
    expect(toForm(member({ IsMobileRequired: true, PreferredContactNumber: 'Home' })).PreferredContactNumber).toBe('Mobile');
    expect(toForm(member({ IsMobileRequired: false, PreferredContactNumber: 'Home' })).PreferredContactNumber).toBe('Home');
  });

  it('sends the member id, Version and an ISO date of birth', () => {
    const m = member();
    expect(saveBodyOf(m, toForm(m))).toMatchObject({ MemberID: 7, Version: 3, DateOfBirth: '1980-02-29', Gender: 'F', WorkPhone: null });
  });

  it('words the forced-Mobile note for the member on their own profile and about the member for staff', () => {
    expect(forcedNoteKey(member({ IsMobileRequired: true }), 7)).toBe('preferredForced');
    expect(forcedNoteKey(member({ IsMobileRequired: true }), null)).toBe('preferredForcedMember');
    expect(forcedNoteKey(member({ IsMobileRequired: false }), 7)).toBeNull();
  });
});

describe('renamesViewer', () => {
  const before = { MemberID: 7, FirstName: 'Ann', LastName: 'Lee' };
  it('is true when the signed-in member saved a new first or last name on their own profile', () => {
    expect(renamesViewer(before, { FirstName: 'Anne', LastName: 'Lee' }, 7)).toBe(true);
    expect(renamesViewer(before, { FirstName: 'Ann', LastName: 'Smith' }, 7)).toBe(true);
  });
  it('is false when the name did not change, or the profile is not the viewer’s (staff, or acting for a member)', () => {
    expect(renamesViewer(before, { FirstName: 'Ann', LastName: 'Lee' }, 7)).toBe(false);
    expect(renamesViewer(before, { FirstName: 'Anne', LastName: 'Lee' }, 8)).toBe(false);
    expect(renamesViewer(before, { FirstName: 'Anne', LastName: 'Lee' }, null)).toBe(false);
  });
});
