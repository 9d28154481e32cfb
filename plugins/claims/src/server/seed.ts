import { ClaimStatus } from '@portal/core';
import { type SeedContext, type SqlClient, seedToday } from '@portal/server';
import type { PayeeKind } from '../contract';
import { CLAIM_INDEXES } from './migrations';
import { KIND_PROFILE } from './payees';

const S = ClaimStatus;
const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);

/** Weighted pick over [value, weight] pairs with r in [0, 1). */
function weighted(r: number, table: readonly (readonly [number, number])[]): number {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let x = r * total;
  for (const [v, w] of table) {
    x -= w;
    if (x < 0) return v;
  }
  return table[table.length - 1]?.[0] ?? S.Received;
}

/** Status by the bill's age: new bills are early in the flow, old ones mostly settled. Mirrored in the SQL generator. */
export const STATUS_BY_AGE: readonly { maxAge: number; table: readonly (readonly [number, number])[] }[] = [
  {
    maxAge: 10,
    table: [
      [S.Received, 60],
      [S.InReview, 40],
    ],
  },
  {
    maxAge: 30,
    table: [
      [S.InReview, 35],
      [S.PendingInformation, 15],
      [S.Approved, 25],
      [S.ScheduledForPayment, 15],
      [S.Denied, 10],
    ],
  },
  {
    maxAge: 60,
    table: [
      [S.Approved, 10],
      [S.ScheduledForPayment, 10],
      [S.PaymentIssued, 25],
      [S.Paid, 45],
      [S.Denied, 10],
    ],
  },
  {
    maxAge: 100_000,
    table: [
      [S.Paid, 78],
      [S.Denied, 9],
      [S.Void, 3],
      [S.NonRedeemedPayment, 4],
      [S.ReadyForReissue, 3],
      [S.PaymentIssued, 3],
    ],
  },
];
const PAID_LIKE = [S.PaymentIssued, S.Paid, S.NonRedeemedPayment, S.ReadyForReissue] as number[];

interface PayeeRow {
  payee_id: number;
  name: string;
  kind: PayeeKind;
}

/** Demo bills for the seeded members; `--scale N` adds N x 1000 generated bills. ctx.random is this plugin's own stream. */
export async function seed(ctx: SeedContext): Promise<void> {
  const payees = await ctx.sql.query<PayeeRow>('SELECT payee_id, name, kind FROM claim_payees ORDER BY payee_id');
  if (payees.length === 0) throw new Error('claim_payees is empty: run the claims migrations first');
  await seedDemo(ctx, payees);
  if (ctx.scale > 1) await seedVolume(ctx);
}

/** 30-60 bills over the last two years for each demo member (members with a login) that has none yet. */
async function seedDemo(ctx: SeedContext, payees: PayeeRow[]): Promise<void> {
  const demo = ctx.members.filter((m) => m.userName !== null);
  if (demo.length === 0) return;
  const have = new Set(
    (await ctx.sql.query<{ member_id: number }>('SELECT DISTINCT member_id FROM claims WHERE member_id = ANY($1::int[])', [demo.map((m) => m.memberId)])).map(
      (r) => r.member_id,
    ),
  );
  // The business's day (scripts/seed's), at midnight UTC: the days below are counted in whole UTC days from it.
  const today = Date.parse(`${seedToday(ctx)}T00:00:00Z`);
  let added = 0;
  for (const m of demo) {
    if (have.has(m.memberId)) continue;
    const n = 30 + Math.floor(ctx.random() * 31);
    const rows: unknown[][] = [];
    for (let k = 0; k < n; k++) {
      const r = ctx.random;
      // Pharmacies and clinics bill most often; hospitals rarely.
      const kindPick = weighted(r(), [
        [0, 30],
        [1, 22],
        [2, 10],
        [3, 8],
        [4, 8],
        [5, 6],
        [6, 6],
        [7, 10],
      ]);
      const kind = (['Pharmacy', 'Clinic', 'Lab', 'Hospital', 'DME', 'Home Health', 'Other', 'Physician'] as const)[kindPick] ?? 'Clinic';
      const ofKind = payees.filter((p) => p.kind === kind);
      const payee = (ofKind.length ? ofKind : payees)[Math.floor(r() * (ofKind.length || payees.length))] as PayeeRow;
      const prof = KIND_PROFILE[payee.kind] ?? KIND_PROFILE.Other;
      // Every demo member's newest three bills are just received, whatever the random stream: the demo (and the
      // journeys that edit an open bill) always have some.
      const fresh = k < 3;
      const age = fresh ? Math.floor(r() * 20) : Math.floor(r() * 730);
      const received = today - age * DAY;
      const serviceFrom = received - (3 + Math.floor(r() * 38)) * DAY;
      const span = payee.kind === 'Hospital' ? Math.floor(r() * 8) : payee.kind === 'DME' || payee.kind === 'Home Health' ? Math.floor(r() * 31) : 0;
      const drawn = weighted(r(), STATUS_BY_AGE.find((s) => age < s.maxAge)?.table ?? []);
      const status = fresh ? S.Received : drawn;
      const billed = Math.round((prof.min + (prof.max - prof.min) * r() ** 2) * 100);
      const unc = Math.round(billed * (1 + r() * 0.25));
      const paid = PAID_LIKE.includes(status);
      const paidDate = paid ? Math.min(today, received + (14 + Math.floor(r() * 31)) * DAY) : null;
      const paidCents = paid ? Math.round(billed * (0.4 + r() * 0.5)) : null;
      const check = paid ? `CHK${String(Math.floor(r() * 1e7)).padStart(7, '0')}` : null;
      const number = `CL${iso(new Date(received)).slice(2, 4)}${String(Math.floor(r() * 1e6)).padStart(6, '0')}`;
      rows.push([
        number,
        m.memberId,
        payee.payee_id,
        payee.name,
        status,
        prof.billType,
        prof.claimType,
        billed,
        unc,
        iso(new Date(serviceFrom)),
        span ? iso(new Date(serviceFrom + span * DAY)) : iso(new Date(serviceFrom)),
        iso(new Date(received)),
        status === S.Received ? null : iso(new Date(received + (1 + Math.floor(r() * 4)) * DAY)),
        paidDate === null ? null : iso(new Date(paidDate)),
        paidCents,
        check,
      ]);
    }
    await insertRows(ctx.sql, rows);
    added += rows.length;
  }
  if (added) ctx.log(`claims: ${added} demo bills for ${demo.length - have.size} members`);
}

