/**
 * The balance as a whole-number percentage (0-100) of the amount set aside, for the gauge; null when nothing was set
 * aside (no initial balance, or 0). An overdrawn account shows 0, a balance above what was set aside 100.
 */
export function balanceShare(balance: number | null, initial: number | null): number | null {
  if (balance === null || initial === null || initial <= 0) return null;
  return Math.min(100, Math.max(0, Math.round((balance / initial) * 100)));
}

/**
 * The admin balance widget's line, by whose set-asides the answer sums (adminBalanceScope): every member's ('all':
 * the share left for how many members, or that no member has an initial balance yet) or the caller's own ('member':
 * the share left on their account, or that it has no set-aside balance yet).
 */
export function adminBalanceText(scope: 'all' | 'member', share: number | null): { key: string; values: { share?: number } } {
  if (share === null) return { key: scope === 'all' ? 'widget.adminNone' : 'widget.ownNone', values: {} };
  return { key: scope === 'all' ? 'widget.adminShare' : 'widget.ownShare', values: { share } };
}
