import { ClaimStatus } from '@portal/core';
import { KeptResults, type MembersService, type SqlClient } from '@portal/server';
import type { BillAmountPoint, CityCountPoint, ClaimCountPoint, ClaimsService, SeriesPeriod, SeriesScope } from '../service';
import { businessToday, recordReimbursement } from './repo';

/**
 * The window and bucket of each period: `time` is per day over the last 12 months (366 or 367 days, today's
 * included), `month` per calendar month over the last 24 months, `quarter` per calendar quarter over the last 8
 * quarters. Every bucket without bills is answered with 0, days too: a chart's points are then evenly spaced in time
 * (with the days without bills left out, a line joined days months apart as if they were next to each other). The
 * window's start is `date_trunc(unit, today - window)`: 23 months back is the first of 24 calendar months.
 */
const PERIODS: Record<SeriesPeriod, { unit: 'day' | 'month' | 'quarter'; window: string }> = {
  time: { unit: 'day', window: '12 months' },
  month: { unit: 'month', window: '23 months' },
  quarter: { unit: 'quarter', window: '21 months' },
};
/**
 * Cities: the same 24 calendar months as the month series, the 25 cities with most bills; each row also carries how
 * many cities and bills the whole window has (TotalCities, TotalClaims), so a chart of the top 25 can say so.
 */
export const CITY_WINDOW = PERIODS.month.window;
export const CITY_LIMIT = 25;

/**
 * The bills but void ones in the window ending on `today` (the business's day, never the database's UTC current_date: in a US evening
 * at a month's end that would add next month's empty bucket): a member's through claims_member_cover_idx
 * (member_id, received_date ...), every member's through claims_received_idx (received_date ...). `today` is $1.
 */
function windowed(scope: SeriesScope, window: string, unit: string, today: string): { where: string; params: unknown[] } {
  const params: unknown[] = [today];
  const since = `date_trunc('${unit}', $1::date - interval '${window}')::date`;
  // A void bill (a duplicate set aside, a bill entered in error) is no bill: it is counted in no series. A denied bill was
  // received and billed all the same, and counts.
  let where = `c.received_date >= ${since} AND c.claim_status_id <> ${ClaimStatus.Void}`;
  if (scope.memberId !== null) where = `c.member_id = $${params.push(scope.memberId)} AND ${where}`;
  return { where, params };
}

async function series<T>(sql: SqlClient, scope: SeriesScope, period: SeriesPeriod, valueSql: string, alias: string, today: string): Promise<T[]> {
  const p = PERIODS[period];
  const { where, params } = windowed(scope, p.window, p.unit, today);
  const bucket = `date_trunc('${p.unit}', c.received_date)::date`;
  const grouped = `SELECT ${bucket} AS d, ${valueSql} AS v FROM claims c WHERE ${where} GROUP BY 1`;
  const text = `WITH g AS (${grouped})
       SELECT to_char(s.d, 'YYYY-MM-DD') AS "Date", COALESCE(g.v, 0)::bigint AS "${alias}"
       FROM (SELECT generate_series(date_trunc('${p.unit}', $1::date - interval '${p.window}'), date_trunc('${p.unit}', $1::date), interval '${p.unit === 'quarter' ? '3 months' : `1 ${p.unit}`}')::date AS d) s
       LEFT JOIN g ON g.d = s.d ORDER BY s.d`;
  const rows = await sql.query<Record<string, unknown>>(text, params);
  return rows.map((r) => ({ Date: r.Date, [alias]: Number(r[alias]) }) as T);
}

/**
 * Every member's series (staff acting for nobody) aggregate nearly the whole claims table: the 21 to 24-month windows
 * cover about every bill, about a second each at 400,000 claims, three per /trend load. Each (series, period) is kept
 * for SERIES_TTL_MS, dated from when it was taken, so a chart of every member's may be up to 5 minutes old. A member's
 * own series (a few hundred index entries) is always taken fresh and never kept. Kept by the kernel's KeptResults: a
 * result being taken is shared by the same series asked meanwhile (when it runs out, a room of staff loading /trend
 * takes it once, not once each).
 */
export const SERIES_TTL_MS = 5 * 60_000;

/** Each caller gets points of its own: a caller changing its answer never changes the kept one. */
const copy = (points: readonly object[]): object[] => points.map((p) => ({ ...p }));

