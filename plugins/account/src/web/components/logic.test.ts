import { describe, expect, it } from 'vitest';
import { AccountMessages } from '../../contract';
import en from '../i18n/en.json';
import { forgotFailureText, linkOutcome, questionsPayload, registerFormBody, registrationReady, supportEmail } from './logic';

describe('registration', () => {
  const full = { UserName: ' a@example.com ', Password: 'Test$pass1', FirstName: ' Ann ', LastName: 'Lee' };
  it('is ready only when all four fields are present', () => {
    expect(registrationReady(full)).toBe(true);
    for (const key of ['UserName', 'Password', 'FirstName', 'LastName'] as const) {
      expect(registrationReady({ ...full, [key]: '' })).toBe(false);
    }
    expect(registrationReady({ ...full, FirstName: '   ' })).toBe(false);
    expect(registrationReady({ UserName: 'a@example.com' })).toBe(false);
  });
  it('trims the names but sends the password as typed', () => {
    expect(registerFormBody({ ...full, Password: ' Test$pass1' })).toEqual({
      UserName: 'a@example.com',
      Password: ' Test$pass1',
      FirstName: 'Ann',
      LastName: 'Lee',
    });
  });
});

describe('linkOutcome', () => {
  it('reads a resolved IsValid answer', () => {
    expect(linkOutcome({ ok: true, data: { IsValid: true } })).toBe('success');
    expect(linkOutcome({ ok: true, data: { IsValid: false } })).toBe('invalid');
    expect(linkOutcome({ ok: true, data: null })).toBe('invalid');
  });
  it('treats a refusal carrying IsValid false as invalid and any other failure as an error', () => {
    const refused = Object.assign(new Error('Unable to activate account, please try again.'), {
      body: { Data: { IsValid: false }, HasError: true, MsgText: 'x', Unwrap: true },
    });
    expect(linkOutcome({ ok: false, error: refused })).toBe('invalid');
    const policy = Object.assign(new Error('policy'), { body: { Data: null, HasError: true, MsgText: 'policy', Unwrap: true } });
    expect(linkOutcome({ ok: false, error: policy })).toBe('error');
    expect(linkOutcome({ ok: false, error: new TypeError('Failed to fetch') })).toBe('error');
    expect(linkOutcome({ ok: false, error: null })).toBe('error');
  });
});

describe('questionsPayload', () => {
  it('builds the list of {Id, AnswerText} with trimmed answers', () => {
    expect(questionsPayload({ Question1: '3', Answer1: ' Rex ', Question2: 5, Answer2: 'Paris' })).toEqual([
      { Id: 3, AnswerText: 'Rex' },
      { Id: 5, AnswerText: 'Paris' },
    ]);
  });
});

describe('forgotFailureText', () => {
  // The API client's ApiCallError: an Error with the answer's status, its message the server's MsgText.
  const apiError = (message: string, status: number) => Object.assign(new Error(message), { status });
  it("shows the server's message when too many reset mails were asked for, the spec's text (null) for any other failure", () => {
    const tooMany = 'Too many password e-mails were requested. Please try again in 15 minute(s).';
    expect(forgotFailureText(apiError(tooMany, 429))).toBe(tooMany);
    expect(forgotFailureText(apiError('Bad request.', 400))).toBeNull();
    expect(forgotFailureText(apiError('Server error.', 500))).toBeNull();
    expect(forgotFailureText(apiError('', 429))).toBeNull();
    expect(forgotFailureText(new TypeError('Failed to fetch'))).toBeNull();
    expect(forgotFailureText(undefined)).toBeNull();
  });
});

describe('supportEmail', () => {
  const brand = { contacts: { supportEmail: 'support@brand.example.com' } };
  it('prefers /config and falls back to the manifest', () => {
    expect(supportEmail({ SupportEmail: 'help@site.example.com' }, brand)).toBe('help@site.example.com');
    expect(supportEmail({ SupportEmail: null }, brand)).toBe('support@brand.example.com');
    expect(supportEmail(undefined, brand)).toBe('support@brand.example.com');
  });
});

describe('English texts', () => {
  it('carry the spec 01 section 8 messages word for word', () => {
    expect(en.activate.invalid).toBe(AccountMessages.activationInvalid);
    expect(en.activate.error).toBe(AccountMessages.activationError);
    expect(en.activate.success).toBe(AccountMessages.activationSuccess);
    expect(en.reset.invalid).toBe(AccountMessages.resetInvalid);
    expect(en.reset.error).toBe(AccountMessages.resetError);
    expect(en.reset.success).toBe(AccountMessages.resetSuccess);
    expect(en.forgot.sent.replace('{{email}}', 'x@example.com')).toBe(String(AccountMessages.resetEmailSent('x@example.com')));
    expect(en.forgot.error).toBe(AccountMessages.resetEmailError);
    expect(en.register.checkEmail).toBe(AccountMessages.registrationCheckEmail);
    expect(en.password.failed).toBe(AccountMessages.passwordChangeFailed);
    expect(en.password.changed).toBe(AccountMessages.passwordChanged);
  });
});
