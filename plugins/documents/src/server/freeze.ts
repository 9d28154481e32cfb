import type { LedgerEntry, LedgerService } from '@portal/plugin-ledger/service';
import type { SqlClient } from '@portal/server';
import { DocumentType } from '../contract';
import { lastDayOfMonth } from './catalog';

/** A ledger row as an issued statement shows it. */
export interface FrozenRow {
  id: number;
  /** YYYY-MM-DD */
  date: string;
  company: string | null;
  description: string | null;
  typeId: number;
  /** English; translated when rendered. */
  typeName: string;
  signedCents: number;
  /** The running balance on the statement: its opening, its adjustments and its rows up to this one. */
  balanceCents: number;
}

/**
 * A change to a period an earlier statement covered, found when this statement was issued: a row dated before this
 * period that was added, changed (its amount or type), removed, or moved to this period or later (its date changed)
 * since the statement that counted it was issued, or the initial balance set or changed. `cents` is what it moves the
 * balance by. A row whose date moved within the earlier periods, or whose words changed, moves no money: no adjustment.
 */
export interface Adjustment {
  kind: 'added' | 'changed' | 'removed' | 'moved' | 'initial';
  /** The ledger row; null for the initial balance. */
  id: number | null;
  /** The row's date (for a removed row, the date the earlier statement showed); null for the initial balance. */
  date: string | null;
  company: string | null;
  description: string | null;
  typeName: string | null;
  cents: number;
  /** What the earlier statements counted for it (changed rows and the initial balance). */
  wasCents: number | null;
  /** A row 'moved' out of the earlier periods: its date now (it is counted there, on this statement or a later one). */
  movedTo?: string;
}

/**
 * The figures of a monthly statement, taken once when it is issued (member_documents.snapshot): the PDF is rendered
 * from these, never from the ledger again. `openingCents` is the previous statement's closing balance;
 * `closingCents` = opening + adjustments + rows, which was the ledger's balance at the period's end when it was taken.
 */
export interface StatementSnapshot {
  v: 1;
  /** The business day the statement was issued (listed first). */
  issuedOn: string;
  /** The initial balance the figures count (null: none set then, counted as 0). */
  initialCents: number | null;
  openingCents: number;
  adjustments: Adjustment[];
  rows: FrozenRow[];
  closingCents: number;
  /**
   * Only on a statement no earlier statement was issued before (the first, or one issued for a month before the first
   * issued one): the rows dated before its period that its opening balance counts. Its opening is the ledger's.
   */
  carried?: FrozenRow[];
}

/** What a chain of issued statements has counted up to a point: the initial balance and each row as last shown. */
interface Basis {
  initialCents: number | null;
  rows: Map<number, FrozenRow>;
}

const rowOf = (r: LedgerEntry, balanceCents = r.balanceCents): FrozenRow => ({
  id: r.id,
  date: r.date,
  company: r.company,
  description: r.description,
  typeId: r.typeId,
  typeName: r.typeName,
  signedCents: r.signedCents,
  balanceCents,
});

/** The basis after a stored snapshot, from the basis before it (ignored for a statement that starts a chain). */
function after(before: Basis | null, s: StatementSnapshot): Basis {
  const rows = new Map<number, FrozenRow>();
  if (s.carried) for (const r of s.carried) rows.set(r.id, r);
  else if (before) for (const [id, r] of before.rows) rows.set(id, r);
  let initialCents = s.carried ? s.initialCents : (before?.initialCents ?? null);
  if (!s.carried) {
    for (const a of s.adjustments) {
      if (a.kind === 'initial') initialCents = s.initialCents;
      else if (a.id === null) continue;
      else if (a.kind === 'removed' || a.kind === 'moved') rows.delete(a.id);
      else {
        const signedCents = (a.wasCents ?? 0) + a.cents;
        rows.set(a.id, {
          id: a.id,
          date: a.date ?? '',
          company: a.company,
          description: a.description,
          typeId: 0,
          typeName: a.typeName ?? '',
          signedCents,
          balanceCents: 0,
        });
      }
    }
  }
  for (const r of s.rows) rows.set(r.id, r);
  return { initialCents, rows };
}

/**
 * The snapshot of the statement for `month`, from the ledger's rows (`ledger`: every row, in date order, as
 * `ledgerService.period(member, null, null)` answers) and the basis of the statements issued
 * before it (null: none was, this statement starts the chain and opens at the ledger's balance).
 */
