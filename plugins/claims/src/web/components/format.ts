import { formatCurrency } from '@portal/core';
import type { TFunction } from 'i18next';
import { type Claim, displayStatus, REIMBURSEMENT_PAYEE } from '../../contract';

/** Dollars with 2 decimals, grouped, as every other page shows money ('$1,234.50'); empty for no amount. */
export const money = (n: number | null | undefined): string => (n === null || n === undefined ? '' : formatCurrency(n));

/** Claim type display names (spec 02 section 9): CMS-1500 and UB04 'Medical Treatment', DME, HHC, Unknown 'Misc'. */
export const claimTypeName = (t: TFunction, id: number): string => t(`claimType.${id}`, { defaultValue: t('claimType.5') });

/** Status name as the bills list shows it: 29 and 30 show as 8 (paid). */
export const statusName = (statusNames: ReadonlyMap<number, string>, id: number): string => statusNames.get(displayStatus(id)) ?? String(id);

/** Days before today as 'YYYY-MM-DD' in local time. */
export function daysAgo(days: number, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
export function monthsAgo(months: number, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth() - months, now.getDate());
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A bill's payee as the pages show it: a reimbursement's (stored in English, no shared payee) in the reader's language. */
export const shownPayee = (t: TFunction, c: Pick<Claim, 'PayeeID' | 'PayeeName'>): string =>
  c.PayeeID === null && c.PayeeName === REIMBURSEMENT_PAYEE ? t('payee.reimbursement') : c.PayeeName;
