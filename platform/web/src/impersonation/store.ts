import { hasAnyRole, IMPERSONATOR_ROLES } from '@portal/core';
import { impersonationAtom, kernelStore } from '../store';

const KEY = 'cq.impersonate';
const CHANNEL = 'cq-impersonation';

const stored = (): { MemberID?: unknown; By?: unknown } | null => {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? 'null');
  } catch {
    return null;
  }
};

/**
 * Impersonation is kept per browser (localStorage) and told to the other tabs, which refresh their data. It names the
 * staff user who chose the member (`By`, their token's subject): another user signing in on this browser after a
 * session that ended without a sign-out (a closed browser, an idle time-out) acts for nobody.
 */
export function readImpersonation(): number | null {
  const v = stored();
  return typeof v?.MemberID === 'number' ? v.MemberID : null;
}

let channel: BroadcastChannel | null = null;

/** Loads the stored value before the first request and follows changes from other tabs. */
export function initImpersonation(onChange: () => void): void {
  kernelStore.set(impersonationAtom, readImpersonation());
  const apply = () => {
    const v = readImpersonation();
    if (v !== kernelStore.get(impersonationAtom)) {
      kernelStore.set(impersonationAtom, v);
      onChange();
    }
  };
  if (typeof BroadcastChannel !== 'undefined') {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = apply;
  }
  window.addEventListener('storage', (e) => {
    if (e.key === KEY) apply();
  });
}

export function setImpersonation(memberId: number | null, onChange: () => void, by: string | null = null): void {
  if (memberId === null) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, JSON.stringify({ MemberID: memberId, By: by }));
  kernelStore.set(impersonationAtom, memberId);
  channel?.postMessage({ MemberID: memberId });
  onChange();
}

/**
 * The member the calls name in the impersonation header: the stored one, but only while the signed-in user may act for
 * a member (SuperUser, CareSupport, as the token's roles say). A value left in this browser by a staff user who acted
 * for someone is never sent for another user: the server refuses every call of a non-impersonator that names a
 * member, the identity call included, which would shut that user out (spec 01 section 6).
 */
export function impersonationHeaderFor(stored: number | null, roles: readonly string[] | null): number | null {
  return stored !== null && roles !== null && hasAnyRole(roles, IMPERSONATOR_ROLES) ? stored : null;
}

/**
 * Ends acting for a member when a session ends or another user's starts (spec 01 section 4: sign-out clears the
 * identity): for `roles` null (no session), a user who may not act for a member, or a user (`user`, given at a
 * sign-in) other than the one who chose the member.
 */
export function endImpersonationFor(roles: readonly string[] | null, onChange: () => void, user?: string | null): void {
  if (kernelStore.get(impersonationAtom) === null && readImpersonation() === null) return;
  if (roles === null || !hasAnyRole(roles, IMPERSONATOR_ROLES) || (user !== undefined && stored()?.By !== user)) setImpersonation(null, onChange);
}
