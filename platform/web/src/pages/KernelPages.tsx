import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useKernel, useRoles } from '../context';
import * as css from '../shell/Layout.css';
import { ErrorNotice } from '../shell/RouteError';
import { decodeInvalidData, flattenRoutes, homePath, safeDestination } from '../shell/routes';
import { type HandOverState, handOverOnce, handOverState } from './handOver';

/** /invalid: no permission; the data query value is base64 text shown as text, never as HTML. */
export function InvalidPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const detail = decodeInvalidData(params.get('data'));
  return (
    <main id="main" className={css.main}>
      <div className={css.card}>
        <h1 className={css.title}>{t('invalid.title')}</h1>
        <p>{t('invalid.text')}</p>
        {detail && <p data-testid="invalid-detail">{t('invalid.detail', { detail })}</p>}
        <Link to="/">{t('invalid.back')}</Link>
      </div>
    </main>
  );
}

/**
 * Signs out the session open in this tab (on the server too, and its cached data), then stores the token handed over
 * in the address. 'none' without a token, 'pending' until it is stored, then 'stored', or 'failed' when it could not
 * be (kernel.handOver refused: the browser would not store it).
 */
function useStoreHandedToken(token: string | undefined): HandOverState {
  const kernel = useKernel();
  const [settled, setSettled] = useState<{ token: string; stored: boolean } | null>(null);
  useEffect(() => {
    if (!token) return;
    let live = true;
    void handOverOnce(token, (t) => kernel.handOver(t)).then((stored) => {
      if (live) setSettled({ token, stored });
    });
    return () => {
      live = false;
    };
  }, [token, kernel]);
  return handOverState(token, settled);
}

/** While the token is handed over: the words of the hand-off (the page then goes on by itself). */
function HandingOver() {
  const { t } = useTranslation();
  return <p aria-busy="true">{t('transition.text')}</p>;
}

/**
 * A token that could not be stored (the browser refused it): the shell's error in place of a page that would only
 * send the user to sign in, with a reload (which hands the token in the address over again) and the sign-in page.
 */
function HandOverFailed() {
  const { t } = useTranslation();
  return (
    <main id="main" className={css.main}>
      <div className={css.card}>
        <ErrorNotice error={null} message="app.pageError" testId="hand-over-error" />
        <Link to="/login">{t('login.title')}</Link>
      </div>
    </main>
  );
}

/** /activated/:token: signs out, stores the token, then goes home. */
export function ActivatedTokenPage() {
  const { token } = useParams();
  const state = useStoreHandedToken(token);
  if (state === 'pending') return <HandingOver />;
  if (state === 'failed') return <HandOverFailed />;
  return <Navigate to={state === 'stored' ? '/' : '/login'} replace />;
}

/** The print screen of each card variant (the print-card plugin's routes). */
const PRINT_PATHS = { finance: '/print', amethyst: '/amethyst/print', careassist: '/careassist/print' } as const;

/** /t/:token: signs out, stores the token, goes to the brand's card-variant print screen with initial=true (home on a brand without a card). */
export function PrintTokenPage() {
  const { token } = useParams();
  const { brand } = useKernel();
  const state = useStoreHandedToken(token);
  if (state === 'pending') return <HandingOver />;
  if (state === 'failed') return <HandOverFailed />;
  if (state === 'none') return <Navigate to="/login" replace />;
  return <Navigate to={brand.printCard === 'none' ? '/' : `${PRINT_PATHS[brand.printCard]}?initial=true`} replace />;
}

/** /transition?destination: a hand-off to a page of this site. */
export function TransitionPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const dest = safeDestination(params.get('destination'));
  useEffect(() => {
    navigate(dest ?? '/', { replace: true });
  }, [dest, navigate]);
  return <p aria-busy="true">{t('transition.text')}</p>;
}

/** '/': the dashboard (the brand's home route) or the first page the user may open. */
export function HomeRedirect() {
  const { brand, plugins } = useKernel();
  const roles = useRoles();
  const { t } = useTranslation();
  const target = homePath(brand.home, flattenRoutes(plugins), roles);
  if (target) return <Navigate to={target} replace />;
  return (
    <div className={css.card}>
      <p>{t('app.noPages')}</p>
    </div>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className={css.card}>
      <p>{t('app.notFoundText')}</p>
      <Link to="/">{t('app.goHome')}</Link>
    </div>
  );
}
