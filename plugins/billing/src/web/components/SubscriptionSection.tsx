import { formatMomentDay } from '@portal/core';
import { ApiCallError, useApi } from '@portal/web';
import { Button, Message, RadioOption } from '@portal/web/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Label, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BillingApi, MEMBERSHIP_KEYS, type MembershipKey } from '../../contract';
import { planLabel } from '../plans';
import * as css from './billing.css';
import { PROFILE_KEY, useBillingProfile } from './CardsSection';
import { type CheckedCoupon, CouponField } from './CouponField';
import { PAYMENTS_KEY } from './gateway';
import { offersPlans, subscriptionView } from './subscriptionView';

const newKey = () => `start-${crypto.randomUUID()}`;
/** The profile page (the profile plugin's PROFILE_PATH), where a terminated membership is reactivated. */
const PROFILE_PATH = '/member';

/** The subscription choice (three prices), the coupon check and the start (spec 01 sections 4, 5, 9). */
export function SubscriptionSection() {
  const api = useApi();
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const profile = useBillingProfile();
  const [type, setType] = useState<MembershipKey | null>(null);
  const [coupon, setCoupon] = useState<CheckedCoupon | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const [key, setKey] = useState(newKey);
  // A key stands for one start of one plan: another plan is another request (the server refuses a key sent again
  // for something else).
  const choose = (next: MembershipKey) => {
    if (next !== type) setKey(newKey());
    setType(next);
  };

  const start = useMutation({
    mutationFn: () => {
      if (type === null) throw new Error(t('subscription.chooseType'));
      // Spec 01 section 5: a coupon is sent only when it checked valid.
      const valid = coupon?.ok ? coupon.code : undefined;
      return api.call(BillingApi.start, { body: { Type: type, Code: valid, IdempotencyKey: key } }, { notify: false });
    },
    onSuccess: async (r) => {
      setOutcome({ ok: r.StatusString === 'Ok', message: r.Message });
      setKey(newKey());
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    },
    // No answer (the network failed, or the answer was lost or late): the start may have gone through. The membership
    // is read again, so the page shows what the server has, and the words say to check before choosing again. The
    // key is kept: pressing Subscribe again is the same start, charged once.
    onError: async (e: Error) => {
      const unknown = e instanceof ApiCallError && e.status === 0;
      setOutcome({ ok: false, message: unknown ? `${e.message} ${t('subscription.unknownOutcome')}` : e.message });
      if (unknown) await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    },
    // A declined charge is a payment too: the list shows it either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: PAYMENTS_KEY }),
  });

  const p = profile.data;
  const current = p?.SubscriptionType ?? null;
  const view = subscriptionView(profile);
  return (
    <section className={css.stack} aria-labelledby="billing-subscription-heading">
      <h2 id="billing-subscription-heading" className={css.heading}>
        {t('subscription.heading')}
      </h2>
      {view === 'loading' && <p aria-busy="true">{t('subscription.loading')}</p>}
      {view === 'error' && (
        <Message kind="error">
          <span>{t('subscription.loadError')}</span>{' '}
          <Button size="small" onPress={() => void profile.refetch()} isPending={profile.isFetching} pendingLabel={t('subscription.loading')}>
            {t('subscription.retry')}
          </Button>
        </Message>
      )}
      {p && view === 'terminated' && (
        <Message kind="warning" data-testid="subscription-status">
          <span>{p.TerminationDate ? t('subscription.terminated', { date: formatMomentDay(p.TerminationDate) }) : t('subscription.terminatedNoDate')}</span>{' '}
          <Link to={PROFILE_PATH}>{t('subscription.reactivateOnProfile')}</Link>
        </Message>
      )}
      {p && view !== 'terminated' && (
        <p data-testid="subscription-status">
          {view === 'running' && current !== null
            ? t('subscription.current', { plan: t(`plans.${current}`), status: t(`status.${p.SubscriptionStatus}`) })
            : view === 'held' && p.HeldSubscriptionType !== null
              ? t('subscription.held', { plan: t(`plans.${p.HeldSubscriptionType}`) })
              : view === 'canceled' && current !== null
                ? [
                    t('subscription.current', { plan: t(`plans.${current}`), status: t('status.canceled') }),
                    p.PaidThrough ? t('subscription.paidUntil', { date: formatMomentDay(p.PaidThrough) }) : null,
                    t('subscription.chooseAgain'),
                  ]
                    .filter(Boolean)
                    .join(' ')
                : t('subscription.noneYet')}
        </p>
      )}
      {offersPlans(view) && (
        <>
          <RadioGroup
            className={css.radios}
            value={type === null ? null : String(type)}
            onChange={(v) => choose(Number(v) as MembershipKey)}
            isDisabled={coupon?.ok === true}
          >
            <Label>{t('subscription.choose')}</Label>
            {MEMBERSHIP_KEYS.map((k) => (
              <RadioOption key={k} value={String(k)}>
                {planLabel(t, k)}
              </RadioOption>
            ))}
          </RadioGroup>
          <CouponField coupon={coupon} onCoupon={setCoupon} onMembership={choose} label={t('coupon.label')} checkLabel={t('coupon.check')} />
          <div className={css.row}>
            <Button
              variant="primary"
              onPress={() => start.mutate()}
              isDisabled={type === null}
              isPending={start.isPending}
              pendingLabel={t('subscription.starting')}
            >
              {t('subscription.start')}
            </Button>
          </div>
        </>
      )}
      {outcome && (
        <Message kind={outcome.ok ? 'success' : 'error'} data-testid="subscription-message">
          {outcome.message}
        </Message>
      )}
    </section>
  );
}
