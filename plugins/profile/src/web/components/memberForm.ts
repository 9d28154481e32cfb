import { dobSchema, isEmail, validationMessages as m } from '@portal/core';
import { z } from 'zod';
import { type GENDERS, type Member, type MemberSave, type PBM_VENDORS, PREFERRED_CONTACTS } from '../../contract';

const phoneText = z.string().refine((v) => v === '' || /^\d{10}$/.test(v), m.phone);

/**
 * The edit form's schema for one member. `member.IsMobileRequired` (the server's answer from the member's own roles,
 * spec 01 section 5) makes the mobile always required, whoever is signed in: the member, or staff acting for them.
 */
export function formSchema(member: Pick<Member, 'IsMobileRequired'>) {
  return z
    .object({
      FirstName: z.string().trim().min(1, m.required).max(100),
      LastName: z.string().trim().min(1, m.required).max(100),
      Email: z
        .string()
        .trim()
        .refine((v) => isEmail(v), m.email),
      DOB: z.string().refine((v) => v === '' || dobSchema.safeParse(v).success, m.dob),
      Gender: z.string().nullable(),
      PBMVendor: z.string().nullable(),
      HomePhone: phoneText,
      WorkPhone: phoneText,
      MobilePhone: phoneText.refine((v) => !v.startsWith('0'), m.mobileStartsWithZero),
      PreferredContactNumber: z.enum(PREFERRED_CONTACTS),
    })
    .superRefine((v, ctx) => {
      const preferred = member.IsMobileRequired ? 'Mobile' : v.PreferredContactNumber;
      const field = `${preferred}Phone` as 'HomePhone' | 'WorkPhone' | 'MobilePhone';
      if (v[field] === '') ctx.addIssue({ code: 'custom', message: m.required, path: [field] });
    });
}
export type FormValues = z.infer<ReturnType<typeof formSchema>>;

/**
 * The form's values from the member answer. A member whose rule forces Mobile (IsMobileRequired) may still have
 * another preferred contact stored from before a role change: the locked select shows Mobile, what the save sends.
 */
export const toForm = (x: Member): FormValues => ({
  FirstName: x.FirstName,
  LastName: x.LastName,
  Email: x.Email ?? '',
  DOB: x.DOBStr ?? '',
  Gender: x.Gender,
  PBMVendor: x.PBMVendor,
  HomePhone: x.HomePhone ?? '',
  WorkPhone: x.WorkPhone ?? '',
  MobilePhone: x.MobilePhone ?? '',
  PreferredContactNumber: x.IsMobileRequired ? 'Mobile' : x.PreferredContactNumber,
});

/** MM/DD/YYYY → YYYY-MM-DD. */
const isoOf = (dob: string) => (dob === '' ? null : `${dob.slice(6, 10)}-${dob.slice(0, 2)}-${dob.slice(3, 5)}`);

/** The save body from the form; the preferred contact is Mobile when the member's answer says IsMobileRequired. */
export const saveBodyOf = (member: Member, v: FormValues): MemberSave => ({
  MemberID: member.MemberID,
  Version: member.Version,
  FirstName: v.FirstName,
  LastName: v.LastName,
  Email: v.Email,
  DateOfBirth: isoOf(v.DOB),
  Gender: (v.Gender as (typeof GENDERS)[number] | null) || null,
  PBMVendor: (v.PBMVendor as (typeof PBM_VENDORS)[number] | null) || null,
  HomePhone: v.HomePhone || null,
  WorkPhone: v.WorkPhone || null,
  MobilePhone: v.MobilePhone || null,
  PreferredContactNumber: member.IsMobileRequired ? 'Mobile' : v.PreferredContactNumber,
});

/**
 * The note under a forced preferred contact: addressed to the member on their own profile, and about the member
 * when staff edit it (support's tab, or /member while impersonating); none when the member's mobile is optional.
 */
export function forcedNoteKey(member: Pick<Member, 'MemberID' | 'IsMobileRequired'>, viewerMemberId: number | null | undefined) {
  if (!member.IsMobileRequired) return null;
  return viewerMemberId === member.MemberID ? 'preferredForced' : 'preferredForcedMember';
}

/**
 * Whether a save renamed the signed-in member: the navigation bar shows their name (the identity's DisplayName), so the
 * identity is fetched again. Staff saving a member's profile, or acting for one, keep their own name there.
 */
export function renamesViewer(
  before: Pick<Member, 'MemberID' | 'FirstName' | 'LastName'>,
  saved: Pick<Member, 'FirstName' | 'LastName'>,
  viewerMemberId: number | null | undefined,
): boolean {
  if (viewerMemberId == null || viewerMemberId !== before.MemberID) return false;
  return before.FirstName !== saved.FirstName || before.LastName !== saved.LastName;
}
