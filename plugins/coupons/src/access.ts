import { type Role, Roles } from '@portal/core';

/**
 * Who may open the coupon screens and call the coupon API (spec 02 sections 2 and 6: CareSupport), and the
 * screens' paths. Zod-free: the web entry imports this file.
 */
export const COUPONS_ACCESS: readonly Role[] = [Roles.CareSupport];

export const COUPONS_PATH = '/coupons';
export const COUPON_CREATE_PATH = '/coupons/create';
export const couponPath = (id: number | string) => `/coupons/${id}`;
export const couponEditPath = (id: number | string) => `/coupons/${id}/edit`;
