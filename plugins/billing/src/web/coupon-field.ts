/**
 * The coupon code field with its check, and the membership types' price labels, for other plugins' pages (the
 * registration wizard's subscription step). The caller passes its own translated labels (planLabel takes its `t`).
 */
export { type CheckedCoupon, CouponField, type CouponFieldProps } from './components/CouponField';
export { formatPlanPrice, type PlanLabelT, planLabel } from './plans';
