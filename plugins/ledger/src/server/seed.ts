import { Roles } from '@portal/core';
import type { SeedContext } from '@portal/server';
import { addDays, addMonths, todayUtc } from '../contract';

/** Providers a set-aside pays, with a typical procedure code and a price range in dollars. */
const EXPENSES: readonly { company: string; description: string; code: string; min: number; max: number }[] = [
  { company: 'Lakeside Physical Therapy', description: 'Physical therapy session', code: '97110', min: 85, max: 180 },
  { company: 'Riverside Orthopedics', description: 'Follow-up office visit', code: '99213', min: 95, max: 210 },
  { company: 'Summit Imaging Center', description: 'MRI lumbar spine', code: '72148', min: 450, max: 1400 },
  { company: 'Walgreens Pharmacy', description: 'Prescription refill', code: 'NDC', min: 12, max: 260 },
  { company: 'CVS Pharmacy', description: 'Pain medication', code: 'NDC', min: 9, max: 140 },
  { company: 'Medline Home Supply', description: 'Knee brace', code: 'L1833', min: 60, max: 320 },
  { company: 'Apex Pain Management', description: 'Epidural steroid injection', code: '62323', min: 600, max: 1900 },
  { company: 'Valley Chiropractic', description: 'Chiropractic adjustment', code: '98941', min: 45, max: 95 },
  { company: 'Northside Labs', description: 'Blood panel', code: '80053', min: 25, max: 140 },
];
const CARD_STATUS_WEIGHTS: readonly (readonly [string, number])[] = [
  ['Settled', 85],
  ['Voided', 5],
  ['Captured', 10],
];
const ROWS_PER_INSERT = 400;
/** The demo member who enters the initial balance themselves (the one-time input is still open). */
export const OPEN_BALANCE_USER = 'card.careguard';
/**
 * A second demo member whose initial balance is still open: the ledger journey signs in as them when CI runs it again
 * after a failure (e2e `memberForAttempt`), since the first attempt may have entered OPEN_BALANCE_USER's.
 */
export const SECOND_OPEN_BALANCE_USER = 'quote.careguard';

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}
const cents = (random: () => number, min: number, max: number) => Math.round((min + random() * (max - min)) * 100);

/**
 * Realistic set-aside ledgers for the demo members holding CareGuard, CareAssist or CareGuardFinance: the report header, an initial
 * balance (except OPEN_BALANCE_USER's and SECOND_OPEN_BALANCE_USER's), a year of expenses (some by card, a few still authorized or voided), monthly
 * interest and a yearly deposit, and last year's first month reported to the federal payer. Does nothing when rows exist.
 */
export async function seed({ sql, members, random, log }: SeedContext): Promise<void> {
  const existing = (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_accounts'))[0]?.n ?? 0;
  if (existing > 0) return;
  const cardHolder = (m: SeedContext['members'][number]) => m.roles.some((r) => r === Roles.CareGuard || r === Roles.CareAssist);
  // Finance members (their statements and documents come from the ledger) after the card holders, so the card
  // holders' draws from the random stream, and so their data, stay what they were.
  const holders = [...members.filter(cardHolder), ...members.filter((m) => !cardHolder(m) && m.roles.some((r) => r === Roles.CareGuardFinance))];
  const today = todayUtc();
  let rows = 0;
  for (const m of holders) {
    const injury = addDays(today, -Math.floor(1100 + random() * 1100));
    const settlement = addDays(today, -Math.floor(400 + random() * 300));
    const drawn = m.userName === OPEN_BALANCE_USER ? null : cents(random, 25_000, 150_000);
    // The second open balance is drawn and left unset, so every later member's data stays what it was.
    const initial = m.userName === SECOND_OPEN_BALANCE_USER ? null : drawn;
    const hicn = `${String(100_000_000 + Math.floor(random() * 899_999_999))}A`;
    await sql.query(
      'INSERT INTO ledger_accounts (member_id, initial_balance_cents, balance_set_at, hicn, date_of_injury, date_of_settlement) VALUES ($1, $2, $3, $4, $5, $6)',
      [m.memberId, initial, initial === null ? null : `${settlement}T12:00:00Z`, hicn, injury, settlement],
    );
    const tx: unknown[][] = [];
    const start = addMonths(today, -13);
    for (let month = 0; month <= 13; month++) {
      const first = addMonths(start, month);
      // Monthly interest from the custodial bank, on the first.
      if (first <= today) tx.push([first, null, 'First Federal Custodial Bank', 'Monthly interest', 3, cents(random, 8, 45), 'ledger', 'Posted']);
      if (month === 1 && first <= today)
        tx.push([first, null, 'Structured Settlement Annuity', 'Annual deposit', 2, cents(random, 4_000, 12_000), 'ledger', 'Posted']);
      const count = 3 + Math.floor(random() * 5);
      for (let i = 0; i < count; i++) {
        const day = addDays(first, Math.floor(random() * 28));
        if (day > today) continue;
        const e = pick(random, EXPENSES);
        const byCard = random() < 0.4;
        let status = 'Posted';
        if (byCard) {
          const recent = day >= addDays(today, -3);
          status = recent
            ? 'Authorized'
            : (pick(
                random,
                CARD_STATUS_WEIGHTS.flatMap(([s, w]) => Array<string>(w).fill(s)),
              ) ?? 'Settled');
        }
        tx.push([day, e.code, e.company, e.description, 1, cents(random, e.min, e.max), byCard ? 'card' : 'ledger', status]);
      }
    }
    for (let i = 0; i < tx.length; i += ROWS_PER_INSERT) {
      const params: unknown[] = [];
      const values: string[] = [];
      for (const r of tx.slice(i, i + ROWS_PER_INSERT)) {
        params.push(m.memberId, ...r);
        const b = params.length - 9;
        values.push(
          `($${b + 1}, $${b + 2}::date, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${b + 8}, $${b + 9}, $${b + 2}::date + time '09:00')`,
        );
      }
      await sql.query(
        `INSERT INTO ledger_transactions (member_id, date_created, code, company, description, transaction_type_id, amount_cents, source, status, created_at) VALUES ${values.join(', ')}`,
        params,
      );
    }
    rows += tx.length;
    // The first month of the period was reported already (last year's report), so the reported view has rows.
    const reportTo = addDays(addMonths(start, 1), -1);
    const report = await sql.query<{ report_id: number }>(
      `INSERT INTO ledger_reports (member_id, period_from, period_to, acknowledgement_id, record_count, sent_at)
       SELECT $1, $2::date, $3::date, $4, count(*), $3::date + interval '20 days' FROM ledger_transactions
       WHERE member_id = $1 AND date_created BETWEEN $2::date AND $3::date AND status NOT IN ('Authorized', 'Captured', 'Voided') RETURNING report_id`,
      [m.memberId, start, reportTo, `FP-SEED-${m.memberId}`],
    );
    await sql.query(
      `UPDATE ledger_transactions SET report_id = $4 WHERE member_id = $1 AND date_created BETWEEN $2::date AND $3::date AND status NOT IN ('Authorized', 'Captured', 'Voided')`,
      [m.memberId, start, reportTo, report[0]?.report_id],
    );
  }
  log(`ledger: ${holders.length} set-asides, ${rows} transactions`);
}
