import type { LedgerEntry, LedgerService } from '@portal/plugin-ledger/service';
import type { AuditEntry, SqlClient } from '@portal/server';
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

/**
 * Depletion events: each time the balance of a funded account falls to zero or below; the last one, if it never
 * recovers, is permanent. One letter a day: when the balance falls to zero more than once on a day, the day's last
 * fall decides (funded again later: temporary; never: permanent), so a depletion funded again the same day is one
 * temporary letter, not a permanent and a temporary one.
 */
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
  const byDay = new Map<string, boolean>();
  for (const e of events) byDay.set(e.date, e.recovered);
  return [...byDay].map(([date, recovered]) => ({
    typeId: recovered ? DocumentType.TemporaryDepletion : DocumentType.PermanentDepletion,
    periodKey: date,
    effectiveDate: date,
  }));
}

/**
 * What the ledger says the member should have, for periods that are over (`today` is the business's day,
 * `dayIn(config.businessTimeZone)`, as the ledger's and the dashboard's: not the UTC day): a monthly
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

/** The generated depletion letters: these follow the ledger (withdrawn when it no longer calls for them). */
const LETTERS: readonly number[] = [DocumentType.TemporaryDepletion, DocumentType.PermanentDepletion];

/** How many times a list plans again when another list stored a plan while it was planning (see materialize). */
const ATTEMPTS = 3;

/** Audit rows of what planning changed (the handler writes them as 'system', in planning's transaction). */
export type PlanAudit = (entries: readonly AuditEntry[], tx: SqlClient) => Promise<void>;

/**
 * Brings the stored documents to what the ledger calls for. A planned document not stored yet is added (ids stay
 * stable: a document keeps its id once listed). A generated depletion letter the ledger no longer calls for (the
 * expense that emptied the account corrected, the account funded again the same day so the day's letter is now
 * temporary, not permanent) is withdrawn: its row stays, with `withdrawn_at`, so the ids the audit log names keep
 * naming it, but it is neither listed nor downloaded; planned again later, the same row is listed again. Each
 * withdrawal and reinstatement is audited ('documents.withdraw', 'documents.reinstate', as 'system': the ledger
 * changed, not the reader). Statements, 1099s, annual accountings and uploaded documents are never withdrawn.
 *
 * Planning reads every ledger row of the member, so it runs only when something it depends on moved since the last
 * run: the ledger's change mark (every insert, edit and delete of the member's rows, the initial balance) or the
 * month (a month ends, a statement is due; a year ends). The mark is read before planning and stored after: a ledger
 * change while planning leaves a stored mark that differs, and the next list plans again.
 *
 * Two lists planning at once: the ledger is read outside any transaction (PGlite has one connection), and what was
 * planned is stored in one transaction under a per-member lock, only if no other list stored a plan since this one
 * read the plan's revision; otherwise this one starts over (the other's plan may be older or newer than its own, so
 * it never writes over it blindly: an older plan stored last would withdraw a letter a newer one listed). So stored
 * plans follow the ledger in order, each document is inserted once, and a letter is withdrawn once.
 * Answers whether it stored a plan.
 */
export async function materialize(sql: SqlClient, ledger: LedgerService, memberId: number, today: string, audit?: PlanAudit): Promise<boolean> {
  const month = today.slice(0, 7);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const last = (
      await sql.query<{ ledger_mark: string; planned_month: string; revision: number }>(
        'SELECT ledger_mark, planned_month, revision FROM member_document_plans WHERE member_id = $1',
        [memberId],
      )
    )[0];
    const mark = await ledger.changeMark(memberId);
    if (last?.ledger_mark === mark && last.planned_month === month) return false;
    const planned = await plan(ledger, memberId, today);
    const stored = await sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', ['documents.plan', memberId]);
      const now = (await tx.query<{ revision: number }>('SELECT revision FROM member_document_plans WHERE member_id = $1', [memberId]))[0];
      if (now?.revision !== last?.revision) return false;
      await store(tx, memberId, planned, audit);
      await tx.query(
        `INSERT INTO member_document_plans (member_id, ledger_mark, planned_month, revision) VALUES ($1, $2, $3, 1)
         ON CONFLICT (member_id) DO UPDATE SET ledger_mark = EXCLUDED.ledger_mark, planned_month = EXCLUDED.planned_month,
           planned_at = now(), revision = member_document_plans.revision + 1`,
        [memberId, mark, month],
      );
      return true;
    });
    if (stored) return true;
  }
  // Other lists kept storing plans meanwhile: theirs stand (the next list plans again if the ledger moved since).
  return false;
}

/** Inside materialize's transaction: adds, reinstates and withdraws the member's generated documents to match `planned`. */
async function store(tx: SqlClient, memberId: number, planned: readonly Planned[], audit: PlanAudit | undefined): Promise<void> {
  const letters = planned.filter((p) => LETTERS.includes(p.typeId));
  const types = letters.map((p) => p.typeId);
  const keys = letters.map((p) => p.periodKey);
  type Changed = { document_id: number; document_type_id: number; period_key: string };
  // A letter withdrawn before and called for again: listed again under its id.
  const reinstated = await tx.query<Changed>(
    `UPDATE member_documents d SET withdrawn_at = NULL
     FROM unnest($2::smallint[], $3::text[]) AS p(type, key)
     WHERE d.member_id = $1 AND d.source = 'generated' AND d.withdrawn_at IS NOT NULL AND d.document_type_id = p.type AND d.period_key = p.key
     RETURNING d.document_id, d.document_type_id, d.period_key`,
    [memberId, types, keys],
  );
  if (planned.length > 0) {
    const params: unknown[] = [memberId];
    const values = planned.map((p) => {
      params.push(p.typeId, p.periodKey, p.effectiveDate);
      const b = params.length;
      return `($1, $${b - 2}::smallint, $${b - 1}, $${b}::date)`;
    });
    await tx.query(
      `INSERT INTO member_documents (member_id, document_type_id, period_key, effective_date) VALUES ${values.join(', ')}
       ON CONFLICT (member_id, document_type_id, period_key) DO NOTHING`,
      params,
    );
  }
  // A generated letter the ledger no longer calls for (uploaded documents are staff's, never touched).
  const withdrawn = await tx.query<Changed>(
    `UPDATE member_documents d SET withdrawn_at = now()
     WHERE d.member_id = $1 AND d.source = 'generated' AND d.withdrawn_at IS NULL AND d.document_type_id = ANY($4::smallint[])
       AND NOT EXISTS (SELECT 1 FROM unnest($2::smallint[], $3::text[]) AS p(type, key) WHERE p.type = d.document_type_id AND p.key = d.period_key)
     RETURNING d.document_id, d.document_type_id, d.period_key`,
    [memberId, types, keys, LETTERS],
  );
  if (!audit || reinstated.length + withdrawn.length === 0) return;
  const entry = (action: string, reason: string) => (r: Changed) => ({
    action,
    entity: 'member_document',
    entityId: r.document_id,
    memberId,
    detail: { type: r.document_type_id, date: r.period_key, reason },
  });
  await audit(
    [
      ...withdrawn.map(entry('documents.withdraw', 'the ledger no longer shows this depletion')),
      ...reinstated.map(entry('documents.reinstate', 'the ledger shows this depletion again')),
    ],
    tx,
  );
}

export { lastDayOfMonth };
