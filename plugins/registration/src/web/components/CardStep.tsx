import { CardForm } from '@portal/plugin-billing/card-form';
import { BillingApi, type BillingProfile, cardSaveWaitMs, MEMBERSHIP_KEYS, type MembershipKey } from '@portal/plugin-billing/contract';
import { planLabel } from '@portal/plugin-billing/coupon-field';
import { loadNamespaces, useApi, useBrand } from '@portal/web';
import { Button, Message } from '@portal/web/kit';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { cardStep, cardTerms, REGISTRATION_COMPLETE, RegistrationPaths } from '../../steps';
import { checkableCoupon, couponAnswer } from '../couponAnswer';
import { useRaiseStep, useSkipped } from './useStep';
import { WizardNav } from './WizardNav';
import * as css from './wizard.css';

const PROFILE_KEY = ['registration', 'billing-profile'] as const;
const COUPON_KEY = ['registration', 'coupon-check'] as const;
const running = (p: BillingProfile) => p.SubscriptionStatus === 'active' || p.SubscriptionStatus === 'lifetime';

/**
 * The site's CSP names the gateway in frame-src only for the card pages, and a CSP belongs to the document it came
 * with: reached by in-app navigation, the page loads itself once from the server so the frame may show.
 */
function useCardFrameDocument(): boolean {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const loadedAt = (entry ? new URL(entry.name).pathname : window.location.pathname).toLowerCase();
  const ok = loadedAt === RegistrationPaths.card;
  useEffect(() => {
    if (!ok) window.location.reload();
  }, [ok]);
  return ok;
}

/** The billing namespace carries the card form's strings. */
function useBillingStrings(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    void loadNamespaces(['billing']).finally(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);
  return ready;
}

/** What the subscription is started with: the terms the screen decided (`cardTerms`). */
interface Finish {
  /** The cards there were before the one just saved. */
  known: readonly number[];
  type: MembershipKey;
  /** Only a coupon the check found valid. */
  code: string | null;
}

/**
 * Link Card (params type and code): the gateway's hosted form, then, in guided mode, the subscription is submitted and
 * the default card synced; a default card completes registration (step 10) and goes to the confirmation. A code in
 * the address is checked (POST subscription/check-coupon) on every load before the screen decides anything: valid, it
 * makes the membership lifetime; invalid, it is dropped and the chosen type stays (spec 01 sections 4 and 5).
 */
