import { type Access, decideAccess, hasAnyRole, IMPERSONATOR_ROLES, roleNames } from '@portal/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { useIdentity, useKernel } from '../context';
import { useActingMemberId } from '../impersonation/acting';
import { returnState } from '../session/after-sign-in';
import { NavigationGate } from './NavigationGate';
import { encodeInvalidData } from './routes';

/**
 * Role gate: not signed in goes to /login (and back here after); a missing role goes to /invalid. Then the plugins'
 * navigation guards (Extensions.navigationGuards) may send the signed-in user elsewhere. A page of one member's data
 * (`memberData`) asks a user who may act for members, acting for nobody and with no member account, to choose one.
 */
export function RequireAccess({ access, memberData = false, children }: { access: Access; memberData?: boolean; children: ReactNode }) {
  const { session } = useKernel();
  const location = useLocation();
  const identity = useIdentity();
  const actingFor = useActingMemberId();
  const { t } = useTranslation();
  if (access === 'public') return <>{children}</>;
  // Back here after the sign-in, for the user whose session this was (or anyone, when nobody's was).
  if (!session.tokens()) return <Navigate to="/login" replace state={returnState(location, session.user())} />;
  if (identity.isPending) return <p aria-busy="true">{t('app.loading')}</p>;
  if (identity.isError || !identity.data) return <Navigate to="/login" replace state={returnState(location, session.user())} />;
  const roles = roleNames(identity.data);
  if (decideAccess(access, roles) !== 'allow') {
    return <Navigate to={`/invalid?data=${encodeURIComponent(encodeInvalidData(location.pathname))}`} replace />;
  }
  if (memberData && actingFor === null && hasAnyRole(roles, IMPERSONATOR_ROLES)) {
    return (
      <p role="status" data-testid="choose-member">
        {t('impersonation.needed')}
      </p>
    );
  }
  return <NavigationGate identity={identity.data}>{children}</NavigationGate>;
}
