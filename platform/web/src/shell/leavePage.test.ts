import { describe, expect, it } from 'vitest';
import { keepPageState, leavesPage } from './leavePage';

const at = (pathname: string, search = '') => ({ pathname, search });

describe('leavesPage: which moves take a page (and its unsaved form) away', () => {
  it('a link or Back to another path leaves the page', () => {
    expect(leavesPage(at('/profile'), at('/claims'), 'PUSH')).toBe(true);
    expect(leavesPage(at('/claims/12'), at('/claims'), 'POP')).toBe(true);
    expect(leavesPage(at('/claims/12'), at('/claims'), 'REPLACE')).toBe(true);
  });

  it('a session ending (the move to the sign-in page) is never held', () => {
    expect(leavesPage(at('/profile'), at('/login'), 'PUSH')).toBe(false);
    expect(leavesPage(at('/profile'), at('/LOGIN'), 'REPLACE')).toBe(false);
  });

  it("the page's own filters and paging rewriting the query string in place stay on the page", () => {
    expect(leavesPage(at('/notes'), at('/notes', '?page=2'), 'REPLACE')).toBe(false);
  });

  it('a new query string pushed (a tab, another record) or gone Back to leaves the page', () => {
    expect(leavesPage(at('/users', '?tab=details'), at('/users', '?tab=teams'), 'PUSH')).toBe(true);
    expect(leavesPage(at('/users', '?tab=teams'), at('/users', '?tab=details'), 'POP')).toBe(true);
  });

  it('the same place again (a link to this page) does not leave it', () => {
    expect(leavesPage(at('/profile', '?a=1'), at('/profile', '?a=1'), 'PUSH')).toBe(false);
  });
});

describe('keepPageState: a move whose caller asked about its own part', () => {
  it('is let through when pushed or replaced, keeping the state it carried (the way back)', () => {
    const state = keepPageState({ path: '/users?q=a', label: 'users:detail.back' });
    expect(state).toEqual({ path: '/users?q=a', label: 'users:detail.back', keptPage: true });
    expect(leavesPage(at('/users/7/details-profile'), { ...at('/users/7/details-addresses'), state }, 'REPLACE')).toBe(false);
    expect(leavesPage(at('/users/7'), { ...at('/users/7/details-card'), state: keepPageState(null) }, 'PUSH')).toBe(false);
  });

  it('Back or Forward to an entry so marked is a move like any other', () => {
    expect(leavesPage(at('/notes-new'), { ...at('/users/7/details-card'), state: keepPageState(null) }, 'POP')).toBe(true);
  });
});
