/** One server-driven rule: a message and a regular expression source (spec 01 section 5). */
export interface PasswordRule {
  Message: string;
  Validator: string;
}

export interface PasswordRuleResult {
  Message: string;
  passed: boolean;
}

export interface PasswordPolicyResult {
  results: PasswordRuleResult[];
  /** True only when every rule passes. */
  valid: boolean;
}

/** Reset pattern: 8+ characters, a letter and a digit, only letters, digits and ! $ % @ # £ € * ? &. */
export const RESET_PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d!$%@#£€*?&]{8,}$/;

function compile(source: string): RegExp | null {
  try {
    return new RegExp(source);
  } catch {
    // A malformed server pattern must fail closed, not crash the form.
    return null;
  }
}

export function evaluatePasswordPolicy(password: string | null | undefined, rules: readonly PasswordRule[]): PasswordPolicyResult {
  const text = password ?? '';
  const results = rules.map((rule) => ({ Message: rule.Message, passed: compile(rule.Validator)?.test(text) ?? false }));
  return { results, valid: results.every((r) => r.passed) };
}
