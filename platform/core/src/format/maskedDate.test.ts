import { describe, expect, it } from 'vitest';
import { formatMaskedDate, formatMaskedDateInput, parseMaskedDate, validateMaskedDate } from './maskedDate';
import { RUNS, randomInt, randomString, rng } from './testRandom';

describe('masked date', () => {
  it('accepts slashed and 8-digit forms', () => {
    expect(parseMaskedDate('02/29/2024')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseMaskedDate('02292024')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseMaskedDate('2/9/2024')).toEqual({ year: 2024, month: 2, day: 9 });
    expect(parseMaskedDate('02/29/2023')).toBeNull();
    expect(parseMaskedDate('13/01/2020')).toBeNull();
    expect(parseMaskedDate('2024-02-29')).toBeNull();
  });

  it('reports incomplete, invalid and bounds', () => {
    expect(validateMaskedDate('')).toBe('incomplete');
    expect(validateMaskedDate('01/02/20')).toBe('incomplete');
    expect(validateMaskedDate('04/31/2020')).toBe('invalid');
    expect(validateMaskedDate('01/02/2020')).toBeNull();
    expect(validateMaskedDate('01/02/2020', { before: '01/02/2020' })).toBe('tooLate');
    expect(validateMaskedDate('01/01/2020', { before: '2020-01-02' })).toBeNull();
    expect(validateMaskedDate('01/01/1900', { after: '01/01/1900' })).toBe('tooEarly');
    expect(validateMaskedDate('01/02/1900', { after: new Date(1900, 0, 1) })).toBeNull();
  });

  it('formats typing progressively', () => {
    expect(formatMaskedDateInput('1')).toBe('1');
    expect(formatMaskedDateInput('123')).toBe('12/3');
    expect(formatMaskedDateInput('12312')).toBe('12/31/2');
    expect(formatMaskedDateInput('12/31/2020x9')).toBe('12/31/2020');
  });

  it('round-trips every real day and rejects garbage', () => {
    const next = rng(3);
    for (let i = 0; i < RUNS; i++) {
      const day = { year: randomInt(next, 1000, 9999), month: randomInt(next, 1, 12), day: randomInt(next, 1, 28) };
      expect(parseMaskedDate(formatMaskedDate(day))).toEqual(day);
      expect(parseMaskedDate(formatMaskedDate(day).replace(/\//g, ''))).toEqual(day);
      const input = randomString(next);
      const error = validateMaskedDate(input);
      if (error === null) expect(parseMaskedDate(input)).not.toBeNull();
      expect(formatMaskedDateInput(input)).toMatch(/^\d{0,2}(\/\d{0,2}(\/\d{0,4})?)?$/);
    }
  });
});
