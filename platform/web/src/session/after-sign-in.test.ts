import { describe, expect, it } from 'vitest';
import { afterSignInPath, isSignInPage, returnState } from './after-sign-in';

describe('afterSignInPath', () => {
  it('goes back to the page whose session ended, with its query', () => {
    expect(afterSignInPath({ from: { pathname: '/claims/42', search: '?tab=notes' }, user: 'u1' }, '/dashboard', 'u1')).toBe('/claims/42?tab=notes');
  });
  it('goes to the landing page, else home, when no page asked', () => {
    expect(afterSignInPath(null, '/dashboard', 'u1')).toBe('/dashboard');
    expect(afterSignInPath(undefined, null, 'u1')).toBe('/');
    expect(afterSignInPath({}, null, 'u1')).toBe('/');
  });
  it('goes back only for the user whose session ended there: another user signing in on the tab lands on their own page', () => {
    expect(afterSignInPath({ from: { pathname: '/notes/57' }, user: 'alice' }, '/dashboard', 'bob')).toBe('/dashboard');
    expect(afterSignInPath({ from: { pathname: '/notes/57' }, user: 'alice' }, null, null)).toBe('/');
    expect(afterSignInPath({ from: { pathname: '/notes/57' }, user: 'alice' }, '/dashboard', 'alice')).toBe('/notes/57');
  });
  it('goes to a page asked for before anyone signed in on the tab (a link opened signed out), whoever signs in', () => {
    expect(afterSignInPath({ from: { pathname: '/help' } }, '/dashboard', 'bob')).toBe('/help');
    expect(afterSignInPath({ from: { pathname: '/help' }, user: null }, '/dashboard', 'bob')).toBe('/help');
  });
  it('builds the state a move to the sign-in page carries: the page, and whose session it was', () => {
    const here = { pathname: '/notes/57', search: '?q=x' };
    expect(returnState(here, 'alice')).toEqual({ from: here, user: 'alice' });
    // A sign-in page has no page to come back to.
    expect(returnState({ pathname: '/login' }, 'alice')).toBeUndefined();
  });
  it('never goes back to a sign-in page (a stored session that ended on /login named /login)', () => {
    expect(afterSignInPath({ from: { pathname: '/login', search: '' } }, '/dashboard', null)).toBe('/dashboard');
    expect(afterSignInPath({ from: { pathname: '/Register' } }, null, null)).toBe('/');
    expect(isSignInPage('/login/reset/abc')).toBe(true);
    expect(isSignInPage('/loginhelp')).toBe(false);
  });
});
