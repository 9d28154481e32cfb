import { AdminRoles } from '@portal/core';
import type { SeedContext } from '@portal/server';
import { ROLE_KEYS } from '../rules';

const COMPANIES = ['Harbor Claims Services', 'Summit Adjusting Group', 'Blue Ridge Brokerage', 'Lakeside Risk Partners'];
const TEAMS = ['Intake', 'Catastrophe', 'Litigation', 'Medical Review'];
const FIRST = ['Avery', 'Jordan', 'Morgan', 'Riley', 'Casey', 'Quinn', 'Taylor', 'Rowan', 'Emerson', 'Hayden', 'Parker', 'Reese'];
const LAST = ['Nguyen', 'Patel', 'Garcia', 'Okafor', 'Schmidt', 'Rossi', 'Kowalski', 'Haddad', 'Lindqvist', 'Moreau', 'Tanaka', 'Alvarez'];

/**
 * Companies with contacts (six per company and scale unit) and teams, drawn from the plugin's own random
 * stream; and the staff site's CareSupport demo user is made a SystemAdmin (through the identity service),
 * so the demo can change roles. Does nothing when companies exist.
 */
export async function seed({ sql, scale, random, log, identity }: SeedContext): Promise<void> {
  const existing = (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM users_companies'))[0]?.n ?? 0;
  if (existing > 0) return;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  let contacts = 0;
  for (const name of COMPANIES) {
    const company = (await sql.query<{ id: number }>('INSERT INTO users_companies (name) VALUES ($1) RETURNING id', [name]))[0];
    if (!company) continue;
    const domain = `${name.toLowerCase().split(' ')[0]}.example.com`;
    const used = new Set<string>();
    for (let i = 0; i < 6 * scale; i++) {
      const first = pick(FIRST);
      const last = pick(LAST);
      let email = `${first}.${last}@${domain}`.toLowerCase();
      for (let n = 2; used.has(email); n++) email = `${first}.${last}${n}@${domain}`.toLowerCase();
      used.add(email);
      await sql.query('INSERT INTO users_contacts (company_id, first_name, last_name, email) VALUES ($1, $2, $3, $4)', [company.id, first, last, email]);
      contacts++;
    }
    for (const team of TEAMS.slice(0, 2 + Math.floor(random() * 3))) {
      await sql.query('INSERT INTO users_teams (company_id, name) VALUES ($1, $2)', [company.id, team]);
    }
  }
  const admin = identity && (await identity.findByName('staff.caresupport'));
  if (identity && admin) await identity.setRoles(admin.id, [AdminRoles.SystemAdmin], ROLE_KEYS);
  log(`users: ${COMPANIES.length} companies, ${contacts} contacts${admin ? ', staff.caresupport is SystemAdmin' : ''}`);
}
