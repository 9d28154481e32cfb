import { describe, expect, it } from 'vitest';
import { afterSignInPath, isSignInPage } from './after-sign-in';

describe('afterSignInPath', () => {
  it('goes back to the page whose session ended, with its query', () => {
    expect(afterSignInPath({ pathname: '/claims/42', search: '?tab=notes' }, '/dashboard')).toBe('/claims/42?tab=notes');
  });
  it('goes to the landing page, else home, when no page asked', () => {
    expect(afterSignInPath(null, '/dashboard')).toBe('/dashboard');
    expect(afterSignInPath(undefined, null)).toBe('/');
  });
  it('never goes back to a sign-in page (a stored session that ended on /login named /login)', () => {
    expect(afterSignInPath({ pathname: '/login', search: '' }, '/dashboard')).toBe('/dashboard');
    expect(afterSignInPath({ pathname: '/Register' }, null)).toBe('/');
    expect(isSignInPage('/login/reset/abc')).toBe(true);
    expect(isSignInPage('/loginhelp')).toBe(false);
  });
});
