import { describe, expect, it } from 'vitest';
import { saveQuoteSchema } from '../contract';
import { emptyBenefit, emptyValues, fromSaved, toSaveBody } from './values';

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
});
