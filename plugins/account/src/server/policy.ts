import { type Message, msg, type Text } from '@portal/server';
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
const COMMON = 'Not a commonly used password';

/** A rule of the policy: its message (translated into the user's language on the way out) and its pattern. */
interface Rule {
  message: Message;
  Validator: string;
}

/**
 * The password policy (GET reset/passwordpolicy): each rule a message and a pattern the client shows as a
 * checklist (spec 01 section 5). Together they are the reset pattern (8+ characters, a letter and a digit,
 * letters, digits and ! $ % @ # £ € * ? & only), a length limit of 128, and a refusal of common passwords.
 */
const RULES: readonly Rule[] = [
  { message: 'At least 8 characters', Validator: '^[\\s\\S]{8,}$' },
  { message: msg('No more than {{max}} characters', { max: PASSWORD_MAX_LENGTH }), Validator: `^[\\s\\S]{0,${PASSWORD_MAX_LENGTH}}$` },
  { message: 'At least one letter', Validator: '[A-Za-z]' },
  { message: 'At least one digit', Validator: '\\d' },
  { message: 'Only letters, digits and ! $ % @ # £ € * ? &', Validator: `^[${ALLOWED}]*$` },
  { message: COMMON, Validator: `^(?!(?:${listedInRule.map(caseless).join('|')})$)` },
];

/** The policy in a language (the client's checklist shows the messages as they come). */
export function passwordRules(t: (message: Message) => string): PasswordRule[] {
  return RULES.map((r) => ({ Message: t(r.message), Validator: r.Validator }));
}

/** The policy in English. */
export const PASSWORD_RULES: readonly PasswordRule[] = passwordRules(String);

const compiled = RULES.map((r) => ({ message: r.message, re: new RegExp(r.Validator) }));

/** The messages of the rules a password fails; empty when it passes them all. */
export function passwordProblems(password: string): Message[] {
  const failed = compiled.filter((r) => !r.re.test(password)).map((r) => r.message);
  // The server also checks the whole list directly (the pattern holds only entries the other rules allow).
  if (commonSet.has(password.toLowerCase()) && !failed.includes(COMMON)) failed.push(COMMON);
  return failed;
}

/** The messages joined by '; ', as one message whose parts are translated with it. */
function joined(items: readonly Message[]): Text {
  const [first = msg(''), ...rest] = items.map((m) => (typeof m === 'string' ? msg(m) : m));
  return rest.reduce((all, item) => msg('{{all}}; {{item}}', { all, item }), first);
}

/** The refusal of a password that fails rules of the policy, naming them. */
export function policyMessage(problems: readonly Message[]): Message {
  return msg('The password does not meet the password policy: {{problems}}.', { problems: joined(problems) });
}
