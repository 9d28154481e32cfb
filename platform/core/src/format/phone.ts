import { onlyDigits } from './digits';

export const PHONE_DIGITS = 10;

/** Raw value stored for a phone: digits only, at most 10 (spec 01 section 5). */
export function phoneDigits(input: string | null | undefined): string {
  return onlyDigits(input, PHONE_DIGITS);
}

/** Display (###) ###-####; partial input formats progressively so typing never jumps. */
export function formatPhone(input: string | null | undefined): string {
  const d = phoneDigits(input);
  if (d.length === 0) return '';
  if (d.length <= 3) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

export function isCompletePhone(input: string | null | undefined): boolean {
  return phoneDigits(input).length === PHONE_DIGITS;
}
