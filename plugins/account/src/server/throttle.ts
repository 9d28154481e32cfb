import type { ThrottleRule } from '@portal/server';

/** Limits on mail-sending and password calls, counted by the kernel's throttle service. */
export const ACCOUNT_THROTTLE = {
  registerPerAddress: { kind: 'account-register-ip', max: 10, windowSeconds: 60 * 60 },
  registerPerName: { kind: 'account-register-name', max: 5, windowSeconds: 60 * 60 },
  resetMailPerAddress: { kind: 'account-reset-ip', max: 10, windowSeconds: 60 * 60 },
  resetMailPerName: { kind: 'account-reset-name', max: 3, windowSeconds: 15 * 60 },
  passwordFailuresPerUser: { kind: 'account-password-fail', max: 10, windowSeconds: 15 * 60 },
} as const satisfies Record<string, ThrottleRule>;
