import type { ThrottleRule } from '@portal/server';

/** Limits on mail-sending and password calls, counted by the kernel's throttle service. */
export const ACCOUNT_THROTTLE = {
  registerPerAddress: { kind: 'account-register-ip', max: 10, windowSeconds: 60 * 60 },
  registerPerName: { kind: 'account-register-name', max: 5, windowSeconds: 60 * 60 },
  resetMailPerAddress: { kind: 'account-reset-ip', max: 10, windowSeconds: 60 * 60 },
  resetMailPerName: { kind: 'account-reset-name', max: 3, windowSeconds: 15 * 60 },
  passwordFailuresPerUser: { kind: 'account-password-fail', max: 10, windowSeconds: 15 * 60 },
  // Counted for every call, right password or wrong, and never cleared: each one checks a password (and may hash one),
  // which a right password would otherwise let a signed-in user repeat without end.
  passwordChangesPerUser: { kind: 'account-password-change', max: 10, windowSeconds: 60 * 60 },
  // Each request with the right password mails a link to an address of the caller's choosing.
  emailChangesPerUser: { kind: 'account-email-change', max: 5, windowSeconds: 60 * 60 },
  // Each save hashes two answers.
  questionChangesPerUser: { kind: 'account-questions', max: 10, windowSeconds: 60 * 60 },
} as const satisfies Record<string, ThrottleRule>;
