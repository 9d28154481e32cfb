import { defineEndpoint } from '@portal/core';
import { z } from 'zod';

/** Prescription plan (spec 02 section 3): what a pharmacy needs to bill the plan. */
export const prescriptionPlanSchema = z.object({
  MemberNumber: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  BIN: z.string(),
  PCN: z.string(),
  GroupId: z.string(),
});
export type PrescriptionPlan = z.infer<typeof prescriptionPlanSchema>;

/** The whole card: the plan plus the vendor, its phone and the fixed data (support phone, payer number, copay). */
export const printCardSchema = prescriptionPlanSchema.extend({
  PBMVendor: z.string(),
  VendorPhone: z.string(),
  /** The member's brand's support line; '' when there is none to give (the card then shows no such row). */
  SupportPhone: z.string(),
  PayerNumber: z.string(),
  Copay: z.string(),
  /** The brand's name as printed on the card. */
  ProgramName: z.string(),
});
export type PrintCard = z.infer<typeof printCardSchema>;

export const PrintCardApi = {
  /** The acting member's card. */
  getByID: defineEndpoint({ method: 'GET', path: '/api/printcard/getByID', response: printCardSchema }),
  /** The acting member's prescription plan. */
  prescriptionPlan: defineEndpoint({ method: 'GET', path: '/api/printcard/GetPrescriptionPlanInfo', response: prescriptionPlanSchema }),
  /** The same card as a PDF (front and back). */
  download: defineEndpoint({ method: 'GET', path: '/api/printcard/download', answer: 'file' }),
} as const;
