/** A finite number, or null for an empty or non-finite one (NaN and ±Infinity count as empty). */
export function finite(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Beyond ±$90 trillion cents stop being exact integers; amounts are capped there, which keeps their order. */
export const MAX_CENTS = Number.MAX_SAFE_INTEGER;

/**
 * Wire dollars to integer cents, or null when empty. Wire amounts have at most two decimals, so dollars × 100
 * lies within float error of a whole number and rounding recovers it exactly ($19.99 × 100 = 1998.9999… → 1999).
 */
export function toCents(dollars: number | null | undefined): number | null {
  const value = finite(dollars);
  if (value === null) return null;
  return Math.max(-MAX_CENTS, Math.min(MAX_CENTS, Math.round(value * 100)));
}

/** '$1,234.56' from cents; negatives '-$5.00'. */
export function formatCents(cents: number): string {
  const whole = Math.trunc(Math.abs(cents) / 100);
  const rest = Math.abs(cents) % 100;
  // BigInt prints every digit of a large whole number (String gives '1e+21'); no locale data involved.
  const grouped = BigInt(whole)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}$${grouped}.${String(rest).padStart(2, '0')}`;
}
