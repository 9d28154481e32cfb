import type { SeedContext } from '@portal/server';

const FIRST = ['Maria', 'James', 'Linda', 'Robert', 'Patricia', 'Michael', 'Barbara', 'David', 'Susan', 'Carlos', 'Nancy', 'Kevin'];
const LAST = ['Garcia', 'Johnson', 'Smith', 'Nguyen', 'Brown', 'Martinez', 'Davis', 'Lopez', 'Wilson', 'Clark', 'Lewis', 'Walker'];
const CITIES = ['Austin', 'Denver', 'Tampa', 'Columbus', 'Phoenix', 'Raleigh'];

const pick = <T>(list: readonly T[], r: number): T => list[Math.floor(r * list.length)] as T;

/** Two to five contacts for each demo member (a member with a login) that has none; ctx.random is this plugin's own stream. */
export async function seed({ sql, members, random, log }: SeedContext): Promise<void> {
  const demo = members.filter((m) => m.userName !== null);
  if (demo.length === 0) return;
  const have = new Set(
    (await sql.query<{ member_id: number }>('SELECT DISTINCT member_id FROM contacts WHERE member_id = ANY($1::int[])', [demo.map((m) => m.memberId)])).map(
      (r) => r.member_id,
    ),
  );
  let added = 0;
  for (const m of demo) {
    if (have.has(m.memberId)) continue;
    const n = 2 + Math.floor(random() * 4);
    for (let i = 0; i < n; i++) {
      const first = pick(FIRST, random());
      const last = pick(LAST, random());
      const phone = `${200 + Math.floor(random() * 700)}555${String(1000 + Math.floor(random() * 9000))}`;
      await sql.query(
        `INSERT INTO contacts (member_id, first_name, last_name, phone, email, contact_type_id, phone_type_id, address_type_id, address1, city, state_code_id, zip, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, 3, 4, $7, $8, $9, $10, 'seed', 'seed')`,
        [
          m.memberId,
          first,
          last,
          phone,
          `${first}.${last}@example.com`.toLowerCase(),
          1 + Math.floor(random() * 6),
          `${100 + Math.floor(random() * 9800)} Main St`,
          pick(CITIES, random()),
          1 + Math.floor(random() * 50),
          String(10000 + Math.floor(random() * 89999)),
        ],
      );
      added++;
    }
  }
  if (added) log(`contacts: ${added} contacts`);
}
