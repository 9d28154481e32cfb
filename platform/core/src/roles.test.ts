import { describe, expect, it } from 'vitest';
import { decideAccess, hasAnyRole, Roles } from './roles';

describe('role matcher', () => {
  it('allows a user holding any of the listed roles', () => {
    expect(hasAnyRole(['CareGuard'], [Roles.SuperUser, Roles.CareGuard])).toBe(true);
  });
  it('ignores case and spaces on both sides', () => {
    expect(hasAnyRole(['care guard finance'], ['CareGuardFinance'])).toBe(true);
    expect(hasAnyRole(['SUPERUSER'], ['Super User'])).toBe(true);
  });
  it('refuses a user holding none of them', () => {
    expect(hasAnyRole(['CareAssist'], ['CareGuard', 'CareGuardFinance'])).toBe(false);
    expect(hasAnyRole([], ['CareGuard'])).toBe(false);
  });
  it('treats an empty requirement as any signed-in user', () => {
    expect(hasAnyRole([], [])).toBe(true);
  });
  it('decides access: public, signed-in only, and role lists', () => {
    expect(decideAccess('public', null)).toBe('allow');
    expect(decideAccess('authenticated', null)).toBe('unauthenticated');
    expect(decideAccess('authenticated', [])).toBe('allow');
    expect(decideAccess([Roles.CareSupport], null)).toBe('unauthenticated');
    expect(decideAccess([Roles.CareSupport], ['CareGuard'])).toBe('forbidden');
    expect(decideAccess([Roles.CareSupport], ['caresupport'])).toBe('allow');
  });
});
