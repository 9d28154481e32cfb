import { useBrand, useKernel } from '@portal/web';
import { Button, Dialog, Message } from '@portal/web/kit';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { RegistrationPaths, type RegistrationScreen, STEP_SET_BY, screenOfPath, screenOfStep, WIZARD_TABS } from '../../steps';
import { CardStep } from '../components/CardStep';
import { ContactReview } from '../components/ContactReview';
import { failureText } from '../components/failure';
import { PersonalInfo } from '../components/PersonalInfo';
import { SubscriptionStep } from '../components/SubscriptionStep';
import { useRaiseStep, useSkipped } from '../components/useStep';
import { WizardNav } from '../components/WizardNav';
import * as css from '../components/wizard.css';

/** Spec 01 section 9: the intro dialog opens 500 ms after the wizard loads. */
export const INTRO_DELAY_MS = 500;

function Tabs({ screen }: { screen: RegistrationScreen }) {
  const { t } = useTranslation('registration');
  const skip = useSkipped();
  const tabs = WIZARD_TABS.filter((tab) => !(skip as readonly string[]).includes(tab.id));
  const current = tabs.findIndex((tab) => (tab.screens as readonly string[]).includes(screen));
  return (
    <ol className={css.tabs} aria-label={t('tabs.label')} data-testid="wizard-tabs">
      {tabs.map((tab, i) => {
        const state = i < current ? 'done' : i === current ? 'current' : 'todo';
        return (
          <li key={tab.id} className={`${css.tab} ${state === 'current' ? css.tabCurrent : ''}`} aria-current={state === 'current' ? 'step' : undefined}>
            {t(`tabs.${tab.id}`)} <span style={{ position: 'absolute', left: -9999 }}>({t(`tabState.${state}`)})</span>
          </li>
        );
      })}
    </ol>
  );
}

function Start() {
  const { t } = useTranslation('registration');
  const brand = useBrand();
  const skip = useSkipped();
  const navigate = useNavigate();
  const raise = useRaiseStep();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setOpen(true), INTRO_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const begin = useMutation({
    mutationFn: () => raise(STEP_SET_BY.start),
    onSuccess: () => navigate(RegistrationPaths.profile),
  });
  // Raising the step sends no toast (notify: false): a failure shows here, as on the other steps.
  const error = failureText(begin.error);
  const text = skip.includes('subscription') && skip.includes('card') ? t('intro.textNoMembership') : t('intro.text');
  return (
    <div className={css.stack}>
      <p>{t('start.text')}</p>
      {error && (
        <Message kind="error" data-testid="registration-error">
          {error}
        </Message>
      )}
      <WizardNav
        previous={null}
        onNext={() => begin.mutate()}
        isPending={begin.isPending}
        nextLabel={t('intro.begin')}
        extra={<Button onPress={() => setOpen(true)}>{t('intro.open')}</Button>}
      />
      <Dialog isOpen={open} onOpenChange={setOpen} title={t('intro.title', { brand: brand.displayName })}>
        {(close) => (
          <div className={css.stack}>
            <p>{text}</p>
            <div className={css.row}>
              <Button
                variant="primary"
                isPending={begin.isPending}
                onPress={() => {
                  close();
                  begin.mutate();
                }}
              >
                {t('intro.begin')}
              </Button>
            </div>
          </div>
        )}
      </Dialog>
    </div>
  );
}

function Confirmation() {
  const { t } = useTranslation('registration');
  const brand = useBrand();
  return (
    <div className={css.stack} data-testid="registration-complete">
      <h2 className={css.heading}>{t('confirmation.heading')}</h2>
      <p>{t('confirmation.text', { brand: brand.displayName })}</p>
      <p>
        <Link to="/">{t('confirmation.home')}</Link>
      </p>
    </div>
  );
}

/** The registration wizard: one page for its screens; the step guard decides which of them may open. */
export default function WizardPage() {
  const { t } = useTranslation('registration');
  const { session, brand } = useKernel();
  const location = useLocation();
  const screen = screenOfPath(location.pathname);
  if (screen === null || screen === 'welcome') {
    // The guard sends /welcome on; this is its fallback when the step is not known.
    return <Navigate to={RegistrationPaths[screenOfStep(session.registrationStep() ?? 0, brand.registration.wizard?.skip ?? [])]} replace />;
  }
  return (
    <section className={css.stack} aria-labelledby="registration-heading">
      {/* The layout's h1 names the step; this names the wizard (one h1 a page). */}
      <h2 id="registration-heading" className={css.heading}>
        {t('heading')}
      </h2>
      <Tabs screen={screen} />
      <h2 className={css.heading}>{t(`title.${screen}`)}</h2>
      {screen === 'start' && <Start />}
      {screen === 'profile' && <PersonalInfo />}
      {screen === 'contact' && <ContactReview />}
      {screen === 'subscription' && <SubscriptionStep />}
      {screen === 'card' && <CardStep />}
      {screen === 'confirmation' && <Confirmation />}
    </section>
  );
}
