import { MAX_CASES } from '../../rules';

/** A month of the quota form as typed. */
export interface DraftRow {
  MonthNumber: number;
  min: string;
  max: string;
}

/** A month's problem as an i18n key, or null: whole numbers from 0, both or neither, minimum at most maximum. */
export function quotaProblem(row: DraftRow): string | null {
  const min = row.min.trim();
  const max = row.max.trim();
  if (!min && !max) return null;
  if (!min || !max) return 'quotas.errors.both';
  if (!/^\d+$/.test(min) || !/^\d+$/.test(max)) return 'quotas.errors.whole';
  if (Number(min) > MAX_CASES || Number(max) > MAX_CASES) return 'quotas.errors.tooLarge';
  if (Number(min) > Number(max)) return 'quotas.errors.order';
  return null;
}
