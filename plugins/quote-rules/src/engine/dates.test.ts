import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addToDate,
  type CalendarDate,
  compareDates,
  type DateUnit,
  daysInMonth,
  formatIsoDate,
  formatUsDate,
  fromDayNumber,
  isLeapYear,
  parseIsoDate,
  shiftDate,
  toDayNumber,
} from './dates';

describe('parseIsoDate', () => {
  it('reads a calendar date and ignores a trailing time', () => {
    expect(parseIsoDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseIsoDate('2024-02-29T00:00:00')).toEqual({ year: 2024, month: 2, day: 29 });
  });

  it('refuses days the month lacks, bad months and other text', () => {
    for (const text of ['2023-02-29', '2024-04-31', '2024-13-01', '2024-00-10', '2024-01-00', '02/29/2024', '', null, undefined]) {
      expect(parseIsoDate(text)).toBeNull();
    }
  });
});

describe('leap years and month lengths', () => {
  it('follows the Gregorian rule: every 4th year, not centuries, but every 400th', () => {
    expect([2024, 2000, 1996].map(isLeapYear)).toEqual([true, true, true]);
    expect([2023, 1900, 2100].map(isLeapYear)).toEqual([false, false, false]);
  });

  it('gives February 29 days in a leap year and 28 otherwise', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2023, 2)).toBe(28);
    expect([1, 3, 4, 6, 9, 11, 12].map((month) => daysInMonth(2023, month))).toEqual([31, 31, 30, 30, 30, 30, 31]);
  });
});

describe('addToDate: days', () => {
  it.each([
    ['2024-02-28', 1, '2024-02-29'],
    ['2023-02-28', 1, '2023-03-01'],
    ['2024-12-31', 1, '2025-01-01'],
    ['2024-01-31', 30, '2024-03-01'],
    ['2023-01-31', 30, '2023-03-02'],
    ['2024-01-01', 366, '2025-01-01'],
    ['2024-03-01', -1, '2024-02-29'],
  ])('%s plus %i days is %s', (from, days, expected) => {
    expect(addToDate(from, days, 'days')).toBe(expected);
  });
});

describe('addToDate: months clamp to the end of a shorter month', () => {
  it.each([
    ['2024-01-31', 1, '2024-02-29'],
    ['2023-01-31', 1, '2023-02-28'],
    ['2024-03-31', 1, '2024-04-30'],
    ['2024-01-31', 2, '2024-03-31'],
    ['2024-02-29', 1, '2024-03-29'],
    ['2024-02-28', 1, '2024-03-28'],
    ['2024-11-30', 3, '2025-02-28'],
    ['2024-03-31', -1, '2024-02-29'],
    ['2024-01-15', -1, '2023-12-15'],
    ['2024-01-31', 25, '2026-02-28'],
  ])('%s plus %i months is %s', (from, months, expected) => {
    expect(addToDate(from, months, 'months')).toBe(expected);
  });
});

describe('addToDate: years', () => {
  it.each([
    ['2024-02-29', 1, '2025-02-28'],
    ['2024-02-29', 4, '2028-02-29'],
    ['2096-02-29', 4, '2100-02-28'],
    ['2000-02-29', 400, '2400-02-29'],
    ['2024-01-31', 2, '2026-01-31'],
    ['2025-02-28', -1, '2024-02-28'],
  ])('%s plus %i years is %s', (from, years, expected) => {
    expect(addToDate(from, years, 'years')).toBe(expected);
  });

  it('counts whole units only', () => {
    expect(addToDate('2024-01-31', 1.9, 'years')).toBe('2025-01-31');
    expect(addToDate('2024-01-31', -0.5, 'days')).toBe('2024-01-31');
  });

  it('answers null for an invalid date or a NaN amount', () => {
    expect(addToDate('2024-02-30', 1, 'days')).toBeNull();
    expect(addToDate(null, 1, 'days')).toBeNull();
    expect(addToDate('2024-02-01', Number.NaN, 'days')).toBeNull();
  });

  it('caps huge amounts at ten million years and writes such years in ISO expanded form', () => {
    expect(addToDate('2024-01-31', Number.POSITIVE_INFINITY, 'years')).toBe('+10002024-01-31');
    expect(addToDate('2024-01-31', 1e300, 'months')).toBe('+10002024-01-31');
    expect(addToDate('2024-01-31', -1e12, 'years')).toBe('-9997976-01-31');
  });
});

describe('shiftDate', () => {
  it('treats a NaN amount as no shift', () => {
    expect(shiftDate({ year: 2024, month: 2, day: 29 }, Number.NaN, 'months')).toEqual({ year: 2024, month: 2, day: 29 });
  });
});

describe('formatting', () => {
  it('writes ISO and US dates with padding', () => {
    const date: CalendarDate = { year: 987, month: 3, day: 4 };
    expect(formatIsoDate(date)).toBe('0987-03-04');
    expect(formatUsDate(date)).toBe('03/04/0987');
    expect(formatUsDate({ year: -44, month: 3, day: 15 })).toBe('03/15/-0044');
  });
});

const calendarDate = fc
  .record({ year: fc.integer({ min: 1600, max: 2400 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
  .map((date) => ({ ...date, day: Math.min(date.day, daysInMonth(date.year, date.month)) }));

describe('date properties', () => {
  it('day numbers round-trip and agree with the UTC calendar', () => {
    fc.assert(
      fc.property(calendarDate, (date) => {
        expect(fromDayNumber(toDayNumber(date))).toEqual(date);
        expect(toDayNumber(date)).toBe(Date.UTC(date.year, date.month - 1, date.day) / 86_400_000);
      }),
    );
  });

  it('adding days agrees with the UTC calendar', () => {
    fc.assert(
      fc.property(calendarDate, fc.integer({ min: -50_000, max: 50_000 }), (date, days) => {
        const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
        expect(shiftDate(date, days, 'days')).toEqual({ year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() });
      }),
    );
  });

  it('adding months keeps the day when the month has it and otherwise lands on the month end', () => {
    fc.assert(
      fc.property(calendarDate, fc.integer({ min: -2_000, max: 2_000 }), (date, months) => {
        const shifted = shiftDate(date, months, 'months');
        expect((shifted.year - date.year) * 12 + shifted.month - date.month).toBe(months);
        expect(shifted.day).toBe(Math.min(date.day, daysInMonth(shifted.year, shifted.month)));
        expect(shiftDate(date, months / 12, 'years')).toEqual(Number.isInteger(months / 12) ? shifted : shiftDate(date, Math.trunc(months / 12), 'years'));
      }),
    );
  });

  it('a larger amount never gives an earlier date', () => {
    fc.assert(
      fc.property(
        calendarDate,
        fc.double({ noNaN: true }),
        fc.double({ noNaN: true }),
        fc.constantFrom<DateUnit>('days', 'months', 'years'),
        (date, a, b, unit) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          expect(compareDates(shiftDate(date, low, unit), shiftDate(date, high, unit))).toBeLessThanOrEqual(0);
        },
      ),
    );
  });
});
