import { randomUUID } from 'node:crypto';
import { isWholeCents } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { amountSchema, createSchema } from './contract';
import { MAX_AMOUNT } from './rules';

const body = (Amount: unknown) => ({
  type: 'application/pdf',
  name: 'r.pdf',
  ext: 'pdf',
  UploadId: randomUUID(),
  BatchId: randomUUID(),
  reimbursement: { type: 'application/pdf', FileName: 'r.pdf', Extension: 'pdf', ServiceDate: '2026-01-10', Amount },
});
const issuesOf = (Amount: unknown) => createSchema.safeParse(body(Amount)).error?.issues.map((i) => [i.path.join('.'), i.message]);

describe('reimbursement contract: the amount', () => {
  it('takes dollars with up to two decimals, as text or a number, unchanged', () => {
    expect(amountSchema.parse('42.50')).toBe(42.5);
    expect(amountSchema.parse('$1,000.05')).toBe(1000.05);
    expect(amountSchema.parse('12,5')).toBe(12.5);
    expect(amountSchema.parse(10.01)).toBe(10.01);
    expect(amountSchema.parse(MAX_AMOUNT - 0.01)).toBe(99_999_999.99);
    expect(createSchema.parse(body('10.05')).reimbursement.Amount).toBe(10.05);
  });

  it('refuses more than two decimals instead of rounding them (10.005 is not 10.01)', () => {
    for (const Amount of ['10.005', 10.005, '1.001', 0.001, '$1,000.999']) {
      expect(amountSchema.safeParse(Amount).success, String(Amount)).toBe(false);
      expect(issuesOf(Amount), String(Amount)).toEqual([['reimbursement.Amount', 'must have at most 2 decimals']]);
    }
    expect(isWholeCents(10.005)).toBe(false);
    expect(isWholeCents(10.5)).toBe(true);
  });

  it('refuses an amount over the cap as too large, and text that is no amount', () => {
    expect(issuesOf('100000000.01')).toEqual([['reimbursement.Amount', 'is too large']]);
    expect(issuesOf(1e20)).toEqual([['reimbursement.Amount', 'is too large']]);
    expect(amountSchema.safeParse('12 dollars').error?.issues.map((i) => i.message)).toEqual(['validation.money']);
    expect(createSchema.safeParse(body('12 dollars')).success).toBe(false);
  });

  it("leaves an empty amount to the spec's rule (the handler answers 'Please input service date and amount.')", () => {
    expect(createSchema.parse(body('')).reimbursement.Amount).toBe('');
  });
});
