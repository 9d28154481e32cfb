/** Pure helpers of the account web pages (no React, no zod): unit-tested in logic.test.ts. */

// A type alias (not an interface) so it fits the client's Record<string, string> form body.
export type RegisterValues = {
  UserName: string;
  Password: string;
  FirstName: string;
  LastName: string;
};

const present = (v: string | null | undefined) => typeof v === 'string' && v.trim().length > 0;

/** Spec 01 section 5: registration is sent only when all four fields are present (else, silently, not at all). */
export function registrationReady(values: Partial<RegisterValues>): values is RegisterValues {
  return present(values.UserName) && typeof values.Password === 'string' && values.Password.length > 0 && present(values.FirstName) && present(values.LastName);
}

/** The form-encoded body of POST user/register; names are trimmed, the password is sent as typed. */
export function registerFormBody(values: RegisterValues): RegisterValues {
  return { UserName: values.UserName.trim(), Password: values.Password, FirstName: values.FirstName.trim(), LastName: values.LastName.trim() };
}

export type LinkOutcome = 'success' | 'invalid' | 'error';

const isValidFlag = (v: unknown): boolean | null => {
  if (typeof v !== 'object' || v === null || !('IsValid' in v)) return null;
  const flag = (v as { IsValid: unknown }).IsValid;
  return typeof flag === 'boolean' ? flag : null;
};

/**
 * What an activation or reset call came to: a resolved {IsValid} answer, or a failed call whose envelope
 * still carries {IsValid: false} (the server refuses a spent or unknown link that way), is success or
 * invalid; anything else (validation, network, server error) is an error.
 */
export function linkOutcome(result: { ok: true; data: unknown } | { ok: false; error: unknown }): LinkOutcome {
  if (result.ok) return isValidFlag(result.data) === true ? 'success' : 'invalid';
  const body = (result.error as { body?: unknown } | null)?.body;
  const data = typeof body === 'object' && body !== null && 'Data' in body ? (body as { Data: unknown }).Data : null;
  return isValidFlag(data) === false ? 'invalid' : 'error';
}

export interface QuestionValues {
  Question1: number | string | null;
  Answer1: string;
  Question2: number | string | null;
  Answer2: string;
}

/** The two chosen questions as the server's list of {Id, AnswerText}. */
export function questionsPayload(values: QuestionValues): { Id: number; AnswerText: string }[] {
  return [
    { Id: Number(values.Question1), AnswerText: values.Answer1.trim() },
    { Id: Number(values.Question2), AnswerText: values.Answer2.trim() },
  ];
}

/**
 * The message a failed Forgot Password request shows: the server's own (its MsgText, in the user's language) when it
 * refused because too many reset mails were asked for (429: wait, the address is fine); null for any other failure,
 * which shows the spec's "ensure the email address is correct" text.
 */
export function forgotFailureText(error: unknown): string | null {
  const e = error as { status?: unknown; message?: unknown } | null;
  if (typeof e !== 'object' || e === null || e.status !== 429) return null;
  return typeof e.message === 'string' && e.message.trim() !== '' ? e.message : null;
}

/** The support address shown in messages: /config's value, else the brand manifest's. */
export function supportEmail(config: { SupportEmail: string | null } | undefined, brand: { contacts: { supportEmail: string } }): string {
  return config?.SupportEmail || brand.contacts.supportEmail;
}
