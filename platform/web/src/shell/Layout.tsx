import { hasAnyRole, IMPERSONATOR_ROLES, Roles } from '@portal/core';
import { useAtomValue } from 'jotai';
import { Component, lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useMatches } from 'react-router-dom';
import { useIdentity, useKernel, useLookups, useRoles } from '../context';
import { useActingMemberId } from '../impersonation/acting';
import { Extensions } from '../plugin';
import { impersonationAtom } from '../store';
import { useConfirmLeave } from './confirmLeave';
import { contributionsTo, ExtensionSlot, useContributions } from './extensions';
import * as searchCss from './GlobalSearch.css';
import { LanguageMenu } from './LanguageMenu';
import * as css from './Layout.css';
import { LeaveGuard } from './LeaveGuard';
import { NavBadges } from './NavBadge';
import { useOnline } from './online';
import { focusIsLost, shouldFocusHeading } from './pageFocus';
import { activeNavPath, type FlatRoute, flattenRoutes, type NavGroupDecl, navTree } from './routes';
import { useIdle } from './useIdle';

/** The toolbar's search (react-aria ComboBox): its own chunk, so the sign-in path does not carry it. */
const GlobalSearch = lazy(() => import('./GlobalSearch').then((m) => ({ default: m.GlobalSearch })));
// Staff's alone (SuperUser, CareSupport): loaded for them, never on a member's sign-in path.
const ImpersonationPicker = lazy(() => import('./ImpersonationPicker').then((m) => ({ default: m.ImpersonationPicker })));
// The banner's word that the member acted for is terminated: staff's alone, as the picker.
const ImpersonationTermination = lazy(() => import('./ImpersonationTermination').then((m) => ({ default: m.ImpersonationTermination })));

/** Toolbar colour by role (spec 01 section 6): green for CareAssist, purple for CareGuard, blue otherwise. */
export function toolbarVariant(roles: readonly string[]): keyof typeof css.toolbarColour {
  if (hasAnyRole(roles, [Roles.CareAssist])) return 'assist';
  if (hasAnyRole(roles, [Roles.CareGuard])) return 'guard';
  return 'standard';
}

function navGroups(plugins: ReturnType<typeof useKernel>['plugins']): NavGroupDecl[] {
  return contributionsTo(plugins, Extensions.navGroups).map((g) => ({ id: g.id, label: g.label, order: g.order, namespace: g.pluginId }));
}

function NavLink({ route, activePath }: { route: FlatRoute; activePath: string | null }) {
  const { t } = useTranslation();
  const active = route.path === activePath;
  return (
    <Link to={route.path} className={`${css.navLink} ${active ? css.navLinkActive : ''}`} aria-current={active ? 'page' : undefined}>
      {t(route.nav?.label ?? route.title, { ns: route.namespace })}
      <NavBadges path={route.path} />
    </Link>
  );
}

export interface RouteHandle {
  title?: string;
  namespace?: string;
}

/** The signed-in layout: navigation bar, route-title header, impersonation banner; loads the lookup cache once. */
/**
 * A secondary control of the layout loaded on demand (the search box, the member picker): while its code loads, and if
 * it cannot be loaded (offline, a network failure), `fallback` holds its place and the rest of the layout stays usable,
 * instead of the failure taking the whole layout's place. It is asked for again at the next page load.
 */
class QuietPart extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (this.state.failed) return this.props.fallback;
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
  }
}

/** Holds the search box's place until it loads, so the toolbar does not move. */
const searchPlaceholder = (
  <div className={searchCss.box}>
    <input className={searchCss.input} disabled aria-hidden="true" tabIndex={-1} />
  </div>
);

/** The signed-in layout, inside the guard against leaving unsaved changes (its sign-out and Stop ask it too). */
export function Layout() {
  return (
    <LeaveGuard>
      <LayoutBody />
    </LeaveGuard>
  );
}

