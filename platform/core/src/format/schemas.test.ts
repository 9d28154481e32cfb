import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validationMessages as m } from './messages';
import {
  allowEmpty,
  cappedNumberSchema,
  dobSchema,
  emailSchema,
  isoDateSchema,
  MAX_MONEY,
  MAX_PASSWORD_LENGTH,
  maskedDateSchema,
  mobilePhoneSchema,
  moneySchema,
  passwordPolicySchema,
  phoneSchema,
  ssnSchema,
  withFieldsMatch,
  zipSchema,
} from './schemas';

const firstMessage = (r: { success: boolean; error?: z.ZodError }) => r.error?.issues[0]?.message;

describe('schemas', () => {
  it('phone and ssn output digits', () => {
    expect(phoneSchema.parse('(555) 123-4567')).toBe('5551234567');
    expect(firstMessage(phoneSchema.safeParse('555'))).toBe(m.phone);
    // More than ten digits is another number, refused rather than cut to ten.
    expect(firstMessage(phoneSchema.safeParse('+1 (512) 555-0101'))).toBe(m.phone);
    expect(firstMessage(mobilePhoneSchema.safeParse('0551234567'))).toBe(m.mobileStartsWithZero);
    expect(ssnSchema.parse('123-45-6789')).toBe('123456789');
    expect(ssnSchema.safeParse('12345678').success).toBe(false);
    expect(allowEmpty(phoneSchema).parse('')).toBe('');
  });

  it('email, dob and masked dates', () => {
    expect(emailSchema.parse(' a@b.co ')).toBe('a@b.co');
    expect(firstMessage(emailSchema.safeParse('nope'))).toBe(m.email);
    expect(dobSchema.safeParse('1980-01-01').success).toBe(true);
    expect(dobSchema.safeParse('01/01/1980').success).toBe(true);
    expect(dobSchema.safeParse('01/01/1899').success).toBe(false);
    const schema = maskedDateSchema({ after: '01/01/2020', before: '12/31/2020' });
    expect(schema.safeParse('06/15/2020').success).toBe(true);
    expect(firstMessage(schema.safeParse('06/15/2021'))).toBe(m.dateTooLate);
    expect(firstMessage(schema.safeParse('06/15'))).toBe(m.dateIncomplete);
  });

  it('money, capped number and password policy', () => {
    expect(moneySchema.parse('12,5')).toBe(12.5);
    expect(moneySchema.parse(1.005)).toBe(1.01);
    expect(firstMessage(moneySchema.safeParse('x'))).toBe(m.money);
    expect(cappedNumberSchema(10).parse('25')).toBe(10);
    expect(cappedNumberSchema(10).parse(3)).toBe(3);
    const policy = passwordPolicySchema([{ Message: 'digit', Validator: '\\d' }]);
    expect(policy.safeParse('a1').success).toBe(true);
    expect(firstMessage(policy.safeParse('ab'))).toBe(m.passwordPolicy);
  });

  it("ZIP or ZIP+4, trimmed, with the kit's one ZIP message", () => {
    expect(zipSchema.parse(' 73301 ')).toBe('73301');
    expect(zipSchema.parse('73301-1234')).toBe('73301-1234');
    for (const bad of ['12', '123456', '73301-12', 'abcde', '']) expect(firstMessage(zipSchema.safeParse(bad)), bad).toBe(m.zip);
    expect(m.zip).toBe('validation.zip');
  });

  it('compare rule puts the error on the confirm field', () => {
    const schema = withFieldsMatch(z.object({ Email: z.string(), ConfirmEmail: z.string() }), 'Email', 'ConfirmEmail');
    expect(schema.safeParse({ Email: 'a', ConfirmEmail: '' }).success).toBe(true);
    const bad = schema.safeParse({ Email: 'a', ConfirmEmail: 'b' });
    expect(bad.error?.issues[0]?.path).toEqual(['ConfirmEmail']);
    expect(firstMessage(bad)).toBe(m.mismatch);
  });
});

describe('isoDateSchema', () => {
  it("takes a real day written 'YYYY-MM-DD' and nothing else", () => {
    expect(isoDateSchema.safeParse('2024-02-29').success).toBe(true);
    for (const bad of ['2026-02-30', '2026-01-01x', '2026-01-01T00:00:00Z', '2026-1-1', ''])
      expect(firstMessage(isoDateSchema.safeParse(bad)), bad).toBe(m.dateInvalid);
  });
});

describe('shared field schemas refuse what is more than their field holds (found by tests/contract-fuzz.int.test.ts)', () => {
  it('an SSN with more than nine digits is refused, never cut to nine', () => {
    expect(ssnSchema.safeParse('123-45-6789').data).toBe('123456789');
    expect(ssnSchema.safeParse('123-45-67890').success).toBe(false);
    expect(ssnSchema.safeParse('1'.repeat(100_000)).success).toBe(false);
  });
  it('a date of birth is the day and nothing after it', () => {
    expect(dobSchema.safeParse('1980-02-29').success).toBe(true);
    expect(dobSchema.safeParse('02/29/1980').success).toBe(true);
    expect(dobSchema.safeParse('1980-02-29T00:00:00Z').success).toBe(false);
    expect(dobSchema.safeParse(`1980-02-29${'x'.repeat(100_000)}`).success).toBe(false);
  });
  it('money is at most $100,000,000, either sign, as text or a number', () => {
    expect(moneySchema.safeParse('$100,000,000.00').data).toBe(MAX_MONEY);
    expect(moneySchema.safeParse(-MAX_MONEY).success).toBe(true);
    expect(moneySchema.safeParse('100000000.01').success).toBe(false);
    expect(moneySchema.safeParse(1e308).success).toBe(false);
    expect(moneySchema.safeParse(-1e308).success).toBe(false);
  });
  it('a password the policy takes is at most 1,024 characters', () => {
    const schema = passwordPolicySchema([]);
    expect(schema.safeParse('a'.repeat(MAX_PASSWORD_LENGTH)).success).toBe(true);
    expect(schema.safeParse('a'.repeat(MAX_PASSWORD_LENGTH + 1)).success).toBe(false);
  });
});
