import { SubmissionKeys } from '@portal/web';
import { describe, expect, it, vi } from 'vitest';
import { saveQuoteSchema } from '../contract';
import { emptyBenefit, emptyValues, fromSaved, toSaveBody, withCreateKey } from './values';

// The kernel's submission keys alone: the whole '@portal/web' index brings styles a unit test cannot load.
vi.mock('@portal/web', () => import('../../../../platform/web/src/api/submissionKeys'));

describe('workbench values', () => {
  it('turn blank fields into nulls and invalid dates into null, giving a body the contract accepts', () => {
    const values = emptyValues();
    values.Case.PurchaseDate = '2026-01-15';
    values.Quote.Benefits = [{ ...emptyBenefit(), AnnuityType: 'LS', StartDate: '06/01/2026', PremiumAmount: 1000 }];
    values.Picked = { LC01: true, LC02: false };
    const body = toSaveBody(values, null, ['LC02', 'LC01']);
    expect(body.CompanyIds).toEqual(['LC01']);
    expect(body.Case).toEqual({ Annuitants: [{ Age: null }], IsQualified: false, PurchaseDate: '2026-01-15' });
    expect(body.Quote.Benefits[0]).toMatchObject({ StartDate: null, PremiumAmount: 1000, TermYears: null });
    expect(saveQuoteSchema.safeParse(body).success).toBe(true);
  });

  it('reopen a saved quote as the values it was saved from', () => {
    const values = emptyValues();
    values.Case.PurchaseDate = '2026-01-15';
    values.Case.Annuitants = [{ Age: 61 }];
    values.Quote.Benefits = [{ ...emptyBenefit(), AnnuityType: 'PC', TermType: 'M', TermYears: 10, StartDate: '2026-03-01' }];
    values.Picked = { LC03: true };
    const body = toSaveBody(values, { Id: 4, Version: 2 }, ['LC03']);
    expect(fromSaved(body)).toEqual(values);
  });

  it('overwrite a saved quote with the Version it was read at, and save a new one with none', () => {
    const values = emptyValues();
    values.Picked = { LC01: true };
    const overwrite = toSaveBody(values, { Id: 4, Version: 3 }, ['LC01']);
    expect(overwrite).toMatchObject({ Id: 4, Version: 3 });
    expect(saveQuoteSchema.safeParse(overwrite).success).toBe(true);
    const created = toSaveBody(values, null, ['LC01']);
    expect(created).toMatchObject({ Id: null, Version: null });
    expect(saveQuoteSchema.safeParse(created).success).toBe(true);
  });

  it('send a new quote with its submission’s IdempotencyKey, the same again for a retry of the same quote; an overwrite with none', () => {
    let n = 0;
    const keys = new SubmissionKeys(() => `quote-test-${++n}`);
    const values = emptyValues();
    values.Picked = { LC01: true };
    const first = withCreateKey(toSaveBody(values, null, ['LC01']), keys);
    expect(first.IdempotencyKey).toBe('quote-test-1');
    expect(saveQuoteSchema.parse(first).IdempotencyKey).toBe('quote-test-1');
    // Saved again after a failure, unchanged: the same key (the server answers the quote the first save added).
    expect(withCreateKey(toSaveBody(values, null, ['LC01']), keys).IdempotencyKey).toBe('quote-test-1');
    // Changed before it is saved again: another submission, another key.
    values.Case.PurchaseDate = '2026-02-01';
    expect(withCreateKey(toSaveBody(values, null, ['LC01']), keys).IdempotencyKey).toBe('quote-test-2');
    expect(withCreateKey(toSaveBody(values, { Id: 4, Version: 3 }, ['LC01']), keys)).not.toHaveProperty('IdempotencyKey');
  });
});
