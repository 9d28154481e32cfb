/**
 * The coupon code field with its check, for other plugins' pages (the registration wizard's subscription step). The
 * caller passes its own translated labels.
 */
export { type CheckedCoupon, CouponField, type CouponFieldProps } from './components/CouponField';
