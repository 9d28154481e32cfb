import { type Access, decideAccess, roleNames } from '@portal/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { useIdentity, useKernel } from '../context';
import { NavigationGate } from './NavigationGate';
import { encodeInvalidData } from './routes';

/**
 * Role gate: not signed in goes to /login (and back here after); a missing role goes to /invalid. Then the plugins'
 * navigation guards (Extensions.navigationGuards) may send the signed-in user elsewhere.
 */
export function RequireAccess({ access, children }: { access: Access; children: ReactNode }) {
  const { session } = useKernel();
  const location = useLocation();
  const identity = useIdentity();
  const { t } = useTranslation();
  if (access === 'public') return <>{children}</>;
  if (!session.tokens()) return <Navigate to="/login" replace state={{ from: location }} />;
  if (identity.isPending) return <p aria-busy="true">{t('app.loading')}</p>;
  if (identity.isError || !identity.data) return <Navigate to="/login" replace state={{ from: location }} />;
  if (decideAccess(access, roleNames(identity.data)) !== 'allow') {
    return <Navigate to={`/invalid?data=${encodeURIComponent(encodeInvalidData(location.pathname))}`} replace />;
  }
  return <NavigationGate identity={identity.data}>{children}</NavigationGate>;
}
