import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useKernel, useRoles } from '../context';
import { jwtExpiry } from '../session/storage';
import * as css from '../shell/Layout.css';
import { decodeInvalidData, flattenRoutes, homePath, safeDestination } from '../shell/routes';

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

/** Stores a token handed over in the address (after signing out any current session). */
function useStoreHandedToken(token: string | undefined): boolean {
  const kernel = useKernel();
  if (!token) return false;
  kernel.session.clear();
  const exp = jwtExpiry(token);
  const lifetime = exp ? Math.max(0, exp - Math.floor(Date.now() / 1000)) : 10000;
  kernel.session.saveTokens({ access_token: token, expires_in: lifetime });
  return true;
}

/** /activated/:token: signs out, stores the token, then goes home. */
export function ActivatedTokenPage() {
  const { token } = useParams();
  const ok = useStoreHandedToken(token);
  return <Navigate to={ok ? '/' : '/login'} replace />;
}

/** The print screen of each card variant (the print-card plugin's routes). */
const PRINT_PATHS = { finance: '/print', amethyst: '/amethyst/print', careassist: '/careassist/print' } as const;

/** /t/:token: signs out, stores the token, goes to the brand's card-variant print screen with initial=true (home on a brand without a card). */
export function PrintTokenPage() {
  const { token } = useParams();
  const { brand } = useKernel();
  const ok = useStoreHandedToken(token);
  if (!ok) return <Navigate to="/login" replace />;
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
      <h2>{t('app.notFoundTitle')}</h2>
      <p>{t('app.notFoundText')}</p>
      <Link to="/">{t('app.goHome')}</Link>
    </div>
  );
}
