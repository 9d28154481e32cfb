import { describe, expect, it } from 'vitest';
import { changeStatusSchema, claimCreateSchema, fromCents, moneySchema, toCents } from './contract';

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
    expect(changeStatusSchema.safeParse({ Ids: [1, 2], ClaimStatusID: 2 }).success).toBe(true);
    expect(changeStatusSchema.safeParse({ Ids: [], ClaimStatusID: 2 }).error?.issues[0]?.message).toBe('choose at least one bill');
    expect(changeStatusSchema.safeParse({ Ids: [1], ClaimStatusID: 99 }).error?.issues[0]?.message).toBe('is not a known claim status');
    expect(changeStatusSchema.safeParse({ Ids: Array.from({ length: 501 }, (_, i) => i + 1), ClaimStatusID: 2 }).success).toBe(false);
  });
});
