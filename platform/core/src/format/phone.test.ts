import { describe, expect, it } from 'vitest';
import { formatPhone, isCompletePhone, phoneDigits } from './phone';
import { RUNS, randomString, rng } from './testRandom';

describe('phone', () => {
  it('formats progressively', () => {
    expect(formatPhone('')).toBe('');
    expect(formatPhone('5')).toBe('(5');
    expect(formatPhone('555')).toBe('(555');
    expect(formatPhone('5551')).toBe('(555) 1');
    expect(formatPhone('555123')).toBe('(555) 123');
    expect(formatPhone('5551234')).toBe('(555) 123-4');
    expect(formatPhone('5551234567')).toBe('(555) 123-4567');
    expect(formatPhone('(555) 123-4567 ext 9')).toBe('(555) 123-4567');
    expect(isCompletePhone('555-123-4567')).toBe(true);
    expect(isCompletePhone('555-123-456')).toBe(false);
  });

  it('never keeps a non-digit, never more than 10, and keeps digit order', () => {
    const next = rng(1);
    for (let i = 0; i < RUNS; i++) {
      const input = randomString(next, 30);
      const digits = phoneDigits(input);
      expect(digits).toMatch(/^\d{0,10}$/);
      expect(input.replace(/\D/g, '').startsWith(digits)).toBe(true);
      // The display holds exactly the stored digits, and re-parsing it is stable.
      expect(formatPhone(input).replace(/\D/g, '')).toBe(digits);
      expect(phoneDigits(formatPhone(input))).toBe(digits);
      expect(formatPhone(formatPhone(input))).toBe(formatPhone(input));
    }
  });
});