export function snapshotOf(
  month: string,
  issuedOn: string,
  initialCents: number | null,
  ledger: readonly LedgerEntry[],
  before: Basis | null,
): StatementSnapshot {
  const from = `${month}-01`;
  const to = lastDayOfMonth(month);
  const earlier = ledger.filter((r) => r.date < from);
  const inMonth = ledger.filter((r) => r.date >= from && r.date <= to);
  const adjustments: Adjustment[] = [];
  let openingCents: number;
  let carried: FrozenRow[] | undefined;
  if (!before) {
    carried = earlier.map((r) => rowOf(r, 0));
    openingCents = (initialCents ?? 0) + earlier.reduce((n, r) => n + r.signedCents, 0);
  } else {
    openingCents = (before.initialCents ?? 0) + [...before.rows.values()].reduce((n, r) => n + r.signedCents, 0);
    if ((initialCents ?? 0) !== (before.initialCents ?? 0))
      adjustments.push({
        kind: 'initial',
        id: null,
        date: null,
        company: null,
        description: null,
        typeName: null,
        cents: (initialCents ?? 0) - (before.initialCents ?? 0),
        wasCents: before.initialCents ?? 0,
      });
    const now = new Set<number>();
    for (const r of earlier) {
      now.add(r.id);
      const was = before.rows.get(r.id);
      const base = { id: r.id, date: r.date, company: r.company, description: r.description, typeName: r.typeName };
      if (!was) adjustments.push({ kind: 'added', ...base, cents: r.signedCents, wasCents: null });
      else if (was.signedCents !== r.signedCents)
        adjustments.push({ kind: 'changed', ...base, cents: r.signedCents - was.signedCents, wasCents: was.signedCents });
    }
    const later = new Map(ledger.filter((r) => r.date >= from).map((r) => [r.id, r.date]));
    for (const was of before.rows.values()) {
      if (now.has(was.id)) continue;
      const movedTo = later.get(was.id);
      adjustments.push({
        kind: movedTo ? 'moved' : 'removed',
        ...(movedTo ? { movedTo } : {}),
        id: was.id,
        date: was.date,
        company: was.company,
        description: was.description,
        typeName: was.typeName,
        cents: -was.signedCents,
        wasCents: was.signedCents,
      });
    }
    adjustments.sort((a, b) => (a.date ?? '').localeCompare(b.date ?? '') || (a.id ?? 0) - (b.id ?? 0));
  }
  let balance = openingCents + adjustments.reduce((n, a) => n + a.cents, 0);
  const rows = inMonth.map((r) => {
    balance += r.signedCents;
    return rowOf(r, balance);
  });
  return { v: 1, issuedOn, initialCents, openingCents, adjustments, rows, closingCents: balance, ...(carried ? { carried } : {}) };
}

type Stored = { document_id: number; period_key: string; snapshot: StatementSnapshot | null; issued_on: string };

/**
 * Freezes the member's issued monthly statements that have no snapshot yet (just listed for the first time, or
 * issued before statements were frozen), oldest first: each is taken from the ledger as it is now, opening at the
 * previous statement's closing, and every change since then to an earlier period is one of its adjustments. Reads
 * the ledger only when a statement is waiting (a list with none reads member_documents alone).
 *
 * Each snapshot is written once: `UPDATE … WHERE snapshot IS NULL`. Two requests freezing at once (two first
 * downloads, a list and a download) both compute it; the first write stands and the other reads it back, and the
 * next month is computed from the stored one, so the chain stays the one that was written.
 */
export async function freezeStatements(sql: SqlClient, ledger: LedgerService, memberId: number, zone: string): Promise<void> {
  const select = `SELECT document_id, period_key, snapshot, to_char(created_at AT TIME ZONE $3, 'YYYY-MM-DD') AS issued_on
    FROM member_documents WHERE member_id = $1 AND document_type_id = $2 AND withdrawn_at IS NULL`;
  const pending = await sql.query<Stored>(`${select} AND snapshot IS NULL ORDER BY period_key`, [memberId, DocumentType.MonthlyStatement, zone]);
  if (pending.length === 0) return;
  // Every row, later ones too: a row of an earlier period whose date moved on is told from one removed.
  const now = await ledger.period(memberId, null, null);
  const statements = await sql.query<Stored>(`${select} ORDER BY period_key`, [memberId, DocumentType.MonthlyStatement, zone]);
  const byMonth = new Map(statements.map((s) => [s.period_key, s]));
  const months = statements.map((s) => s.period_key);
  // The basis after each frozen statement, by month; a statement that is not frozen ends a chain.
  const bases = new Map<string, Basis>();
  const basisAfter = (month: string): Basis | null => {
    const known = bases.get(month);
    if (known) return known;
    const s = byMonth.get(month)?.snapshot;
    if (!s) return null;
    const prev = months[months.indexOf(month) - 1];
    const basis = after(s.carried || prev === undefined ? null : basisAfter(prev), s);
    bases.set(month, basis);
    return basis;
  };
  for (const p of pending) {
    const prev = months[months.indexOf(p.period_key) - 1];
    const before = prev === undefined ? null : basisAfter(prev);
    const snapshot = snapshotOf(p.period_key, p.issued_on, now.initialCents, now.rows, before);
    const written = await sql.query<{ snapshot: StatementSnapshot }>(
      'UPDATE member_documents SET snapshot = $2::jsonb WHERE document_id = $1 AND snapshot IS NULL RETURNING snapshot',
      [p.document_id, JSON.stringify(snapshot)],
    );
    // Another request froze it first: its snapshot stands, and the next month follows from it.
    const stored =
      written[0]?.snapshot ??
      (await sql.query<{ snapshot: StatementSnapshot }>('SELECT snapshot FROM member_documents WHERE document_id = $1', [p.document_id]))[0]?.snapshot ??
      snapshot;
    byMonth.set(p.period_key, { ...p, snapshot: stored });
  }
}
