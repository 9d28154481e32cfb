import { describe, expect, it } from 'vitest';
import { parseIsoDay } from './calendarDay';
import { fromIsoDate, shiftByTimezoneOffset, toIsoDate } from './pickerDate';
import { RUNS, randomInt, rng } from './testRandom';

describe('picker dates', () => {
  it('stores the local calendar day', () => {
    expect(toIsoDate(new Date(2024, 0, 31, 0, 0))).toBe('2024-01-31');
    expect(toIsoDate(new Date(2024, 0, 31, 23, 59))).toBe('2024-01-31');
    expect(fromIsoDate('2024-02-30')).toBeNull();
    expect(fromIsoDate('0050-06-01')?.getFullYear()).toBe(50);
  });

  it('round-trips days and the shift keeps the day in UTC fields', () => {
    const next = rng(4);
    for (let i = 0; i < RUNS; i++) {
      const iso = `${randomInt(next, 1900, 2100)}-${String(randomInt(next, 1, 12)).padStart(2, '0')}-${String(randomInt(next, 1, 28)).padStart(2, '0')}`;
      const local = fromIsoDate(iso);
      expect(local).not.toBeNull();
      if (!local) continue;
      expect(toIsoDate(local)).toBe(iso);
      expect(shiftByTimezoneOffset(local).toISOString().slice(0, 10)).toBe(iso);
      expect(parseIsoDay(iso)).not.toBeNull();
    }
  });
});
