import { describe, expect, it } from 'vitest';
import { claimFormSchema, formValues, newClaimFormSchema } from './claimPayload';

const filled = { ...formValues(null), BillTypeID: 1, BilledAmount: '12.50', ServiceDateFrom: '2026-11-02', PayeeName: 'Clinic' };

describe('the bill form', () => {
  it('asks a new bill for its member: no member ID is a required-field error on MemberID', () => {
    const r = newClaimFormSchema.safeParse(filled);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['MemberID', 'validation.required']]);
    expect(newClaimFormSchema.safeParse({ ...filled, MemberID: 14 }).success).toBe(true);
    // Said with the other fields' errors when the whole form is empty, not only once they pass.
    const empty = newClaimFormSchema.safeParse(formValues(null));
    expect(empty.error?.issues.map((i) => i.path.join('.'))).toEqual(expect.arrayContaining(['MemberID', 'BillTypeID', 'BilledAmount', 'ServiceDateFrom']));
  });

  it('does not ask an edited bill (or one entered for the member staff act for) for a member', () => {
    expect(claimFormSchema.safeParse(filled).success).toBe(true);
  });
});
