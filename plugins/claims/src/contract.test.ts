import { describe, expect, it } from 'vitest';
import {
  ClaimsApi,
  changeStatusSchema,
  claimCreateSchema,
  claimIdLookup,
  claimSchema,
  claimSearchSchema,
  claimUpdateSchema,
  detailsBodySchema,
  fromCents,
  idParamsSchema,
  moneySchema,
  toCents,
} from './contract';

describe('claims contract', () => {
  it('carries money as dollars with at most 2 decimals, stored as cents', () => {
    expect(moneySchema.parse('1,234.50')).toBe(1234.5);
    expect(moneySchema.parse(0.1 + 0.2)).toBeCloseTo(0.3);
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(1.005)).toBe(101);
    expect(fromCents(1999)).toBe(19.99);
    expect(moneySchema.safeParse(1.234).success).toBe(false);
    expect(moneySchema.safeParse(-1).success).toBe(false);
    expect(moneySchema.safeParse('abc').success).toBe(false);
  });

  it('reads money text as the web does, and refuses text that only JavaScript reads as a number', () => {
    expect(moneySchema.parse('$12,5')).toBe(12.5);
    expect(moneySchema.parse('1,000')).toBe(1000);
    for (const text of ['0x10', '1e2', 'Infinity', '12 dollars', '0b11']) expect(moneySchema.safeParse(text).success, text).toBe(false);
  });

  it('needs a payee and an ordered service period for a new bill', () => {
    const base = { BillTypeID: 21, BilledAmount: 12.5, ServiceDateFrom: '2025-01-10' };
    expect(claimCreateSchema.safeParse({ ...base, PayeeID: 1 }).success).toBe(true);
    expect(claimCreateSchema.safeParse({ ...base, PayeeName: 'New Pharmacy' }).success).toBe(true);
    const noPayee = claimCreateSchema.safeParse(base);
    expect(noPayee.error?.issues[0]?.message).toBe('choose a payee or enter a payee name');
    const backwards = claimCreateSchema.safeParse({ ...base, PayeeID: 1, ServiceDateTo: '2025-01-01' });
    expect(backwards.error?.issues[0]?.message).toBe('must not be before ServiceDateFrom');
  });

  it('limits a status change to known statuses and a bounded list of ids', () => {
    expect(changeStatusSchema.safeParse({ Ids: [1, 2], NewClaimStatusID: 2 }).success).toBe(true);
    expect(changeStatusSchema.safeParse({ Ids: [], NewClaimStatusID: 2 }).error?.issues[0]?.message).toBe('choose at least one bill');
    expect(changeStatusSchema.safeParse({ Ids: [1], NewClaimStatusID: 99 }).error?.issues[0]?.message).toBe('is not a known claim status');
    expect(changeStatusSchema.safeParse({ Ids: Array.from({ length: 501 }, (_, i) => i + 1), NewClaimStatusID: 2 }).success).toBe(false);
  });

  it("takes a status change's bills as ids, or as ids with the Version the caller saw, and refuses anything else", () => {
    expect(changeStatusSchema.parse({ Ids: [7, { ID: '8', Version: '3' }], NewClaimStatusID: 2 }).Ids).toEqual([7, { ID: 8, Version: 3 }]);
    for (const bad of [{ ID: 8 }, { Version: 3 }, { ID: 8, Version: 0 }, { ID: 8, Version: true }, { ID: '0x8', Version: 1 }, { ID: 8, Version: '1e1' }]) {
      const r = changeStatusSchema.safeParse({ Ids: [1, bad], NewClaimStatusID: 2 });
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error?.issues[0]).toMatchObject({ path: ['Ids', 1], message: "must be a claim id, or an object with the bill's ID and Version" });
    }
  });

  it("takes a create's optional IdempotencyKey as the kernel's createKeySchema: 8 to 100 letters, digits or - _ . :", () => {
    const bill = { MemberID: 1, PayeeID: 1, BillTypeID: 21, BilledAmount: 1, ServiceDateFrom: '2025-01-10' };
    expect(claimCreateSchema.parse(bill).IdempotencyKey).toBeUndefined();
    expect(claimCreateSchema.parse({ ...bill, IdempotencyKey: ' claim-1a2b3c4d ' }).IdempotencyKey).toBe('claim-1a2b3c4d');
    expect(claimCreateSchema.parse({ ...bill, IdempotencyKey: `a:b.c_d-${'x'.repeat(92)}` }).IdempotencyKey).toHaveLength(100);
    for (const bad of ['short', 'x'.repeat(101), 'has spaces in it', 'claim/1a2b3c4d', 42]) {
      expect(claimCreateSchema.safeParse({ ...bill, IdempotencyKey: bad }).error?.issues[0]?.path, JSON.stringify(bad)).toEqual(['IdempotencyKey']);
    }
  });

  it('takes ids as positive integers written in decimal, and nothing else', () => {
    expect(idParamsSchema.parse({ id: '42' })).toEqual({ id: 42 });
    expect(detailsBodySchema.parse({ ClaimID: 42 })).toEqual({ ClaimID: 42 });
    expect(changeStatusSchema.parse({ Ids: ['7', 8], NewClaimStatusID: '2' })).toMatchObject({ Ids: [7, 8], NewClaimStatusID: 2 });
    for (const bad of [true, [2], '0x10', '1e1', '13.0', -1, 0, 1.5, '', ' 7', null, 2_147_483_648]) {
      expect(idParamsSchema.safeParse({ id: bad }).success, JSON.stringify(bad)).toBe(false);
      expect(detailsBodySchema.safeParse({ ClaimID: bad }).success, JSON.stringify(bad)).toBe(false);
      expect(changeStatusSchema.safeParse({ Ids: [bad], NewClaimStatusID: 2 }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(changeStatusSchema.safeParse({ Ids: [1], NewClaimStatusID: true }).success).toBe(false);
    // Optional id filters: '', 0 and null are absent; other forms are refused.
    expect(claimSearchSchema.parse({ MemberID: '', ClaimID: 0, PayeeID: null })).toMatchObject({ MemberID: null, ClaimID: null, PayeeID: null });
    expect(claimSearchSchema.safeParse({ MemberID: -4 }).error?.issues[0]?.message).toBe('must be positive');
    expect(claimSearchSchema.safeParse({ MemberID: '1e1' }).success).toBe(false);
    const bill = { ClaimID: 3, Version: 1, PayeeID: 1, BillTypeID: 21, BilledAmount: 1, ServiceDateFrom: '2025-01-10' };
    expect(claimUpdateSchema.safeParse(bill).success).toBe(true);
    expect(claimUpdateSchema.safeParse({ ...bill, Version: true }).success).toBe(false);
    expect(claimUpdateSchema.safeParse({ ...bill, Version: undefined }).error?.issues[0]?.message).toBe('is required (the version the bill was read at)');
  });

  it('answers exactly: a bill has every field, null for no value, and nothing else', () => {
    const bill = {
      ClaimID: 1,
      ClaimNumber: 'CL26000001',
      PayeeName: 'LabCorp',
      PayeeID: null,
      ClaimStatusID: 1,
      DisplayStatusID: 1,
      BillTypeID: 21,
      ClaimTypeID: 5,
      BilledAmount: 12.5,
      SubmittedUNCAmount: null,
      ServiceDateFrom: '2026-01-02',
      ServiceDateTo: null,
      ReceivedDate: '2026-01-05',
      BillReviewReceivedDate: null,
      PaidDate: null,
      PaidAmount: null,
      CheckNumber: null,
      MemberID: 4,
      MemberNumber: 'M1',
      MemberName: 'Ann Lee',
      Version: 1,
    };
    expect(claimSchema.safeParse(bill).success).toBe(true);
    expect(claimSchema.safeParse({ ...bill, __total: 3 }).success).toBe(false);
    const { PaidDate: _, ...missing } = bill;
    expect(claimSchema.safeParse(missing).success).toBe(false);
    expect(claimSchema.safeParse({ ...bill, BilledAmount: '12.50' }).success).toBe(false);
    expect(claimSchema.safeParse({ ...bill, ReceivedDate: '2026-01-05T00:00:00.000Z' }).success).toBe(false);
    expect(ClaimsApi.getById).toMatchObject({ method: 'GET', path: '/api/claims/getById/:id', response: claimSchema });
  });
});

describe('claim-id look-up (spec 02 section 5: more than 1 character)', () => {
  it('asks for a bill number of 2 characters or more', () => {
    expect(claimIdLookup('12')).toBe(12);
    expect(claimIdLookup(' 557 ')).toBe(557);
  });
  it('refuses one character, words, signs, zero and numbers past the safe range', () => {
    for (const text of ['', '7', ' 7 ', 'ab', '1a', '-12', '1.5', '00', '99999999999999999999']) expect(claimIdLookup(text), text).toBeNull();
  });
});
