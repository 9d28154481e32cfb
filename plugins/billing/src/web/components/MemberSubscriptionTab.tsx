import { formatMomentDay } from '@portal/core';
import { loadFailure, showToast, useApi } from '@portal/web';
import { Button, LoadFailed, Message, NativeSelectField, useUnsavedChanges } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BillingApi, MEMBERSHIP_KEYS, type MembershipKey } from '../../contract';
import { planLabel } from '../plans';
import * as css from './billing.css';
import { supportProfileKey } from './SupportCards';

const newKey = () => `support-subscription-${crypto.randomUUID()}`;

/** The details-subscription tab of /users/:id: the member's subscription, change it, cancel it, set a coupon. */
export default function MemberSubscriptionTab({ memberId }: { memberId: number }) {
  const api = useApi();
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const couponId = useId();
  const terminatedId = useId();
  const [type, setType] = useState<MembershipKey>(1);
  // One key per change of plan, kept until the server answers it: pressing again after a failure whose outcome is
  // unknown (the connection lost, a server error) is the same request, so the plan is started and charged once.
  // Another plan, or a change that went through, takes a new key.
  const [changeKey, setChangeKey] = useState(newKey);
  const choose = (next: MembershipKey) => {
    if (next !== type) setChangeKey(newKey());
    setType(next);
  };
  const [coupon, setCoupon] = useState('');
  const key = ['billing', 'support', 'subscription', memberId] as const;
  const sub = useQuery({ queryKey: key, queryFn: () => api.call(BillingApi.supportSubscription, { body: { MemberId: memberId } }, { notify: false }) });
  // A coupon code typed and not set on the member (not yet sent, or refused): leaving the page, or this tab, asks first.
  const storedCoupon = sub.data?.CouponCode ?? '';
  useUnsavedChanges(useCallback(() => coupon.trim() !== '' && coupon.trim() !== storedCoupon, [coupon, storedCoupon]));
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: key });
    await queryClient.invalidateQueries({ queryKey: supportProfileKey(memberId) });
  };
  const change = useMutation({
    mutationFn: () => api.call(BillingApi.supportSubscriptionUpdate, { body: { MemberId: memberId, Type: type, IdempotencyKey: changeKey } }),
    onSuccess: (r) => {
      setChangeKey(newKey());
      showToast({ kind: r.StatusString === 'Ok' ? 'success' : 'error', message: r.Message });
    },
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: () => api.call(BillingApi.supportSubscriptionCancel, { body: { MemberId: memberId } }),
    onSettled: refresh,
  });
  const setCouponCode = useMutation({
    mutationFn: () => api.call(BillingApi.supportSetCoupon, { body: { MemberId: memberId, CouponCode: coupon.trim() } }),
    onSuccess: (r) => showToast({ kind: r.Status === 0 ? 'success' : 'error', message: r.Message }),
    onSettled: refresh,
  });
  if (sub.isPending || (sub.isError && sub.isFetching)) return <p aria-busy="true">{t('loading')}</p>;
  if (sub.isError) {
    // A 404: no such member (a retry would not find one either); else a failure a retry may cure.
    if (loadFailure(sub.error) === 'notFound') return <Message kind="error">{t('support.notFound')}</Message>;
    return <LoadFailed message={t('support.loadError')} onRetry={() => void sub.refetch()} />;
  }
  const s = sub.data;
  const plan = s.SubscriptionType === null ? null : t(`plans.${s.SubscriptionType}`);
  // A terminated member gets no new plan or coupon (the server refuses both): the buttons stay, disabled, with the reason.
  const terminated = s.IsTerminated;
  const when = s.TerminationDate ? formatMomentDay(s.TerminationDate) : null;
  return (
    <div className={css.stack}>
      <p data-testid="support-subscription">
        {plan && s.SubscriptionStatus
          ? t('support.current', {
              plan,
              status: terminated
                ? when
                  ? t('status.terminatedOn', { date: when })
                  : t('status.terminated')
                : t(`status.${s.SubscriptionStatus}`, { defaultValue: s.SubscriptionStatus }),
            })
          : t('support.none')}
        {s.CouponCode ? ` ${t('support.coupon', { code: s.CouponCode })}` : ''}
      </p>
      {terminated && (
        <Message kind="warning" id={terminatedId} data-testid="support-terminated">
          {when ? t('support.terminated', { date: when }) : t('support.terminatedNoDate')}
        </Message>
      )}
      {s.HeldSubscriptionType !== null && (
        <Message kind="warning" data-testid="support-held-payment">
          {t('support.held', { plan: t(`plans.${s.HeldSubscriptionType}`) })}
        </Message>
      )}
      <div className={css.row}>
        <NativeSelectField
          label={t('subscription.choose')}
          value={type}
          options={MEMBERSHIP_KEYS.map((k) => ({ value: k, label: planLabel(t, k) }))}
          onChange={choose}
        />
        <Button
          variant="primary"
          onPress={() => change.mutate()}
          isPending={change.isPending}
          isDisabled={terminated}
          aria-describedby={terminated ? terminatedId : undefined}
        >
          {t('support.change')}
        </Button>
        {(s.SubscriptionStatus === 'active' || s.SubscriptionStatus === 'suspended') && (
          <Button variant="danger" onPress={() => cancel.mutate()} isPending={cancel.isPending}>
            {t('support.cancel')}
          </Button>
        )}
      </div>
      <div className={css.row}>
        <div className={css.field}>
          <label htmlFor={couponId}>{t('coupon.label')}</label>
          <input id={couponId} className={css.input} value={coupon} maxLength={40} onChange={(e) => setCoupon(e.target.value)} />
        </div>
        <Button
          onPress={() => coupon.trim() && setCouponCode.mutate()}
          isPending={setCouponCode.isPending}
          isDisabled={terminated}
          aria-describedby={terminated ? terminatedId : undefined}
        >
          {t('support.setCoupon')}
        </Button>
      </div>
    </div>
  );
}