export function CardStep() {
  const { t } = useTranslation('registration');
  const api = useApi();
  const saveWaitMs = cardSaveWaitMs(useBrand());
  const navigate = useNavigate();
  const raise = useRaiseStep();
  const skip = useSkipped();
  const [params] = useSearchParams();
  const canFrame = useCardFrameDocument();
  const strings = useBillingStrings();
  const [formKey, setFormKey] = useState(0);
  const idempotencyKey = useRef(`reg-${crypto.randomUUID()}`);
  const rawType = params.get('type');
  const type = rawType !== null && MEMBERSHIP_KEYS.includes(Number(rawType) as MembershipKey) ? (Number(rawType) as MembershipKey) : null;
  const code = params.get('code')?.trim() || null;
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: () => api.call(BillingApi.profile, {}, { notify: false }), enabled: type !== null });
  const couponCheck = useQuery({
    queryKey: [...COUPON_KEY, code],
    queryFn: () => api.call(BillingApi.checkCoupon, { body: { Code: code ?? '' } }, { notify: false }),
    // Not on the pass that only reloads the document for the card frame; checked again on every load (not cached).
    enabled: type !== null && checkableCoupon(code) && canFrame,
    gcTime: 0,
  });
  const terms = type === null ? null : cardTerms(type, code, couponAnswer(code, couponCheck));
  const ready = terms?.state === 'ready' ? terms : null;

  const finish = useMutation({
    mutationFn: async ({ known, type: startType, code: startCode }: Finish) => {
      const before = known.length;
      // The card was saved at the gateway: sync until it shows up (or the wait runs out).
      const deadline = Date.now() + saveWaitMs;
      let p: BillingProfile = await api.call(BillingApi.sync, {}, { notify: false });
      while (p.Profiles.length <= before && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 1000));
        p = await api.call(BillingApi.sync, {}, { notify: false });
      }
      // Guided mode: the subscription first, then the default card.
      if (!running(p) && !skip.includes('subscription')) {
        // The server charges the default card, which the gateway leaves on the first card saved: the card just saved
        // becomes the default first, so a card that declined before does not block registration.
        const saved = p.Profiles.filter((c) => !known.includes(c.ProfileId)).at(-1);
        if (saved && !saved.IsDefault) p = await api.call(BillingApi.setDefaultCard, { body: { ProfileId: saved.ProfileId } }, { notify: false });
        const r = await api.call(
          BillingApi.start,
          { body: { Type: startType, Code: startCode ?? undefined, IdempotencyKey: idempotencyKey.current } },
          { notify: false },
        );
        if (r.StatusString !== 'Ok') {
          idempotencyKey.current = `reg-${crypto.randomUUID()}`;
          throw new Error(t('card.failed', { message: r.Message }));
        }
        p = await api.call(BillingApi.sync, {}, { notify: false });
      }
      const pick = p.Profiles.find((c) => c.IsSubscription) ?? p.Profiles[0];
      if (!p.Profiles.some((c) => c.IsDefault) && pick) await api.call(BillingApi.setDefaultCard, { body: { ProfileId: pick.ProfileId } }, { notify: false });
      await raise(REGISTRATION_COMPLETE);
    },
    onSuccess: () => navigate(RegistrationPaths.confirmation),
  });

  const data = profile.data ?? null;
  const step =
    ready === null || profile.isPending
      ? null
      : cardStep({
          profileError: profile.isError,
          profiles: data?.Profiles ?? null,
          subscriptionRunning: data ? running(data) : false,
          type: ready.type,
          couponValid: ready.couponValid,
        });

  // A default card (with the membership running) completes registration; a subscription card gets the rest synced.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !data || !ready) return;
    if (step === 'complete' || step === 2) {
      started.current = true;
      finish.mutate({ known: data.Profiles.slice(0, -1).map((c) => c.ProfileId), type: ready.type, code: ready.code });
    }
  }, [step, data, ready, finish]);

  const runType = ready?.type ?? null;
  const runCode = ready?.code ?? null;
  const onSaved = useCallback(() => {
    if (runType !== null) finish.mutate({ known: data?.Profiles.map((c) => c.ProfileId) ?? [], type: runType, code: runCode });
  }, [finish, data?.Profiles, runType, runCode]);
  const onCancel = useCallback(() => setFormKey((k) => k + 1), []);

  let body: React.ReactNode;
  if (type === null) body = <Message kind="error">{t('card.chooseFirst')}</Message>;
  else if (terms?.state === 'failed')
    body = (
      <Message kind="error" data-testid="coupon-message">
        <span>{t('card.couponCheckFailed')}</span>{' '}
        <Button size="small" onPress={() => void couponCheck.refetch()}>
          {t('card.retry')}
        </Button>
      </Message>
    );
  else if (step === null || !strings) body = <p aria-busy="true">{t('loading')}</p>;
  else if (step === 10)
    body = (
      <Message kind="error">
        <span>{t('card.loadError')}</span>{' '}
        <Button size="small" onPress={() => void profile.refetch()}>
          {t('card.retry')}
        </Button>
      </Message>
    );
  else if (step === 'complete' || step === 2) body = <p aria-busy={finish.isPending}>{t('card.introDefault')}</p>;
  else
    body = (
      <>
        <p>{t(step === 1 ? 'card.introSubscription' : 'card.introCard')}</p>
        {canFrame ? <CardForm key={formKey} onSaved={onSaved} onCancel={onCancel} profileVersion={0} autoOpen /> : <p aria-busy="true">{t('loading')}</p>}
      </>
    );

  return (
    <div className={css.stack} data-card-step={step ?? ''}>
      {finish.isPending && <p aria-busy="true">{t('card.finishing')}</p>}
      {finish.error && (
        <Message kind="error" data-testid="registration-error">
          {finish.error.message}
        </Message>
      )}
      {ready?.couponDropped && (
        <Message kind="error" data-testid="coupon-message">
          {[couponCheck.data?.Message, t('card.couponDropped', { plan: planLabel(t, ready.type, 'subscription.prices') })].filter(Boolean).join(' ')}
        </Message>
      )}
      {body}
      <WizardNav previous={skip.includes('subscription') ? RegistrationPaths.contact : RegistrationPaths.subscription} />
    </div>
  );
}
