import { validationMessages } from '@portal/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memberFieldsSchema } from './contract';

const dob = memberFieldsSchema.shape.DateOfBirth;
const refused = (day: string) => {
  const r = dob.safeParse(day);
  return !r.success && r.error.issues.some((i) => i.message === validationMessages.dob);
};

describe('profile contract: date of birth (spec 01 section 5: before now and after the year 1900)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes 1901-01-01 on, up to today, and an empty field', () => {
    for (const day of ['1901-01-01', '1980-02-29', new Date().toISOString().slice(0, 10), '', null])
      expect({ day, ok: dob.safeParse(day).success }).toEqual({ day, ok: true });
  });

  it('refuses the year 1900 and before, the day after tomorrow and days that do not exist, with the date-of-birth message', () => {
    const afterTomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    for (const day of ['1900-12-31', '1900-06-15', '1899-01-01', afterTomorrow, '1981-02-29'])
      expect({ day, refused: refused(day) }).toEqual({ day, refused: true });
  });

  it("takes today's date wherever the member is: the day already begun east of UTC, and no later day", () => {
    // 12:00 UTC on 6 December: in UTC+14 it is already 7 December.
    vi.useFakeTimers({ now: new Date('2026-12-06T12:00:00Z') });
    expect(dob.safeParse('2026-12-07').success).toBe(true);
    expect(refused('2026-12-08')).toBe(true);
    // 05:00 UTC: 7 December has begun nowhere yet.
    vi.setSystemTime(new Date('2026-12-06T05:00:00Z'));
    expect(dob.safeParse('2026-12-06').success).toBe(true);
    expect(refused('2026-12-07')).toBe(true);
  });
});
