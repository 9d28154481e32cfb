import type { LedgerEntry, LedgerService } from '@portal/plugin-ledger/service';
import type { SqlClient } from '@portal/server';
import { DocumentType } from '../contract';

export interface Planned {
  typeId: number;
  periodKey: string;
  effectiveDate: string;
}

const lastDayOfMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};
const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 7);
};

/** Depletion events: each time the balance of a funded account falls to zero or below; the last one, if it never recovers, is permanent. */
export function depletions(initialCents: number | null, rows: readonly LedgerEntry[]): Planned[] {
  if (initialCents === null) return [];
  const events: { date: string; recovered: boolean }[] = [];
  let prev = initialCents;
  for (const r of rows) {
    if (prev > 0 && r.balanceCents <= 0) events.push({ date: r.date, recovered: false });
    if (prev <= 0 && r.balanceCents > 0) {
      const last = events.at(-1);
      if (last) last.recovered = true;
    }
    prev = r.balanceCents;
  }
  return events.map((e) => ({
    typeId: e.recovered ? DocumentType.TemporaryDepletion : DocumentType.PermanentDepletion,
    periodKey: e.date,
    effectiveDate: e.date,
  }));
}

/**
 * What the ledger says the member should have, for periods that are over (today is the UTC day): a monthly
 * statement for every month from the first row's to last month, a 1099 for every past year with interest, an
 * annual accounting for every past year with rows, and the depletion letters.
 */
export async function plan(ledger: LedgerService, memberId: number, today: string): Promise<Planned[]> {
  const span = await ledger.span(memberId);
  if (!span) return [];
  const out: Planned[] = [];
  const thisMonth = today.slice(0, 7);
  for (let month = span.first.slice(0, 7); month < thisMonth; month = nextMonth(month)) {
    out.push({ typeId: DocumentType.MonthlyStatement, periodKey: month, effectiveDate: `${month}-01` });
  }
  const all = await ledger.period(memberId, null, null);
  const thisYear = Number(today.slice(0, 4));
  const years = new Set(all.rows.map((r) => Number(r.date.slice(0, 4))).filter((y) => y < thisYear));
  for (const year of [...years].sort()) {
    const inYear = all.rows.filter((r) => r.date.startsWith(`${year}-`));
    if (inYear.some((r) => r.typeId === 3)) out.push({ typeId: DocumentType.Form1099, periodKey: String(year), effectiveDate: `${year}-12-31` });
    out.push({ typeId: DocumentType.AnnualAccounting, periodKey: String(year), effectiveDate: `${year}-12-31` });
  }
  out.push(...depletions(all.initialCents, all.rows));
  return out;
}

/**
 * Stores the planned documents that are not stored yet (ids stay stable: a document keeps its id once listed).
 * A depletion letter whose event the ledger no longer shows stays, as a letter once sent does.
 *
 * Planning reads every ledger row of the member, so it runs only when something it depends on moved since the last
 * run: the ledger's change mark (every insert, edit and delete of the member's rows, the initial balance) or the
 * month (a month ends, a statement is due; a year ends). The mark is read before planning and stored after: a ledger
 * change while planning leaves a stored mark that differs, and the next list plans again. Two lists planning at once
 * insert each document once (ON CONFLICT); the later store of the mark wins, at worst an older one, planned again.
 * Answers whether it planned.
 */
export async function materialize(sql: SqlClient, ledger: LedgerService, memberId: number, today: string): Promise<boolean> {
  const month = today.slice(0, 7);
  const mark = await ledger.changeMark(memberId);
  const last = (
    await sql.query<{ ledger_mark: string; planned_month: string }>('SELECT ledger_mark, planned_month FROM member_document_plans WHERE member_id = $1', [
      memberId,
    ])
  )[0];
  if (last?.ledger_mark === mark && last.planned_month === month) return false;
  const planned = await plan(ledger, memberId, today);
  if (planned.length > 0) {
    const params: unknown[] = [memberId];
    const values = planned.map((p) => {
      params.push(p.typeId, p.periodKey, p.effectiveDate);
      const b = params.length;
      return `($1, $${b - 2}::smallint, $${b - 1}, $${b}::date)`;
    });
    await sql.query(
      `INSERT INTO member_documents (member_id, document_type_id, period_key, effective_date) VALUES ${values.join(', ')}
       ON CONFLICT (member_id, document_type_id, period_key) DO NOTHING`,
      params,
    );
  }
  await sql.query(
    `INSERT INTO member_document_plans (member_id, ledger_mark, planned_month) VALUES ($1, $2, $3)
     ON CONFLICT (member_id) DO UPDATE SET ledger_mark = EXCLUDED.ledger_mark, planned_month = EXCLUDED.planned_month, planned_at = now()`,
    [memberId, mark, month],
  );
  return true;
}

export { lastDayOfMonth };
