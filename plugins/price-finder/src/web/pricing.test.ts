import { describe, expect, it } from 'vitest';
import { lineFigures, numeric, totals } from './pricing';

describe('numeric', () => {
  it('counts non-numeric units or prices as 0', () => {
    expect(numeric('30')).toBe(30);
    expect(numeric(' 2.5 ')).toBe(2.5);
    expect(numeric(12)).toBe(12);
    for (const v of ['', '  ', 'abc', '3O', null, undefined, Number.NaN, Number.POSITIVE_INFINITY, {}]) expect(numeric(v)).toBe(0);
  });
  it('counts negative units or prices as 0 too', () => {
    for (const v of ['-30', ' -0.5 ', -1, -0, '-0', Number.NEGATIVE_INFINITY]) expect(Object.is(numeric(v), 0), String(v)).toBe(true);
    expect(lineFigures({ OurPrice: 0.22, AWPPrice: 0.57 }, '-30')).toEqual({ derivedOurCents: 22, totalOurCents: 0, totalCents: 0, savingsCents: 0 });
    expect(lineFigures({ OurPrice: -1, AWPPrice: 2 }, 10)).toEqual({ derivedOurCents: 0, totalOurCents: 0, totalCents: 2000, savingsCents: 2000 });
    const a = lineFigures({ OurPrice: 0.22, AWPPrice: 0.57 }, 30);
    expect(totals([a, lineFigures({ OurPrice: 1, AWPPrice: 4 }, -90)]).savingsCents).toBe(a.savingsCents);
  });
});

describe('lineFigures and totals', () => {
  it('derives our price, the totals and the savings of a line', () => {
    expect(lineFigures({ OurPrice: 0.22, AWPPrice: 0.57 }, 30)).toEqual({ derivedOurCents: 22, totalOurCents: 660, totalCents: 1710, savingsCents: 1050 });
    expect(lineFigures({ OurPrice: 'n/a', AWPPrice: 1.1 }, '10')).toEqual({ derivedOurCents: 0, totalOurCents: 0, totalCents: 1100, savingsCents: 1100 });
    expect(lineFigures({ OurPrice: 1, AWPPrice: 2 }, 'thirty')).toEqual({ derivedOurCents: 100, totalOurCents: 0, totalCents: 0, savingsCents: 0 });
  });
  it('sums the selected lines', () => {
    const a = lineFigures({ OurPrice: 0.22, AWPPrice: 0.57 }, 30);
    const b = lineFigures({ OurPrice: 1.15, AWPPrice: 4.1 }, 90);
    expect(totals([a, b])).toEqual({ totalOurCents: 660 + 10350, totalCents: 1710 + 36900, savingsCents: 1050 + 26550 });
    expect(totals([])).toEqual({ totalOurCents: 0, totalCents: 0, savingsCents: 0 });
  });
});
