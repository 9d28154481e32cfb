import { isEmail, validationMessages as m, zipSchema } from '@portal/core';
import { type Address, type Member, PREFERRED_CONTACTS, type registrationSaveSchema } from '@portal/plugin-profile/contract';
import { z } from 'zod';
import { REGISTRATION_QUESTION_OPTIONS, type RegistrationQuestionOption } from '../../contract';

const optionalPhone = z.string().refine((v) => v === '' || /^\d{10}$/.test(v), m.phone);
const required = (max: number) => z.string().trim().min(1, m.required).max(max);

/** Wizard step 1 (spec 01 section 5) with the member rules of the profile plugin. */
export function personalSchema(forcedMobile: boolean) {
  return z
    .object({
      FirstName: required(100),
      LastName: required(100),
      Email: z
        .string()
        .trim()
        .refine((v) => isEmail(v), m.email),
      MobilePhone: z
        .string()
        .refine((v) => v !== '', m.required)
        .refine((v) => v === '' || /^\d{10}$/.test(v), m.phone)
        .refine((v) => !v.startsWith('0'), m.mobileStartsWithZero),
      HomePhone: optionalPhone,
      WorkPhone: optionalPhone,
      PreferredContactNumber: z.enum(PREFERRED_CONTACTS, { error: m.required }),
      Address1: required(200),
      Address2: z.string().trim().max(200),
      City: required(100),
      State: z.string({ error: m.required }).min(1, m.required),
      Zip: zipSchema,
      Question: z.enum(REGISTRATION_QUESTION_OPTIONS).nullable(),
    })
    .superRefine((v, ctx) => {
      const preferred = forcedMobile ? 'Mobile' : v.PreferredContactNumber;
      if (preferred === 'Home' && v.HomePhone === '') ctx.addIssue({ code: 'custom', message: m.required, path: ['HomePhone'] });
      if (preferred === 'Work' && v.WorkPhone === '') ctx.addIssue({ code: 'custom', message: m.required, path: ['WorkPhone'] });
    });
}
export type PersonalValues = z.infer<ReturnType<typeof personalSchema>>;

/**
 * What the Personal Info form was started from: the member, the address it shows (the current one, else the first),
 * the Version of the current address (null: none; undefined: the addresses did not load, so none is checked) and the
 * stored answer to the question. The form keeps it while it is open: a refetch of the member or the addresses (someone
 * else's Version) neither draws the form anew nor changes the Versions the save sends; only Reload, or a save of the
 * profile that went through, replaces it.
 */
export interface PersonalStart {
  member: Member;
  address: Address | undefined;
  addressVersion: number | null | undefined;
  question: RegistrationQuestionOption | null;
}

export function personalStart(
  member: Member,
  addresses: readonly Address[] | undefined,
  question: RegistrationQuestionOption | null | undefined,
): PersonalStart {
  const current = addresses?.find((a) => a.IsCurrent);
  return {
    member,
    address: current ?? addresses?.[0],
    addressVersion: addresses ? (current?.Version ?? null) : undefined,
    question: question ?? null,
  };
}

/**
 * The start once the profile was saved: the saved member and the address the save made current, so a press after a
 * later step failed (the question, the registration step) sends the Versions the server has now, not a false 409.
 */
export const afterProfileSaved = (start: PersonalStart, saved: { Member: Member; Address: Address }): PersonalStart => ({
  ...start,
  member: saved.Member,
  address: saved.Address,
  addressVersion: saved.Address.Version,
});

export function personalDefaults(start: PersonalStart, forcedMobile: boolean): PersonalValues {
  const { member: x, address } = start;
  return {
    FirstName: x.FirstName,
    LastName: x.LastName,
    Email: x.Email ?? '',
    MobilePhone: x.MobilePhone ?? '',
    HomePhone: x.HomePhone ?? '',
    WorkPhone: x.WorkPhone ?? '',
    PreferredContactNumber: forcedMobile ? 'Mobile' : x.PreferredContactNumber,
    Address1: address?.Address1 ?? '',
    Address2: address?.Address2 ?? '',
    City: address?.City ?? '',
    State: address?.State ?? '',
    Zip: address?.Zip ?? '',
    Question: start.question,
  };
}

type RegistrationSave = z.input<typeof registrationSaveSchema>;

/** The registration-save body: the typed values at the start's Versions (the member's and the current address's). */
export function personalSaveBody(start: PersonalStart, v: PersonalValues, forcedMobile: boolean): RegistrationSave {
  const current = start.member;
  return {
    MemberID: current.MemberID,
    Version: current.Version,
    FirstName: v.FirstName,
    LastName: v.LastName,
    Email: v.Email,
    DateOfBirth: current.DateOfBirth,
    Gender: current.Gender as 'F' | 'M' | 'X' | null,
    PBMVendor: current.PBMVendor,
    MobilePhone: v.MobilePhone,
    HomePhone: v.HomePhone || null,
    WorkPhone: v.WorkPhone || null,
    PreferredContactNumber: forcedMobile ? 'Mobile' : v.PreferredContactNumber,
    Address1: v.Address1,
    Address2: v.Address2 || null,
    City: v.City,
    State: v.State,
    Zip: v.Zip,
    // The address the form showed: one changed since (by staff, another tab) is a 409, not overwritten. Addresses
    // that did not load are not checked (the form showed none of them).
    ...(start.addressVersion !== undefined ? { AddressVersion: start.addressVersion } : {}),
  };
}

/** The calls a Personal Info save makes, in order. */
export interface PersonalSaveSteps {
  saveProfile: (body: RegistrationSave) => Promise<{ Member: Member; Address: Address }>;
  /** The profile was saved: stored at once (the cached member, the form's start), before anything else can fail. */
  profileSaved: (saved: { Member: Member; Address: Address }) => Promise<void> | void;
  saveQuestion: (question: RegistrationQuestionOption) => Promise<unknown>;
  raiseStep: () => Promise<unknown>;
}

/**
 * Saves the step: the profile (with the address), then, once it is stored, the question's answer and the registration
 * step. A failure after the profile save leaves the saved member stored, so the next press sends its Version.
 */
export async function savePersonal(start: PersonalStart, v: PersonalValues, forcedMobile: boolean, steps: PersonalSaveSteps): Promise<void> {
  const saved = await steps.saveProfile(personalSaveBody(start, v, forcedMobile));
  await steps.profileSaved(saved);
  if (v.Question) await steps.saveQuestion(v.Question);
  await steps.raiseStep();
}
