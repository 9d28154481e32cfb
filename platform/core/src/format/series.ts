import { hasAnyRole, IMPERSONATOR_ROLES } from '../roles';
import { formatLocale, type Locale } from './locale';

/*
 * Balance series (Date, Balance) are running balances computed by the server: a month without activity already
 * carries the balance before it (spec 02 section 9), and a 0 is a balance of $0.00, charted as such (no carrying
 * forward on the client, which would chart a depleted account's old balance).
 */

/** How a quarter reads: its year ('2026') and number (1-4). */
export type QuarterLabel = (year: string, quarter: number) => string;
const englishQuarter: QuarterLabel = (year, quarter) => `${year} Q${quarter}`;

/**
 * A chart's x labels from its dates: 'YYYY-MM-DD' for days, 'YYYY-MM' for months, 'YYYY Qn' for quarters. The web
 * words the quarter in the page's language (the kit's chart.quarter, through usePeriodLabel); the dates stay the wire's.
 */
export function periodLabel(date: string, period: 'time' | 'quarter' | 'month', quarterLabel: QuarterLabel = englishQuarter): string {
  if (period === 'time') return date;
  const [y = '', m] = date.split('-');
  if (period === 'month') return `${y}-${m}`;
  return quarterLabel(y, Math.floor((Number(m) - 1) / 3) + 1);
}

/** The largest point of a series (first of equals), or null when empty. */
export function peak<T>(points: readonly T[], value: (p: T) => number): T | null {
  let best: T | null = null;
  for (const p of points) if (best === null || value(p) > value(best)) best = p;
  return best;
}

/**
 * A month of a series, 'YYYY-MM-DD' (its first day), as the page's language names it: 'Nov 2026', in Spanish
 * 'nov 2026'. Anything that is not such a date comes back as it is.
 */
export function monthLabel(date: string, locale: Locale = formatLocale()): string {
  const m = /^(\d{4})-(\d{2})/.exec(date);
  if (!m) return date;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
  return new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(at);
}

/**
 * Whose figures a chart or a group of charts shows, as i18next options for its title (`t(key, seriesViewer(...))`):
 * staff (SuperUser, CareSupport) acting for a member see that member's ('member' context, with `member`, the id);
 * staff acting for nobody the base key (every member's, where they may see them); anyone else their own ('own').
 * `acting` is useActingMemberId's: undefined while the identity loads (the base key).
 */
export function seriesViewer(roles: readonly string[] | null, acting: number | null | undefined): { context?: 'own' | 'member'; member?: number } {
  if (acting === undefined || acting === null) return {};
  return roles && hasAnyRole(roles, IMPERSONATOR_ROLES) ? { context: 'member', member: acting } : { context: 'own' };
}
