import { validationMessages } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { memberFieldsSchema } from './contract';

const dob = memberFieldsSchema.shape.DateOfBirth;

describe('profile contract: date of birth (spec 01 section 5: before now and after the year 1900)', () => {
  it('takes 1901-01-01 on, up to today, and an empty field', () => {
    for (const day of ['1901-01-01', '1980-02-29', new Date().toISOString().slice(0, 10), '', null])
      expect({ day, ok: dob.safeParse(day).success }).toEqual({ day, ok: true });
  });

  it('refuses the year 1900 and before, tomorrow and days that do not exist, with the date-of-birth message', () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const day of ['1900-12-31', '1900-06-15', '1899-01-01', tomorrow, '1981-02-29']) {
      const r = dob.safeParse(day);
      expect({ day, ok: r.success }).toEqual({ day, ok: false });
      expect(r.error?.issues.some((i) => i.message === validationMessages.dob)).toBe(true);
    }
  });
});
