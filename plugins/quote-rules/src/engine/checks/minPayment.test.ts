import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import { checkMinPayment } from './minPayment';

const paying = (...payments: (number | null)[]) =>
  aContext(
    payments.map((PaymentAmount) => aBenefit({ PaymentAmount })),
    { MinPaymentAmount: 100 },
  );

describe('checkMinPayment', () => {
  it('passes at the minimum and one cent above, fails one cent below', () => {
    expect(checkMinPayment(paying(100))).toEqual({
      id: 'minPayment',
      pass: true,
      message: 'Payment must be at least $100.00',
      text: { key: 'minPayment', params: { amount: '$100.00' } },
      ruleValue: { kind: 'money', cents: 10_000 },
      quoteValue: { kind: 'money', cents: 10_000 },
    });
    expect(checkMinPayment(paying(100.01))?.pass).toBe(true);
    expect(checkMinPayment(paying(99.99))?.pass).toBe(false);
  });

  it('compares cents, so float residue does not fail an equal amount', () => {
    expect(checkMinPayment(aContext([aBenefit({ PaymentAmount: 0.1 + 0.2 })], { MinPaymentAmount: 0.3 }))?.pass).toBe(true);
  });

  it('judges the smallest payment, lump sums included, and skips empty ones', () => {
    expect(checkMinPayment(paying(500, null, 99.99))).toMatchObject({ pass: false, quoteValue: { kind: 'money', cents: 9_999 } });
  });

  it('does not apply without the rule or a payment', () => {
    expect(checkMinPayment(aContext([aBenefit()], {}))).toBeNull();
    expect(checkMinPayment(paying(null))).toMatchObject({ pass: null, message: 'Not checked: payment missing', quoteValue: { kind: 'missing' } });
    expect(checkMinPayment(aContext([], { MinPaymentAmount: 100 }))).toBeNull();
  });
});
