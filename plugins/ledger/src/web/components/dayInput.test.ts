import { describe, expect, it } from 'vitest';
import { settledDay } from './dayInput';

describe('settledDay: a date field gives the day meant, not each keystroke of its year', () => {
  it('takes a whole day with a four-digit year', () => {
    expect(settledDay('2025-01-31')).toBe(true);
    expect(settledDay('1999-12-01')).toBe(true);
  });

  it('ignores what a browser gives while the year is typed, and an empty field', () => {
    for (const partial of ['0002-01-31', '0020-01-31', '0202-01-31', '']) expect(settledDay(partial), partial).toBe(false);
  });
});
