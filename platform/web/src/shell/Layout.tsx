import { hasAnyRole, IMPERSONATOR_ROLES, Roles } from '@portal/core';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useMatches } from 'react-router-dom';
import { useIdentity, useKernel, useLookups, useRoles } from '../context';
import { impersonationAtom } from '../store';
import { ImpersonationPicker } from './ImpersonationPicker';
import * as css from './Layout.css';
import { type FlatRoute, flattenRoutes, isActive, navEntries } from './routes';

/** Toolbar colour by role (spec 01 section 6): green for CareAssist, purple for CareGuard, blue otherwise. */
export function toolbarVariant(roles: readonly string[]): keyof typeof css.toolbarColour {
  if (hasAnyRole(roles, [Roles.CareAssist])) return 'assist';
  if (hasAnyRole(roles, [Roles.CareGuard])) return 'guard';
  return 'standard';
}

export interface RouteHandle {
  title?: string;
  namespace?: string;
}

/** The signed-in layout: navigation bar, route-title header, impersonation banner; loads the lookup cache once. */
export function Layout() {
  const kernel = useKernel();
  const { t } = useTranslation();
  const roles = useRoles();
  const identity = useIdentity();
  const location = useLocation();
  const impersonated = useAtomValue(impersonationAtom);
  useLookups(); // warm the cache once; pages proceed whether or not it loads
  const routes: FlatRoute[] = flattenRoutes(kernel.plugins);
  const nav = navEntries(routes, roles);
  const matches = useMatches();
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as RouteHandle | undefined;
  const title = handle?.title ? t(handle.title, { ns: handle.namespace }) : '';
  // Help dialogs offered by plugins through the helpDialogs slot, loaded with the layout's first render.
  const helpSlots = useMemo(() => kernel.plugins.flatMap((p) => (p.slots?.helpDialogs ? [lazy(p.slots.helpDialogs)] : [])), [kernel.plugins]);

  useEffect(() => {
    document.title = title ? `${title} · ${kernel.brand.displayName}` : kernel.brand.displayName;
  }, [title, kernel.brand.displayName]);

  return (
    <>
      <a href="#main" className={css.skip}>
        {t('app.skipToContent')}
      </a>
      <header className={`${css.toolbar} ${css.toolbarColour[toolbarVariant(roles)]}`} data-testid="toolbar">
        <Link to="/" className={css.brandName}>
          {kernel.brand.displayName}
        </Link>
        <nav aria-label={t('app.mainNavigation')} style={{ flex: 1 }}>
          <ul className={css.navList}>
            {nav.map((r) => {
              const active = isActive(r.path, location.pathname);
              return (
                <li key={r.path}>
                  <Link to={r.path} className={`${css.navLink} ${active ? css.navLinkActive : ''}`} aria-current={active ? 'page' : undefined}>
                    {t(r.nav?.label ?? r.title, { ns: r.namespace })}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        {impersonated === null && hasAnyRole(roles, IMPERSONATOR_ROLES) && <ImpersonationPicker />}
        <div className={css.user}>
          <span data-testid="display-name">{identity.data?.Name}</span>
          <button type="button" className={css.toolbarButton} onClick={() => void kernel.signOut()}>
            {t('app.signOut')}
          </button>
        </div>
      </header>
      {impersonated !== null && (
        <div className={css.banner} role="status">
          <span>{t('impersonation.banner', { memberId: impersonated })}</span>
          <button
            type="button"
            className={css.toolbarButton}
            style={{ color: 'inherit', borderColor: 'currentColor' }}
            onClick={() => kernel.setImpersonation(null)}
          >
            {t('impersonation.stop')}
          </button>
        </div>
      )}
      <div className={css.titleBar}>
        <h1 className={css.title}>{title}</h1>
        <Suspense fallback={null}>
          {helpSlots.map((HelpDialogs, i) => (
            <HelpDialogs key={i} />
          ))}
        </Suspense>
      </div>
      <main id="main" className={css.main}>
        <Suspense fallback={<p aria-busy="true">{t('app.loading')}</p>}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
