import type { PasswordRule } from '../contract';
import { COMMON_PASSWORDS } from './common-passwords';

export const PASSWORD_MAX_LENGTH = 128;

/** A regular expression source matching s in any letter case, without flags (the client compiles it as is). */
function caseless(s: string): string {
  return [...s]
    .map((c) => {
      const lo = c.toLowerCase();
      const up = c.toUpperCase();
      if (lo !== up) return `[${lo}${up}]`;
      return c.replace(/[\\^$.*+?()[\]{}|/-]/g, (x) => `\\${x}`);
    })
    .join('');
}

const ALLOWED = 'A-Za-z\\d!$%@#£€*?&';

// Only list entries the other rules would let through: the regex stays short and says the same.
const allowedPattern = new RegExp(`^[${ALLOWED}]{8,}$`);
const listedInRule = COMMON_PASSWORDS.filter((p) => allowedPattern.test(p) && /[A-Za-z]/.test(p) && /\d/.test(p));
const commonSet = new Set(COMMON_PASSWORDS.map((p) => p.toLowerCase()));

/**
 * The password policy (GET reset/passwordpolicy): each rule a message and a pattern the client shows as a
 * checklist (spec 01 section 5). Together they are the reset pattern (8+ characters, a letter and a digit,
 * letters, digits and ! $ % @ # £ € * ? & only), a length limit of 128, and a refusal of common passwords.
 */
export const PASSWORD_RULES: readonly PasswordRule[] = [
  { Message: 'At least 8 characters', Validator: '^[\\s\\S]{8,}$' },
  { Message: `No more than ${PASSWORD_MAX_LENGTH} characters`, Validator: `^[\\s\\S]{0,${PASSWORD_MAX_LENGTH}}$` },
  { Message: 'At least one letter', Validator: '[A-Za-z]' },
  { Message: 'At least one digit', Validator: '\\d' },
  { Message: 'Only letters, digits and ! $ % @ # £ € * ? &', Validator: `^[${ALLOWED}]*$` },
  { Message: 'Not a commonly used password', Validator: `^(?!(?:${listedInRule.map(caseless).join('|')})$)` },
];

const compiled = PASSWORD_RULES.map((r) => ({ message: r.Message, re: new RegExp(r.Validator) }));

/** The messages of the rules a password fails; empty when it passes them all. */
export function passwordProblems(password: string): string[] {
  const failed = compiled.filter((r) => !r.re.test(password)).map((r) => r.message);
  // The server also checks the whole list directly (the pattern holds only entries the other rules allow).
  if (commonSet.has(password.toLowerCase()) && !failed.includes('Not a commonly used password')) failed.push('Not a commonly used password');
  return failed;
}

export function policyMessage(problems: string[]): string {
  return `The password does not meet the password policy: ${problems.join('; ')}.`;
}
