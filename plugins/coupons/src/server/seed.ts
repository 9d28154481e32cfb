import { type SeedContext, seedToday } from '@portal/server';
import { DISCOUNT_TYPES, MEMBERSHIP_TYPES, PRODUCTS } from '../contract';

/** The day `days` after `today` ('YYYY-MM-DD'). */
const addDays = (today: string, days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Demo coupons: a few fixed ones the demo uses (WELCOME-AMETHYST valid on the card site, EXPIRED-2020 expired,
 * PAUSED-CARE inactive) and 12 x scale drawn from the plugin's own random stream. Does nothing when coupons exist.
 */
export async function seed(ctx: SeedContext): Promise<void> {
  const { sql, scale, random, log } = ctx;
  // Counted from the business's day (scripts/seed's), so a coupon starting "today" has started there.
  const today = seedToday(ctx);
  const existing = (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM coupons'))[0]?.n ?? 0;
  if (existing > 0) return;
  const rows: [string, string, string, string, string, string | null, string, number][] = [
    ['WELCOME-AMETHYST', 'Amethyst', 'Lifetime Membership', 'Lifetime', addDays(today, -30), null, 'Active', 3],
    ['CAREGUARD-LIFE', 'CareGuard', 'Lifetime Membership', 'Lifetime', addDays(today, -60), null, 'Active', 2],
    ['ASSIST-YEAR', 'CareAssist', 'Year Membership', 'Months', addDays(today, -10), addDays(today, 355), 'Active', 1],
    ['EXPIRED-2020', 'Amethyst', 'Monthly Membership', 'Months', '2020-01-01', '2020-12-31', 'Active', 400],
    ['PAUSED-CARE', 'Amethyst', 'Year Membership', 'Lifetime', addDays(today, -5), null, 'Inactive', 4],
  ];
  for (let i = 0; i < 12 * scale; i++) {
    const start = addDays(today, -Math.floor(random() * 400));
    const ends = random() < 0.5;
    rows.push([
      `PROMO-${String(1000 + i)}-${Math.floor(random() * 9000 + 1000)}`,
      PRODUCTS[Math.floor(random() * PRODUCTS.length)] ?? 'Amethyst',
      MEMBERSHIP_TYPES[Math.floor(random() * MEMBERSHIP_TYPES.length)] ?? 'Monthly Membership',
      DISCOUNT_TYPES[Math.floor(random() * DISCOUNT_TYPES.length)] ?? 'Lifetime',
      start,
      ends ? addDays(today, Math.floor(random() * 400) - 100) : null,
      random() < 0.7 ? 'Active' : 'Inactive',
      Math.floor(random() * 400),
    ]);
  }
  for (const r of rows) {
    const [code, product, membership, discount, start, end, status, ageDays] = r;
    await sql.query(
      `INSERT INTO coupons (code, product, membership_type, discount_type, start_date, end_date, status, created_at)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::date < $5::date THEN $5::date ELSE $6::date END, $7, now() - make_interval(days => $8::int))
       ON CONFLICT DO NOTHING`,
      [code, product, membership, discount, start, end, status, ageDays],
    );
  }
  log(`coupons: ${rows.length} coupons`);
}
