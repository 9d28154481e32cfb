import { describe, expect, it } from 'vitest';
import { cameFromState, hasInAppBack, readCameFrom } from './cameFrom';

describe('the way back a page was opened with', () => {
  it('keeps the list address with its query and the back link words', () => {
    const state = cameFromState({ pathname: '/support-members', search: '?q=ann&status=All' }, 'support:members.back');
    expect(readCameFrom(state)).toEqual({ path: '/support-members?q=ann&status=All', label: 'support:members.back' });
  });

  it('finds none in an entry with no state or other state', () => {
    expect(readCameFrom(null)).toBeNull();
    expect(readCameFrom(undefined)).toBeNull();
    expect(readCameFrom('x')).toBeNull();
    expect(readCameFrom({ from: '/login' })).toBeNull();
    expect(readCameFrom({ cameFrom: { path: '/users' } })).toBeNull();
  });

  it('never leads off the site', () => {
    for (const path of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'users', 'javascript:alert(1)']) {
      expect(readCameFrom({ cameFrom: { path, label: 'users:detail.back' } })).toBeNull();
    }
  });

  it('takes only an i18n key with its namespace as the words', () => {
    expect(readCameFrom({ cameFrom: { path: '/users', label: 'Click <b>here</b>' } })).toBeNull();
    expect(readCameFrom({ cameFrom: { path: '/users', label: 'detail.back' } })).toBeNull();
  });
});

describe('Back stays in the app only after an in-app entry', () => {
  it('goes back from the second entry of the tab on, not from the first (a shared link, a new tab) or a foreign state', () => {
    expect(hasInAppBack({ usr: null, key: 'a1', idx: 1 })).toBe(true);
    expect(hasInAppBack({ usr: null, key: 'default', idx: 0 })).toBe(false);
    expect(hasInAppBack(null)).toBe(false);
    expect(hasInAppBack({ idx: '3' })).toBe(false);
  });
});
