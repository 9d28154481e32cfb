import { hasAnyRole, IMPERSONATOR_ROLES, roleNames } from '@portal/core';
import { useAtomValue } from 'jotai';
import { useIdentity } from '../context';
import { impersonationAtom } from '../store';

/**
 * Whose member data the API works on for this user: the member a SuperUser or CareSupport user acts for (spec 01
 * section 6), else the user's own member record. null: nobody, a staff user acting for no member, whose calls on a
 * member's data are refused; undefined: not known yet (the identity is loading).
 */
export function useActingMemberId(): number | null | undefined {
  const impersonated = useAtomValue(impersonationAtom);
  const { data } = useIdentity();
  // Only a user who may act for a member acts for one (the client sends the header for no one else).
  if (impersonated !== null && (!data || hasAnyRole(roleNames(data), IMPERSONATOR_ROLES))) return impersonated;
  return data ? data.MemberID : undefined;
}