export interface ClaimsServiceOptions {
  /**
   * Where every member's series are read: the read replica (the kernel's `database.replica`), which answers when it
   * is not lagging and hands a read it cannot answer to the primary; none: the primary. A member's own series always
   * reads the primary.
   */
  replica?: { routed(after: bigint | null): SqlClient } | null;
  /** How long every member's series are kept (SERIES_TTL_MS). */
  ttlMs?: number;
  /** The clock (ms): when kept series run out, and the moment whose business day a reimbursement bill is received on. */
  now?: () => number;
  /**
   * The business's time zone (`config.businessTimeZone`, BUSINESS_TIME_ZONE): the day a reimbursement bill is received,
   * and the zone of the member's termination day it is checked against.
   */
  timeZone: string;
  /** The kernel's members service (`services.members`): a reimbursement bill after the termination day is refused. */
  members: Pick<MembersService, 'terminationDay'>;
}

export function makeClaimsService(sql: SqlClient, opts: ClaimsServiceOptions): ClaimsService {
  const now = opts.now ?? (() => Date.now());
  const kept = new KeptResults<readonly object[]>(opts.ttlMs ?? SERIES_TTL_MS, copy, now);
  const replica = opts.replica ?? null;
  /**
   * A member's series from the primary, fresh; every member's from the replica, kept. A routed client per take: it
   * chooses the replica or the primary on its first statement, so each take chooses again.
   */
  const read = <T extends object>(scope: SeriesScope, key: string, take: (client: SqlClient) => Promise<T[]>): Promise<T[]> =>
    scope.memberId !== null ? take(sql) : (kept.get(key, () => take(replica ? replica.routed(null) : sql)) as Promise<T[]>);
  const today = () => businessToday(opts.timeZone, now());
  return {
    recordReimbursement: (input, tx) => recordReimbursement(input, tx, today(), { members: opts.members, timeZone: opts.timeZone }),
    async billOwner(claimId) {
      const rows = await sql.query<{ member_id: number }>('SELECT member_id FROM claims WHERE claim_id = $1', [claimId]);
      return rows[0]?.member_id ?? null;
    },
    async billStatuses(memberId, claimIds) {
      if (claimIds.length === 0) return [];
      const rows = await sql.query<{ claim_id: number; claim_status_id: number; paid_cents: string | number | null; paid_date: string | null }>(
        'SELECT claim_id, claim_status_id, paid_cents, paid_date::text AS paid_date FROM claims WHERE member_id = $1 AND claim_id = ANY($2::int[])',
        [memberId, [...claimIds]],
      );
      return rows.map((r) => ({
        ClaimID: r.claim_id,
        ClaimStatusID: Number(r.claim_status_id),
        PaidCents: r.paid_cents === null ? null : Number(r.paid_cents),
        PaidDate: r.paid_date,
      }));
    },
    claimCounts: (scope, period) =>
      read(scope, `claims|${period}`, (client) => series<ClaimCountPoint>(client, scope, period, 'count(*)', 'NumberOfClaims', today())),
    billAmounts: (scope, period) =>
      read(scope, `bills|${period}`, (client) => series<BillAmountPoint>(client, scope, period, 'sum(c.billed_cents)', 'AmountCents', today())),
    cityCounts: (scope) =>
      read(scope, 'cities', async (client) => {
        const { where, params } = windowed(scope, CITY_WINDOW, 'month', today());
        // The totals are counted over every city of the window (a window function runs before the LIMIT).
        const rows = await client.query<{ City: string; NumberOfClaims: number | string; TotalCities: number | string; TotalClaims: number | string }>(
          `SELECT p.city || ', ' || p.state AS "City", count(*) AS "NumberOfClaims",
             count(*) OVER () AS "TotalCities", sum(count(*)) OVER () AS "TotalClaims"
           FROM claims c JOIN claim_payees p ON p.payee_id = c.payee_id
           WHERE ${where} AND p.city IS NOT NULL AND p.state IS NOT NULL
           GROUP BY p.city, p.state ORDER BY count(*) DESC, 1 LIMIT ${CITY_LIMIT}`,
          params,
        );
        return rows.map(
          (r): CityCountPoint => ({
            City: r.City,
            NumberOfClaims: Number(r.NumberOfClaims),
            TotalCities: Number(r.TotalCities),
            TotalClaims: Number(r.TotalClaims),
          }),
        );
      }),
  };
}
