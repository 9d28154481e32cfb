import type { SubmissionKeys } from '@portal/web';
import type { CouponCreate } from '../../contract';

/**
 * A new coupon's create body: its payload with the IdempotencyKey of this submission, the same while the coupon is the
 * same (a save again after a failure whose answer was lost adds the coupon once), a new one once it changed.
 */
export function couponCreateBody(payload: Omit<CouponCreate, 'IdempotencyKey'>, keys: Pick<SubmissionKeys, 'keyFor'>): CouponCreate {
  return { ...payload, IdempotencyKey: keys.keyFor(payload) };
}
