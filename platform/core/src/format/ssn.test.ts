import { describe, expect, it } from 'vitest';
import { formatSsn, isCompleteSsn, maskSsn, ssnDigits } from './ssn';
import { RUNS, randomString, rng } from './testRandom';

describe('ssn', () => {
  it('formats and masks', () => {
    expect(formatSsn('123')).toBe('123');
    expect(formatSsn('1234')).toBe('123-4');
    expect(formatSsn('123456')).toBe('123-45-6');
    expect(formatSsn('123-45-6789')).toBe('123-45-6789');
    expect(formatSsn('1234567890')).toBe('123-45-6789');
    expect(maskSsn('123456789')).toBe('XXX-XX-6789');
    expect(maskSsn('')).toBe('');
    expect(isCompleteSsn('123-45-6789')).toBe(true);
  });

  it('never keeps a non-digit and the mask reveals at most the last four', () => {
    const next = rng(2);
    for (let i = 0; i < RUNS; i++) {
      const input = randomString(next, 30);
      const digits = ssnDigits(input);
      expect(digits).toMatch(/^\d{0,9}$/);
      expect(formatSsn(input).replace(/\D/g, '')).toBe(digits);
      const masked = maskSsn(input);
      expect(masked.replace(/\D/g, '').length).toBeLessThanOrEqual(4);
      if (digits.length === 9) expect(masked).toBe(`XXX-XX-${digits.slice(5)}`);
    }
  });
});
