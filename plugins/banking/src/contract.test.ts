import { describe, expect, it } from 'vitest';
import { BankingApi, loginFormInput } from './contract';
import { formFor } from './server/core';

const form = {
  formId: 'login-1',
  label: 'Sign in',
  formType: 'login' as const,
  fields: [{ id: '1-login', name: 'LOGIN', label: 'User ID', type: 'text' as const, value: '', maxLength: 64 }],
};

describe('finance API versions and forms', () => {
  it("sends one form with version '1' and wraps it into a list with '1.1'", () => {
    const one = formFor(form, '1');
    expect(Array.isArray(one)).toBe(false);
    expect(one).toMatchObject({
      FormId: 'login-1',
      FormType: 'login',
      Fields: [{ Name: 'LOGIN', Label: 'User ID', Type: 'text', Value: '', MaxLength: 64, Options: null }],
    });
    expect(formFor(form, '1.1')).toEqual([one]);
    expect(formFor(null, '1.1')).toBeNull();
  });

  it('takes a submitted form as one form or a list of one, keeping names and values only', () => {
    const fields = [{ Id: 'x', Name: 'LOGIN', Label: 'ignored', Value: 'good' }, { Name: 'PASSWORD' }];
    expect(loginFormInput.parse({ Fields: fields })).toEqual({
      fields: [
        { name: 'LOGIN', value: 'good' },
        { name: 'PASSWORD', value: '' },
      ],
    });
    expect(loginFormInput.parse([{ Fields: fields }])).toEqual(loginFormInput.parse({ Fields: fields }));
    expect(loginFormInput.safeParse([{ Fields: fields }, { Fields: fields }]).success).toBe(false);
  });

  it("defaults the version to '1' and refuses a search under 3 characters with the spec's words", () => {
    expect(BankingApi.provider.query.parse({})).toEqual({ version: '1' });
    const r = BankingApi.search.body.safeParse({ Query: ' ab ' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Minimum 3 characters are required');
  });
});

describe('transaction filter: From and To are real calendar days', () => {
  it('takes real days (a leap day too) and no day at all', () => {
    expect(BankingApi.transactions.body.parse({ From: '2024-02-29', To: '2026-12-31' })).toMatchObject({ From: '2024-02-29', To: '2026-12-31' });
    expect(BankingApi.transactions.body.safeParse({ From: null, To: undefined }).success).toBe(true);
  });

  it("refuses a day the calendar does not have, which the database's ::date would fail on", () => {
    for (const From of ['2026-02-30', '2025-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '0000-01-01']) {
      const r = BankingApi.transactions.body.safeParse({ From });
      expect(
        r.error?.issues.map((i) => [i.path.join('.'), i.message]),
        From,
      ).toEqual([['From', 'is not a valid calendar date']]);
      expect(BankingApi.supportTransactions.body.safeParse({ MemberId: 1, To: From }).success, From).toBe(false);
    }
  });

  it('refuses text that is not YYYY-MM-DD with the pattern message only', () => {
    for (const To of ['2026-1-5', '2026-01-01x', '01/02/2026', '']) {
      const r = BankingApi.transactions.body.safeParse({ To });
      expect(
        r.error?.issues.map((i) => i.message),
        To,
      ).toEqual(['must be a date (YYYY-MM-DD)']);
    }
  });
});