async function insertRows(sql: SqlClient, rows: unknown[][]): Promise<void> {
  const cols = 16;
  const values: string[] = [];
  const params: unknown[] = [];
  for (const row of rows) {
    const b = params.length;
    params.push(...row);
    values.push(`(${Array.from({ length: cols }, (_, j) => `$${b + j + 1}`).join(', ')})`);
  }
  await sql.query(
    `WITH ins AS (
       INSERT INTO claims (claim_number, member_id, payee_id, payee_name, claim_status_id, bill_type_id, claim_type_id, billed_cents, submitted_unc_cents,
         service_date_from, service_date_to, received_date, bill_review_received_date, paid_date, paid_cents, check_number)
       SELECT v.n, v.m::int, v.p::int, v.pn, v.s::smallint, v.bt::smallint, v.ct::smallint, v.b::bigint, v.u::bigint,
         v.sf::date, v.st::date, v.r::date, v.br::date, v.pd::date, v.pc::bigint, v.ck
       FROM (VALUES ${values.join(', ')}) AS v(n, m, p, pn, s, bt, ct, b, u, sf, st, r, br, pd, pc, ck)
       RETURNING claim_id, claim_status_id, received_date
     )
     INSERT INTO claim_status_history (claim_id, from_status_id, to_status_id, changed_by_name, changed_at, reason)
     SELECT claim_id, NULL, claim_status_id, 'seed', received_date::timestamptz, 'Imported' FROM ins`,
    params,
  );
}

/** The generated claims carry numbers 'GC...'; their count tells how far an earlier run got. */
const GENERATED = "claim_number LIKE 'GC%'";
const CHUNK = 100_000;

/** A pseudo-random number in [0, 1) from the row number and a salt: deterministic, so every run generates the same data. */
const rnd = (salt: number) => `(((hashint4(g.i * 13 + ${salt}))::bigint & 2147483647) % 1000003) / 1000003.0`;

function statusCase(): string {
  const branches = STATUS_BY_AGE.map(({ maxAge, table }) => {
    const total = table.reduce((s, [, w]) => s + w, 0);
    let acc = 0;
    const inner = table
      .map(([v, w], idx) => {
        acc += w;
        return idx === table.length - 1 ? `ELSE ${v}` : `WHEN x.r_status < ${acc / total} THEN ${v}`;
      })
      .join(' ');
    return `WHEN x.age < ${maxAge} THEN (CASE ${inner} END)`;
  });
  return `(CASE ${branches.join(' ')} END)`;
}

/**
 * scale x 1000 bills spread over all seeded members, generated inside the database with generate_series
 * (100k rows a statement). The secondary indexes are dropped for the load and built once afterwards;
 * the whole load is one transaction, so a failed run leaves nothing half done.
 */
