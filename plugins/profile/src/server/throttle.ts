import type { ThrottleRule } from '@portal/server';

/** Limits on SMS codes and carrier lookups, counted by the kernel's throttle service. */
export const PROFILE_THROTTLE = {
  codesPerNumber: { kind: 'profile-sms-number', max: 5, windowSeconds: 60 * 60 },
  codesPerMember: { kind: 'profile-sms-member', max: 8, windowSeconds: 60 * 60 },
  phoneChecksPerUser: { kind: 'profile-phone-check', max: 60, windowSeconds: 15 * 60 },
} as const satisfies Record<string, ThrottleRule>;
