import type { SeedContext } from '@portal/server';

const STREETS = ['Maple Ave', 'Oak St', 'Cedar Ln', 'Pine Rd', 'Elm St', 'Lakeview Dr', 'Hillcrest Blvd', 'Park Pl'];
const CITIES: [string, string, string][] = [
  ['Austin', 'TX', '78701'],
  ['Denver', 'CO', '80202'],
  ['Columbus', 'OH', '43215'],
  ['Raleigh', 'NC', '27601'],
  ['Tampa', 'FL', '33602'],
  ['Portland', 'OR', '97201'],
];
const pick = <T>(list: readonly T[], random: () => number): T => list[Math.floor(random() * list.length)] as T;

/** One current home address per demo member, from the plugin's own random stream. Skips members who have one. */
export async function seed({ sql, members, random, log }: SeedContext): Promise<void> {
  let added = 0;
  for (const m of members) {
    const has = await sql.query('SELECT 1 FROM profile_addresses WHERE member_id = $1 LIMIT 1', [m.memberId]);
    const [city, state, zip] = pick(CITIES, random);
    const street = `${100 + Math.floor(random() * 9800)} ${pick(STREETS, random)}`;
    if (has.length > 0) continue;
    await sql.query(`INSERT INTO profile_addresses (member_id, address1, city, state, zip, address_type_id, is_current) VALUES ($1, $2, $3, $4, $5, 4, true)`, [
      m.memberId,
      street,
      city,
      state,
      zip,
    ]);
    added++;
  }
  log(`profile: ${added} addresses`);
}
