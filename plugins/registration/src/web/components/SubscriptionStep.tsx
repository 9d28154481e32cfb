import { formatCents } from '@portal/core';
import { BillingApi, MEMBERSHIP_KEYS, type MembershipKey, PRICES_CENTS } from '@portal/plugin-billing/contract';
import { showToast, useApi } from '@portal/web';
import { Button, Message } from '@portal/web/kit';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { RegistrationMessages } from '../../contract';
import { RegistrationPaths } from '../../steps';
import { WizardNav } from './WizardNav';
import * as css from './wizard.css';

/**
 * Subscription: a membership type or a valid coupon (spec 01 section 5). A valid coupon forces lifetime (0); an invalid
 * one clears the code. Nothing is charged here: in guided mode the subscription is submitted after the card is linked.
 */
export function SubscriptionStep() {
  const { t } = useTranslation('registration');
  const api = useApi();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const couponId = useId();
  const initial = Number(params.get('type'));
  const [type, setType] = useState<MembershipKey | null>(
    MEMBERSHIP_KEYS.includes(initial as MembershipKey) && params.has('type') ? (initial as MembershipKey) : null,
  );
  const [code, setCode] = useState('');
  const [coupon, setCoupon] = useState<{ code: string; ok: boolean; message: string } | null>(null);
  const [submitted, setSubmitted] = useState(false);

  const check = useMutation({
    mutationFn: (c: string) => api.call(BillingApi.checkCoupon, { body: { Code: c } }, { notify: false }),
    onSuccess: (r, c) => {
      setCoupon({ code: c, ok: r.Status === 0, message: r.Message });
      if (r.Status === 0) setType(0);
      else setCode('');
    },
    onError: (e: Error) => {
      setCoupon({ code: '', ok: false, message: e.message });
      setCode('');
    },
  });

  const valid = type !== null || coupon?.ok === true;
  const next = () => {
    setSubmitted(true);
    if (!valid) {
      showToast({ kind: 'error', message: RegistrationMessages.fixErrors });
      return;
    }
    const q = new URLSearchParams({ type: String(coupon?.ok ? 0 : type) });
    if (coupon?.ok) q.set('code', coupon.code);
    navigate(`${RegistrationPaths.card}?${q.toString()}`);
  };

  return (
    <div className={css.stack}>
      <p>{t('subscription.intro')}</p>
      <RadioGroup
        className={css.radios}
        value={type === null ? null : String(type)}
        onChange={(v) => setType(Number(v) as MembershipKey)}
        isDisabled={coupon?.ok === true}
        isRequired
        isInvalid={submitted && !valid}
      >
        <Label>{t('subscription.type')}</Label>
        {MEMBERSHIP_KEYS.map((k) => (
          <Radio key={k} value={String(k)} className={css.radio}>
            {t(`subscription.prices.${k}`, { price: formatCents(PRICES_CENTS[k]) })}
          </Radio>
        ))}
      </RadioGroup>
      {submitted && !valid && (
        <Message kind="error" data-testid="subscription-required">
          {t('subscription.required')}
        </Message>
      )}
      <div className={css.row}>
        <div className={css.field}>
          <label htmlFor={couponId}>{t('subscription.coupon')}</label>
          <input
            id={couponId}
            className={css.input}
            value={code}
            maxLength={40}
            onChange={(e) => {
              setCode(e.target.value);
              setCoupon(null);
            }}
          />
        </div>
        <Button onPress={() => code.trim() && check.mutate(code.trim())} isDisabled={!code.trim()} isPending={check.isPending}>
          {t('subscription.check')}
        </Button>
      </div>
      {coupon && (
        <Message kind={coupon.ok ? 'success' : 'error'} data-testid="coupon-message">
          {coupon.ok ? `${coupon.message} ${t('subscription.lifetime')}` : coupon.message}
        </Message>
      )}
      <WizardNav previous={RegistrationPaths.contact} onNext={next} />
    </div>
  );
}
