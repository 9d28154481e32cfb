import { onlyDigits } from './digits';

export const SSN_DIGITS = 9;

/** Raw value stored for an SSN: digits only, at most 9. */
export function ssnDigits(input: string | null | undefined): string {
  return onlyDigits(input, SSN_DIGITS);
}

/** Display ###-##-####, progressively for partial input. */
export function formatSsn(input: string | null | undefined): string {
  const d = ssnDigits(input);
  if (d.length <= 3) return d;
  if (d.length <= 5) return `${d.slice(0, 3)}-${d.slice(3)}`;
  return `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`;
}

/** Masked display XXX-XX-last4, shown when the field is not focused; never reveals more than 4 digits. */
export function maskSsn(input: string | null | undefined): string {
  const d = ssnDigits(input);
  if (d.length === 0) return '';
  const last4 = d.length > 5 ? d.slice(5) : '';
  return `XXX-XX-${last4}`;
}

export function isCompleteSsn(input: string | null | undefined): boolean {
  return ssnDigits(input).length === SSN_DIGITS;
}
