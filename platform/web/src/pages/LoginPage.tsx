import { type ComponentType, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useKernel, useSiteConfig } from '../context';
import { type DialogProps, Extensions } from '../plugin';
import { afterSignInPath, type ReturnState } from '../session/after-sign-in';
import { contributionsTo, lazyContribution } from '../shell/extensions';
import { LanguageMenu } from '../shell/LanguageMenu';
import { useHydrated } from '../shell/prerendered';
import { showMessageToast } from '../store';
import * as css from './Login.css';

type State = { kind: 'idle' } | { kind: 'loggingIn' } | { kind: 'error'; message: string };
/** Which of the two fields are empty, once a sign-in was attempted (null before: no field error shows). */
type Missing = { user: boolean; password: boolean } | null;
const missingIn = (user: HTMLInputElement | null, password: HTMLInputElement | null) => ({
  user: !user?.value.trim(),
  password: !password?.value,
});

/** A login dialog contributed by a plugin, loaded (with its plugin's strings) only when first opened. */
function useLoginDialog(name: 'forgotPassword' | 'register'): ComponentType<DialogProps> | null {
  const { plugins } = useKernel();
  return useMemo(() => {
    const found = contributionsTo(plugins, Extensions.loginDialogs).find((c) => c.name === name);
    return found ? lazyContribution<DialogProps>(found) : null;
  }, [plugins, name]);
}

/** /login and /register: idle, logging in, then home (or the page the user came from) or the server's error. */
export default function LoginPage({ openRegister = false }: { openRegister?: boolean }) {
  const { api, brand, session, sessionStarted } = useKernel();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const config = useSiteConfig();
  const id = useId();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [missing, setMissing] = useState<Missing>(null);
  const [dialog, setDialog] = useState<'forgot' | 'register' | null>(null);
  const hydrated = useHydrated();
  const userField = useRef<HTMLInputElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  const Forgot = useLoginDialog('forgotPassword');
  const Register = useLoginDialog('register');
  const external = brand.registration.mode === 'external';
  const registerLink = config.data?.RegisterLink ?? brand.registration.externalUrl;

  useEffect(() => {
    if (!openRegister || external || !Register) return;
    const h = setTimeout(() => setDialog('register'), 1000); // spec 01 section 9: the register dialog opens 1 s after load
    return () => clearTimeout(h);
  }, [openRegister, external, Register]);

  // The fields are uncontrolled: the page may come prerendered (apps/web/build.ts), and what the user types before the
  // app has taken the markup over must stay (React would set controlled fields back to their state).
  const submit = async () => {
    const userName = userField.current?.value ?? '';
    const password = passwordField.current?.value ?? '';
    // Spec 01 section 5: sign-in needs both; a refused submit says so as every form does (the toast, and each field's
    // error from then on, as the field changes).
    const empty = missingIn(userField.current, passwordField.current);
    setMissing(empty);
    if (empty.user || empty.password) {
      setState({ kind: 'idle' });
      showMessageToast(t('login.fixErrors'), 'error');
      (empty.user ? userField : passwordField).current?.focus();
      return;
    }
    setState({ kind: 'loggingIn' });
    try {
      await api.signIn(userName.trim(), password);
      // The new session's calls start now, and its landing page opens directly, without the home redirect. The page the
      // last session ended on is followed only when its user signs in again.
      const landing = sessionStarted();
      navigate(afterSignInPath(location.state as ReturnState | null, landing, session.user()), { replace: true });
    } catch (e) {
      setState({ kind: 'error', message: (e as Error).message });
      if (passwordField.current) passwordField.current.value = '';
    }
  };

  // A field names its own error, and the server's refusal while one shows.
  const describedBy = (fieldMissing: boolean | undefined, fieldError: string) =>
    [fieldMissing ? fieldError : '', state.kind === 'error' ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const contacts = brand.contacts;
  return (
    <div className={css.page}>
      <main className={css.panel} id="main">
        <div className={css.header} style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8, flexWrap: 'wrap' }}>
          <p className={css.brand}>{brand.displayName}</p>
          <LanguageMenu />
        </div>
        <div className={css.body}>
          <h1 style={{ margin: 0 }}>{t('login.title')}</h1>
          <p className={css.small}>{t('login.intro', { brand: brand.displayName })}</p>
          {/* Native form controls: accessible as they are, and they keep react-aria's weight off the sign-in path
              (150 KiB budget, docs/PERFORMANCE.md). The dialogs the page opens use react-aria. */}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
            style={{ display: 'flex', flexDirection: 'column', gap: 16 }}
            noValidate
          >
            <div className={css.field}>
              <label className={css.label} htmlFor={`${id}-user`}>
                {t('login.userName')}
              </label>
              <input
                id={`${id}-user`}
                ref={userField}
                className={css.input}
                name="UserName"
                autoComplete="username"
                required
                onInput={() => missing && setMissing(missingIn(userField.current, passwordField.current))}
                aria-invalid={state.kind === 'error' || missing?.user || undefined}
                aria-describedby={describedBy(missing?.user, `${id}-user-error`)}
              />
              {missing?.user && (
                <p className={css.error} id={`${id}-user-error`}>
                  {t('login.fieldRequired')}
                </p>
              )}
            </div>
            <div className={css.field}>
              <label className={css.label} htmlFor={`${id}-password`}>
                {t('login.password')}
              </label>
              <input
                id={`${id}-password`}
                ref={passwordField}
                className={css.input}
                name="Password"
                type="password"
                autoComplete="current-password"
                required
                onInput={() => missing && setMissing(missingIn(userField.current, passwordField.current))}
                aria-invalid={state.kind === 'error' || missing?.password || undefined}
                aria-describedby={describedBy(missing?.password, `${id}-password-error`)}
              />
              {missing?.password && (
                <p className={css.error} id={`${id}-password-error`}>
                  {t('login.fieldRequired')}
                </p>
              )}
            </div>
            {state.kind === 'error' && (
              <p className={css.error} role="alert" id={`${id}-error`}>
                {state.message}
              </p>
            )}
            {/* The page's buttons are disabled in the prerendered page until the app runs: a click before would be lost,
                and the form would go to the server as a plain form. */}
            <button type="submit" className={css.primary} disabled={!hydrated || state.kind === 'loggingIn'} aria-busy={state.kind === 'loggingIn'}>
              {state.kind === 'loggingIn' ? t('login.submitting') : t('login.submit')}
            </button>
          </form>
          <div className={css.links}>
            {Forgot && (
              <button type="button" className={css.linkButton} disabled={!hydrated} onClick={() => setDialog('forgot')}>
                {t('login.forgotPassword')}
              </button>
            )}
            {external && registerLink ? (
              <a href={registerLink} data-testid="register-link">
                {t('login.registerExternal')}
              </a>
            ) : (
              Register && (
                <button type="button" className={css.linkButton} disabled={!hydrated} onClick={() => setDialog('register')}>
                  {t('login.register')}
                </button>
              )
            )}
          </div>
          <p className={css.small}>{t('login.contact', { phone: contacts.phone, email: contacts.supportEmail })}</p>
          <p className={css.small}>{t('login.disclaimer')}</p>
        </div>
      </main>
      <Suspense fallback={null}>
        {Forgot && dialog === 'forgot' && <Forgot isOpen onOpenChange={(o) => setDialog(o ? 'forgot' : null)} />}
        {Register && dialog === 'register' && <Register isOpen onOpenChange={(o) => setDialog(o ? 'register' : null)} />}
      </Suspense>
    </div>
  );
}
