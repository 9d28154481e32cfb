/**
 * The balance as a whole-number percentage (0-100) of the amount set aside, for the gauge; null when nothing was set
 * aside (no initial balance, or 0). An overdrawn account shows 0, a balance above what was set aside 100.
 */
export function balanceShare(balance: number | null, initial: number | null): number | null {
  if (balance === null || initial === null || initial <= 0) return null;
  return Math.min(100, Math.max(0, Math.round((balance / initial) * 100)));
}
