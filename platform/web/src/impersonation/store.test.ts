import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { impersonationAtom, kernelStore } from '../store';
import { endImpersonationFor, impersonationHeaderFor, readImpersonation, setImpersonation } from './store';

beforeEach(() => {
  const m = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  });
  kernelStore.set(impersonationAtom, null);
});
afterEach(() => vi.unstubAllGlobals());

describe('the impersonation header', () => {
  it('names the stored member only for a user who may act for one (SuperUser, CareSupport)', () => {
    expect(impersonationHeaderFor(42, ['SuperUser'])).toBe(42);
    expect(impersonationHeaderFor(42, ['Care Support'])).toBe(42);
    // A member signed in on a browser a staff user acted from: the server would refuse every call that names a member.
    expect(impersonationHeaderFor(42, ['CareGuard'])).toBeNull();
    expect(impersonationHeaderFor(42, [])).toBeNull();
    expect(impersonationHeaderFor(42, null)).toBeNull();
    expect(impersonationHeaderFor(null, ['SuperUser'])).toBeNull();
  });
});

describe('ending impersonation with the session', () => {
  it('a sign-out (no roles) forgets the member acted for, in this tab and in the browser', () => {
    const changed = vi.fn();
    setImpersonation(7, () => {});
    endImpersonationFor(null, changed);
    expect(kernelStore.get(impersonationAtom)).toBeNull();
    expect(readImpersonation()).toBeNull();
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('a member signing in starts acting for nobody; a staff user signing in keeps acting for the member', () => {
    setImpersonation(7, () => {});
    endImpersonationFor(['SuperUser'], () => {});
    expect(readImpersonation()).toBe(7);
    endImpersonationFor(['CareAssist'], () => {});
    expect(readImpersonation()).toBeNull();
  });

  it('another staff user signing in on the browser acts for nobody; the staff user who chose the member keeps acting', () => {
    setImpersonation(7, () => {}, 'support-a');
    endImpersonationFor(['CareSupport'], () => {}, 'support-a');
    expect(readImpersonation()).toBe(7);
    // Support A's session ended without a sign-out (the browser closed); support B signs in on the same browser.
    const changed = vi.fn();
    endImpersonationFor(['CareSupport'], changed, 'support-b');
    expect(readImpersonation()).toBeNull();
    expect(kernelStore.get(impersonationAtom)).toBeNull();
    expect(changed).toHaveBeenCalledTimes(1);
    // A value stored before the chooser was kept names nobody: it ends at the next sign-in.
    localStorage.setItem('cq.impersonate', JSON.stringify({ MemberID: 9 }));
    endImpersonationFor(['SuperUser'], () => {}, 'support-a');
    expect(readImpersonation()).toBeNull();
  });

  it('changes nothing, and refreshes nothing, when nobody was acted for', () => {
    localStorage.removeItem('cq.impersonate');
    kernelStore.set(impersonationAtom, null);
    const changed = vi.fn();
    endImpersonationFor(null, changed);
    expect(changed).not.toHaveBeenCalled();
    expect(readImpersonation()).toBeNull();
    expect(kernelStore.get(impersonationAtom)).toBeNull();
    expect(localStorage.getItem('cq.impersonate')).toBeNull();
  });
});