function LayoutBody() {
  const kernel = useKernel();
  const confirmLeave = useConfirmLeave();
  const { t } = useTranslation();
  const online = useOnline();
  const roles = useRoles();
  const identity = useIdentity();
  const location = useLocation();
  const impersonated = useAtomValue(impersonationAtom);
  const acting = useActingMemberId();
  useLookups(); // warm the cache once; pages proceed whether or not it loads
  const routes: FlatRoute[] = flattenRoutes(kernel.plugins);
  const hasSearch = useContributions(Extensions.searchProviders).length > 0;
  const nav = navTree(routes, navGroups(kernel.plugins), roles);
  const activePath = activeNavPath(
    nav.flatMap((i) => (i.kind === 'link' ? [i.route.path] : i.routes.map((r) => r.path))),
    location.pathname,
  );
  const matches = useMatches();
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as RouteHandle | undefined;
  const title = handle?.title ? t(handle.title, { ns: handle.namespace }) : '';
  // The toolbar's search box and the help dialogs load once the page has painted (see useIdle).
  const idle = useIdle();
  // On a phone the navigation folds behind the Menu button (kit/media NARROW_SCREEN); opening a page folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location.pathname]);

  useEffect(() => {
    document.title = title ? `${title} · ${kernel.brand.displayName}` : kernel.brand.displayName;
  }, [title, kernel.brand.displayName]);

  // A new page says so: on a move to another path, focus goes to its heading (a screen reader reads the new page's
  // title, and Tab goes on into the page) unless the page has put focus somewhere in itself already; the first page
  // of a visit keeps the browser's own start.
  const heading = useRef<HTMLHeadingElement>(null);
  const firstPath = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    if (shouldFocusHeading(document.activeElement, document.getElementById('main'))) heading.current?.focus({ preventScroll: true });
  }, [location.pathname]);

  // Acting for a member swaps the toolbar's picker for the banner, and stopping swaps them back: the control pressed
  // goes away with its part. Focus goes on to the other one's control (Stop, or the picker's box; the picker loads
  // lazily, so a few frames are waited for it), unless the user has moved it somewhere already.
  const stopActing = useRef<HTMLButtonElement>(null);
  const actingBefore = useRef(impersonated);
  useEffect(() => {
    if (actingBefore.current === impersonated) return;
    const started = actingBefore.current === null;
    actingBefore.current = impersonated;
    let frames = 0;
    let frame = 0;
    const settle = () => {
      if (!focusIsLost()) return;
      const target = started ? stopActing.current : document.getElementById('impersonate-member');
      if (target) target.focus();
      else if (frames++ < 30) frame = requestAnimationFrame(settle);
    };
    frame = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(frame);
  }, [impersonated]);

  return (
    <>
      <a href="#page-title" className={css.skip}>
        {t('app.skipToContent')}
      </a>
      <header className={`${css.toolbar} ${css.toolbarColour[toolbarVariant(roles)]}`} data-testid="toolbar">
        <Link to="/" className={css.brandName}>
          {kernel.brand.displayName}
        </Link>
        <button
          type="button"
          className={`${css.toolbarButton} ${css.menuButton}`}
          aria-expanded={menuOpen}
          aria-controls="main-navigation"
          onClick={() => setMenuOpen((v) => !v)}
        >
          {t('app.menu')}
        </button>
        {/* The search box loads lazily; until then a box of its size holds its place, so the toolbar does not move. */}
        {hasSearch && (idle ? <QuietPart fallback={searchPlaceholder}>{<GlobalSearch />}</QuietPart> : searchPlaceholder)}
        {impersonated === null && hasAnyRole(roles, IMPERSONATOR_ROLES) && (
          <QuietPart fallback={null}>
            <ImpersonationPicker />
          </QuietPart>
        )}
        <LanguageMenu />
        <div className={css.user}>
          <span data-testid="display-name" data-user-name={identity.data?.Name}>
            {identity.data?.DisplayName}
          </span>
          <button
            type="button"
            className={css.toolbarButton}
            onClick={() => {
              void confirmLeave('session').then((leave) => {
                if (leave) void kernel.signOut();
              });
            }}
          >
            {t('app.signOut')}
          </button>
        </div>
        {/* Last in the document as on the screen (its own row under the tools): Tab reaches the tools first. */}
        <nav id="main-navigation" aria-label={t('app.mainNavigation')} className={css.nav} data-open={menuOpen || undefined}>
          <ul className={css.navList}>
            {nav.map((item) =>
              item.kind === 'link' ? (
                <li key={item.route.path}>
                  <NavLink route={item.route} activePath={activePath} />
                </li>
              ) : (
                <li key={item.group.id}>
                  {/* A native disclosure: keyboard and screen readers work without script. */}
                  <details className={css.navGroup}>
                    <summary className={`${css.navLink} ${item.routes.some((x) => x.path === activePath) ? css.navLinkActive : ''}`}>
                      {t(item.group.label, { ns: item.group.namespace })}
                    </summary>
                    <ul className={css.navGroupList}>
                      {item.routes.map((x) => (
                        <li key={x.path}>
                          <NavLink route={x} activePath={activePath} />
                        </li>
                      ))}
                    </ul>
                  </details>
                </li>
              ),
            )}
          </ul>
        </nav>
      </header>
      {impersonated !== null && hasAnyRole(roles, IMPERSONATOR_ROLES) && (
        <div className={css.banner} role="status">
          <span>{t('impersonation.banner', { memberId: impersonated })}</span>
          <QuietPart fallback={null}>
            <ImpersonationTermination />
          </QuietPart>
          <button
            ref={stopActing}
            type="button"
            className={css.toolbarButton}
            style={{ color: 'inherit', borderColor: 'currentColor' }}
            onClick={() => {
              void confirmLeave().then((leave) => {
                if (leave) kernel.setImpersonation(null);
              });
            }}
          >
            {t('impersonation.stop')}
          </button>
        </div>
      )}
      {/* Present from the start, so a screen reader hears the words when the network goes. */}
      <div role="status" className={online ? undefined : css.banner} data-testid="offline-notice">
        {online ? null : t('app.offline')}
      </div>
      <div className={css.titleBar}>
        <h1 id="page-title" ref={heading} tabIndex={-1} className={css.title}>
          {title}
        </h1>
        {idle && <ExtensionSlot point={Extensions.helpDialogs} props={{}} />}
      </div>
      <main id="main" className={css.main}>
        <Suspense fallback={<p aria-busy="true">{t('app.loading')}</p>}>
          {/* Drawn anew for another member acted for: what the page holds itself (a form, a selection, a draft)
              starts over, as its cached data does (shell/sessionFlow.ts forgetMemberData). */}
          <Outlet key={acting ?? 'nobody'} />
        </Suspense>
      </main>
    </>
  );
}
