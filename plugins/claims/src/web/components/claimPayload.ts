import { z } from 'zod';
import type { Claim } from '../../contract';

/**
 * The bill form's values and what it sends (POST create and update): kept free of React so the server's tests send
 * exactly this payload. An edit sends no bill review received date, and payment details only for SuperUser: the
 * server keeps a field left out as it is.
 */
const required = 'validation.required';
const claimFields = {
  MemberID: z.number().nullable(),
  ClaimNumber: z.string(),
  PayeeID: z.number().nullable(),
  PayeeName: z.string(),
  BillTypeID: z.number({ error: required }),
  ClaimTypeID: z.number({ error: required }),
  BilledAmount: z.string().min(1, required),
  SubmittedUNCAmount: z.string(),
  ServiceDateFrom: z.string({ error: required }).min(1, required),
  ServiceDateTo: z.string().nullable(),
  ReceivedDate: z.string().nullable(),
  PaidDate: z.string().nullable(),
  PaidAmount: z.string(),
  CheckNumber: z.string(),
};
const payeeGiven = (v: { PayeeID: number | null; PayeeName: string }) => v.PayeeID !== null || v.PayeeName.trim() !== '';
const payeeIssue = { path: ['PayeeName'], message: required };
export const claimFormSchema = z.object(claimFields).refine(payeeGiven, payeeIssue);
export type ClaimFormValues = z.infer<typeof claimFormSchema>;
/**
 * A new bill entered by staff not acting for a member names its member: the form asks for it (/claims-new). Checked on
 * the field itself, so it is said with the other fields' errors (an object's refinement waits for every field to pass).
 */
export const newClaimFormSchema = z
  .object({ ...claimFields, MemberID: claimFields.MemberID.refine((id) => id !== null, required) })
  .refine(payeeGiven, payeeIssue);

export function formValues(c: Claim | null): ClaimFormValues {
  return {
    MemberID: c?.MemberID ?? null,
    ClaimNumber: c?.ClaimNumber ?? '',
    PayeeID: c?.PayeeID ?? null,
    PayeeName: c?.PayeeID ? '' : (c?.PayeeName ?? ''),
    BillTypeID: c?.BillTypeID as number,
    ClaimTypeID: c?.ClaimTypeID ?? 5,
    BilledAmount: c ? c.BilledAmount.toFixed(2) : '',
    SubmittedUNCAmount: c?.SubmittedUNCAmount?.toFixed(2) ?? '',
    ServiceDateFrom: c?.ServiceDateFrom ?? '',
    ServiceDateTo: c?.ServiceDateTo ?? null,
    ReceivedDate: c?.ReceivedDate ?? null,
    PaidDate: c?.PaidDate ?? null,
    PaidAmount: c?.PaidAmount?.toFixed(2) ?? '',
    CheckNumber: c?.CheckNumber ?? '',
  };
}

/** The wire payload: empty text is absent. */
export function toPayload(v: ClaimFormValues, superUser: boolean) {
  const opt = (s: string) => (s.trim() === '' ? null : s.trim());
  return {
    MemberID: v.MemberID,
    ClaimNumber: opt(v.ClaimNumber),
    // A typed new payee name wins over a picked payee.
    PayeeID: opt(v.PayeeName) ? null : v.PayeeID,
    PayeeName: opt(v.PayeeName),
    BillTypeID: v.BillTypeID,
    ClaimTypeID: v.ClaimTypeID,
    BilledAmount: v.BilledAmount,
    SubmittedUNCAmount: opt(v.SubmittedUNCAmount),
    ServiceDateFrom: v.ServiceDateFrom,
    ServiceDateTo: v.ServiceDateTo,
    ReceivedDate: v.ReceivedDate,
    ...(superUser ? { PaidDate: v.PaidDate, PaidAmount: opt(v.PaidAmount), CheckNumber: opt(v.CheckNumber) } : {}),
  };
}
