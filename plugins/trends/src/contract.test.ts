import { describe, expect, it } from 'vitest';
import { LOW_BALANCE_THRESHOLD_CENTS, lowBalanceBody, TrendsApi } from './contract';

const body = (Balance: unknown) => ({ Balance, AccountType: 'Checking' });

describe('low-balance body: the Balance is dollars in whole cents', () => {
  it('takes whole cents as sent, negative and zero included', () => {
    for (const Balance of [0, 99.99, 100, -12.5, 0.01, 1234.56, 99_999_999.99, -99_999_999.99])
      expect(lowBalanceBody.parse(body(Balance)).Balance, String(Balance)).toBe(Balance);
  });

  it('refuses more than 2 decimals rather than rounding: 99.994 would be taken as $99.99, under the threshold', () => {
    expect(Math.round(99.994 * 100)).toBeLessThan(LOW_BALANCE_THRESHOLD_CENTS);
    for (const Balance of [99.994, 99.995, 99.999, 99.9951, 0.001, -5.005]) {
      const r = lowBalanceBody.safeParse(body(Balance));
      expect(
        r.error?.issues.map((i) => [i.path.join('.'), i.message]),
        String(Balance),
      ).toEqual([['Balance', 'must have at most 2 decimals']]);
    }
  });

  it('is the body the endpoint validates', () => {
    expect(TrendsApi.lowBalance.body).toBe(lowBalanceBody);
  });
});
