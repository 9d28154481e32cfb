import { useApi } from '@portal/web';
import { Button, Message } from '@portal/web/kit';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { BillingApi, type MembershipKey, MembershipType } from '../../contract';
import * as css from './billing.css';

/** A coupon as its check answered: `ok` when it is valid (its code is then the one to send). */
export interface CheckedCoupon {
  code: string;
  ok: boolean;
  message: string;
}

export interface CouponFieldProps {
  /** The last check's answer, null before a check and after the code is edited. */
  coupon: CheckedCoupon | null;
  onCoupon: (coupon: CheckedCoupon | null) => void;
  /** Sets the caller's membership type: a valid coupon always gives lifetime. */
  onMembership: (type: MembershipKey) => void;
  /** The caller's translated strings: the field's label and the check button's. */
  label: string;
  checkLabel: string;
  /** What the message under the field says for a valid coupon (the server's message by default). */
  validText?: (message: string) => string;
}

/**
 * The coupon code and its check (spec 01 section 5), shared by the subscription section and the registration wizard:
 * a valid coupon is reported to the caller and forces lifetime; an invalid one, or a failed check, clears the code.
 * The server's message shows under the field.
 */
export function CouponField({ coupon, onCoupon, onMembership, label, checkLabel, validText = (m) => m }: CouponFieldProps) {
  const api = useApi();
  const id = useId();
  const [code, setCode] = useState('');
  const check = useMutation({
    mutationFn: (c: string) => api.call(BillingApi.checkCoupon, { body: { Code: c } }, { notify: false }),
    onSuccess: (r, c) => {
      onCoupon({ code: c, ok: r.Status === 0, message: r.Message });
      if (r.Status === 0) onMembership(MembershipType.Lifetime);
      else setCode('');
    },
    onError: (e: Error) => {
      onCoupon({ code: '', ok: false, message: e.message });
      setCode('');
    },
  });
  return (
    <>
      <div className={css.row}>
        <div className={css.field}>
          <label htmlFor={id}>{label}</label>
          <input
            id={id}
            className={css.input}
            value={code}
            maxLength={40}
            onChange={(e) => {
              setCode(e.target.value);
              onCoupon(null);
            }}
          />
        </div>
        <Button onPress={() => code.trim() && check.mutate(code.trim())} isDisabled={!code.trim()} isPending={check.isPending}>
          {checkLabel}
        </Button>
      </div>
      {coupon && (
        <Message kind={coupon.ok ? 'success' : 'error'} data-testid="coupon-message">
          {coupon.ok ? validText(coupon.message) : coupon.message}
        </Message>
      )}
    </>
  );
}
