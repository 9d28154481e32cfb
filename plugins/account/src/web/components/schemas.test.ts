import type { PasswordRule } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { activateSchema, changePasswordSchema, questionsSchema, registerSchema, resetSchema } from './schemas';

const rules: PasswordRule[] = [
  { Message: 'At least 8 characters', Validator: '^[\\s\\S]{8,}$' },
  { Message: 'At least one digit', Validator: '\\d' },
];
const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('registerSchema', () => {
  const schema = registerSchema(rules);
  it('lets empty fields through (the dialog then does not submit)', () => {
    expect(schema.safeParse({ UserName: '', Password: '', FirstName: '', LastName: '' }).success).toBe(true);
  });
  it('checks what is typed: an e-mail user name and a password meeting the policy', () => {
    expect(messages(schema.safeParse({ UserName: 'ann', Password: 'short', FirstName: 'A', LastName: 'B' }))).toEqual([
      'UserName: validation.email',
      'Password: validation.passwordPolicy',
    ]);
    expect(schema.safeParse({ UserName: 'ann@example.com', Password: 'Test$pass1', FirstName: 'A', LastName: 'B' }).success).toBe(true);
  });
});

describe('link and password schemas', () => {
  it('reset needs matching passwords meeting the policy', () => {
    const schema = resetSchema(rules);
    expect(schema.safeParse({ Password: 'Test$pass1', ConfirmPassword: 'Test$pass1' }).success).toBe(true);
    expect(messages(schema.safeParse({ Password: 'Test$pass1', ConfirmPassword: 'Test$pass2' }))).toEqual([
      'ConfirmPassword: account:validation.passwordsDiffer',
    ]);
    expect(messages(schema.safeParse({ Password: '', ConfirmPassword: '' }))).toContain('Password: account:validation.required');
  });
  it('activation needs two different questions with answers', () => {
    const schema = activateSchema(rules);
    const base = { Password: 'Test$pass1', ConfirmPassword: 'Test$pass1', Question1: 1, Answer1: 'a', Question2: 2, Answer2: 'b' };
    expect(schema.safeParse(base).data).toEqual(base);
    expect(messages(schema.safeParse({ ...base, Question2: 1 }))).toEqual(['Question2: account:validation.questionsDiffer']);
    expect(messages(schema.safeParse({ ...base, Question1: null, Answer2: ' ' }))).toEqual([
      'Question1: account:validation.questionRequired',
      'Answer2: account:validation.answerRequired',
    ]);
  });
  it('the account page needs the current password too', () => {
    const schema = changePasswordSchema(rules);
    expect(messages(schema.safeParse({ OldPassword: '', Password: 'Test$pass1', ConfirmPassword: 'Test$pass1' }))).toEqual([
      'OldPassword: account:validation.required',
    ]);
    expect(questionsSchema.safeParse({ Question1: '4', Answer1: 'x', Question2: '5', Answer2: 'y' }).data).toMatchObject({ Question1: 4, Question2: 5 });
  });
});