async function seedVolume(ctx: SeedContext): Promise<void> {
  const target = ctx.scale * 1000;
  const have = (await ctx.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM claims WHERE ${GENERATED}`))[0]?.n ?? 0;
  if (have >= target) {
    ctx.log(`claims: ${have} generated bills already there (target ${target})`);
    return;
  }
  const memberIds = ctx.members.map((m) => m.memberId);
  if (memberIds.length === 0) return;
  const kinds = Object.entries(KIND_PROFILE)
    .map(([k, p]) => `('${k}', ${p.billType}, ${p.claimType}, ${p.min}, ${p.max})`)
    .join(', ');
  const started = Date.now();
  ctx.log(`claims: generating ${target - have} bills over ${memberIds.length} members`);
  const bulk = target - have > 50_000;
  await ctx.sql.transaction(async (tx) => {
    if (bulk) for (const i of CLAIM_INDEXES) await tx.exec(`DROP INDEX IF EXISTS ${i.name}`);
    for (let from = have + 1; from <= target; from += CHUNK) {
      const to = Math.min(target, from + CHUNK - 1);
      await tx.query(
        `WITH pay AS (
           SELECT array_agg(payee_id ORDER BY payee_id) AS ids, array_agg(name ORDER BY payee_id) AS names,
                  array_agg(kind ORDER BY payee_id) AS kinds, count(*)::int AS n
           FROM claim_payees),
         kp(kind, bill_type, claim_type, min_d, max_d) AS (VALUES ${kinds}),
         x AS (
           SELECT g.i,
             ($1::int[])[1 + ((hashint4(g.i * 13))::bigint & 2147483647) % array_length($1::int[], 1)] AS member_id,
             1 + floor(${rnd(1)} * pay.n)::int AS pidx,
             -- claim ids follow the received date: the oldest generated bill is two years old, the newest today
             greatest(0, 730 - floor(g.i::float8 / $4 * 730)::int - floor(${rnd(2)} * 3)::int) AS age,
             ${rnd(3)} AS r_status, ${rnd(4)} AS r_amount, ${rnd(5)} AS r_unc, ${rnd(6)} AS r_paid,
             ${rnd(7)} AS r_days, ${rnd(8)} AS r_span, ${rnd(9)} AS r_check
           FROM generate_series($2::int, $3::int) AS g(i), pay),
         y AS (
           SELECT x.*, ${statusCase()} AS status, pay.ids[x.pidx] AS payee_id, pay.names[x.pidx] AS payee_name, kp.*,
             ($5::date - x.age) AS received
           FROM x CROSS JOIN pay JOIN kp ON kp.kind = pay.kinds[x.pidx]),
         z AS (
           SELECT y.*, round((y.min_d + (y.max_d - y.min_d) * y.r_amount * y.r_amount) * 100)::bigint AS billed,
             (y.received - (3 + floor(y.r_days * 38)::int)) AS service_from,
             (y.status IN (${PAID_LIKE.join(',')})) AS paid
           FROM y)
         INSERT INTO claims (claim_number, member_id, payee_id, payee_name, claim_status_id, bill_type_id, claim_type_id, billed_cents,
           submitted_unc_cents, service_date_from, service_date_to, received_date, bill_review_received_date, paid_date, paid_cents, check_number, created_at)
         SELECT 'GC' || to_char(z.received, 'YY') || lpad(z.i::text, 8, '0'), z.member_id, z.payee_id, z.payee_name, z.status, z.bill_type, z.claim_type,
           z.billed, round(z.billed * (1 + z.r_unc * 0.25))::bigint,
           z.service_from,
           z.service_from + CASE z.kind WHEN 'Hospital' THEN floor(z.r_span * 8)::int WHEN 'DME' THEN floor(z.r_span * 31)::int
                                        WHEN 'Home Health' THEN floor(z.r_span * 31)::int ELSE 0 END,
           z.received,
           CASE WHEN z.status = ${S.Received} THEN NULL ELSE z.received + 1 + floor(z.r_span * 4)::int END,
           CASE WHEN z.paid THEN least($5::date, z.received + 14 + floor(z.r_paid * 31)::int) END,
           CASE WHEN z.paid THEN round(z.billed * (0.4 + z.r_paid * 0.5))::bigint END,
           CASE WHEN z.paid THEN 'CHK' || lpad((floor(z.r_check * 10000000))::int::text, 7, '0') END,
           z.received::timestamptz
         FROM z`,
        [memberIds, from, to, target, seedToday(ctx)],
      );
      ctx.log(`claims: ${to - have} / ${target - have} (${Math.round((Date.now() - started) / 1000)} s)`);
    }
    if (bulk) {
      for (const i of CLAIM_INDEXES) await tx.exec(i.sql);
      ctx.log(`claims: indexes built (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  });
  // Statistics for the planner, and the visibility map so index-only scans skip the table.
  await ctx.sql.exec('VACUUM ANALYZE claims');
  ctx.log(`claims: ${target} generated bills in ${Math.round((Date.now() - started) / 1000)} s`);
}
