/**
 * Seeds demo data: a user for every role on every brand with a known password, realistic member
 * records, and each plugin's own demo data. Writes the demo logins to <data dir>/demo-users.json.
 *   scripts/seed [--scale N] [--spares N]    scale N > 1 adds N x 5 generated members and lets plugins generate volume;
 *   spares N adds N more of each member demo user (`<brand>.<role>-2` and on; see below).
 * Safe to run again: existing demo users are kept.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadServerPlugins } from '@portal/app-server/plugins';
import { createServer } from '@portal/app-server/server';
import { loadBrands } from '@portal/brands';
import { installedPluginIds } from '@portal/brands/plugins';
import { ALL_ROLES, dayIn, MEMBER_ROLES, type Role, Roles } from '@portal/core';
import { createUser, hashPassword, identityService, type SeedMember } from '@portal/server/kernel';
import { DEMO_PASSWORD } from './lib/demo';
import { mulberry32, personName, pluginRandom } from './lib/random';

export { DEMO_PASSWORD };

function parseScale(argv: string[]): number {
  const i = argv.indexOf('--scale');
  if (i === -1) return 1;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error('--scale takes a positive integer');
  return n;
}

function parseSpares(argv: string[]): number {
  const i = argv.indexOf('--spares');
  if (i === -1) return 0;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 0 || n > 5) throw new Error('--spares takes an integer from 0 to 5');
  return n;
}

export async function seed(scale: number, log: (m: string) => void = console.log, spares = 0) {
  const server = await createServer({}, { logger: false });
  const { sql } = server.database;
  const random = mulberry32(20261121);
  const brands = loadBrands(installedPluginIds());
  const hash = await hashPassword(DEMO_PASSWORD);
  const demo: { brand: string; role: string; userName: string; password: string }[] = [];
  const members: SeedMember[] = [];

  const demoRoles = ALL_ROLES.filter((r) => r !== Roles.DeactivateBank);
  /** A demo user of one role (a member too, for a member role), or the one a data directory kept from an earlier seed. */
  const demoUser = async (brand: string, role: Role, userName: string) => {
    const roles = [role];
    const existing = await sql.query<{ member_id: number | null }>('SELECT member_id FROM users WHERE lower(user_name) = $1', [userName]);
    if (existing[0]) {
      if (existing[0].member_id) members.push({ memberId: existing[0].member_id, brand, roles, userName });
      // The published demo password holds for every demo user, also those a data directory kept from an older seed.
      await sql.query('UPDATE users SET password_hash = $1 WHERE lower(user_name) = $2', [hash, userName]);
      return;
    }
    const { first, last } = personName(random);
    await sql.transaction(async (tx) => {
      let memberId: number | null = null;
      if (MEMBER_ROLES.includes(role)) {
        memberId = await insertMember(tx, brand, first, last, `${userName}@demo.example.com`, random);
        members.push({ memberId, brand, roles, userName });
      }
      await createUser(tx, {
        userName,
        passwordHash: hash,
        firstName: first,
        lastName: last,
        email: `${userName}@demo.example.com`,
        brand,
        memberId,
        roles,
      });
    });
  };
  for (const brand of brands) {
    for (const role of demoRoles) {
      const userName = `${brand.id}.${role.toLowerCase()}`;
      demo.push({ brand: brand.id, role, userName, password: DEMO_PASSWORD });
      await demoUser(brand.id, role, userName);
    }
  }
  // A card member whose bank link needs new credentials: the DeactivateBank marker role.
  const markerUser = 'card.careguard-bank';
  demo.push({ brand: 'card', role: `${Roles.CareGuard} + ${Roles.DeactivateBank}`, userName: markerUser, password: DEMO_PASSWORD });
  const marker = await sql.query<{ member_id: number }>('SELECT member_id FROM users WHERE user_name = $1', [markerUser]);
  if (marker[0]) {
    members.push({ memberId: marker[0].member_id, brand: 'card', roles: [Roles.CareGuard], userName: markerUser });
    await sql.query('UPDATE users SET password_hash = $1 WHERE user_name = $2', [hash, markerUser]);
  } else
    await sql.transaction(async (tx) => {
      const { first, last } = personName(random);
      const memberId = await insertMember(tx, 'card', first, last, `${markerUser}@demo.example.com`, random);
      members.push({ memberId, brand: 'card', roles: [Roles.CareGuard], userName: markerUser });
      await createUser(tx, {
        userName: markerUser,
        passwordHash: hash,
        firstName: first,
        lastName: last,
        brand: 'card',
        memberId,
        roles: [Roles.CareGuard, Roles.DeactivateBank],
      });
    });

  // Spare members (--spares N): N more of each member demo user, `<brand>.<role>-2` and on, not listed with the demo
  // logins. They are for what can be done to a member only once (the last card deleted, a termination): the end-to-end
  // journeys that do it sign in as a spare when CI runs them again after a failure (e2e `memberForAttempt`). Made after
  // every other demo user, so the others' names and numbers stay what they were.
  for (let n = 2; n <= spares + 1; n++)
    for (const brand of brands)
      for (const role of demoRoles.filter((r) => MEMBER_ROLES.includes(r))) await demoUser(brand.id, role, `${brand.id}.${role.toLowerCase()}-${n}`);

  if (scale > 1) {
    const target = scale * 5;
    const have = (await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM members WHERE member_number LIKE 'G%'"))[0]?.n ?? 0;
    log(`generating ${Math.max(0, target - have)} members (scale ${scale})`);
    for (let i = have; i < target; i += 500) {
      const values: string[] = [];
      const params: unknown[] = [];
      for (let j = i; j < Math.min(target, i + 500); j++) {
        const { first, last } = personName(random);
        const brand = (['finance', 'card', 'assist', 'quote'] as const)[j % 4] ?? 'finance';
        params.push(`G${String(j).padStart(8, '0')}`, brand, first, last, `${first}.${last}.${j}@members.example.com`.toLowerCase());
        const b = params.length - 5;
        values.push(`($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, now())`);
      }
      await sql.query(`INSERT INTO members (member_number, brand, first_name, last_name, email, approved_date) VALUES ${values.join(',')}`, params);
    }
    const generated = await sql.query<{ member_id: number; brand: string }>(
      "SELECT member_id, brand FROM members WHERE member_number LIKE 'G%' ORDER BY member_id",
    );
    for (const g of generated) {
      const role =
        { finance: Roles.CareGuardFinance, card: Roles.CareGuard, assist: Roles.CareAssist, quote: Roles.CareQuote }[g.brand] ?? Roles.CareGuardFinance;
      members.push({ memberId: g.member_id, brand: g.brand, roles: [role], userName: null });
    }
  }

  // Seeded dates count back from the business's day, not the UTC one (already tomorrow on a US evening).
  const today = dayIn(server.config.businessTimeZone, new Date());
  for (const plugin of await loadServerPlugins(brands)) {
    if (!plugin.seed) continue;
    log(`seeding ${plugin.id}`);
    // Each plugin draws from its own stream, derived from its id: adding a plugin changes no other plugin's data.
    await plugin.seed({ sql, scale, members, random: pluginRandom(plugin.id), log, identity: identityService(sql), today });
  }

  if (server.config.dataDir) {
    const file = join(server.config.dataDir, 'demo-users.json');
    writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`);
    log(`wrote ${demo.length} demo logins to ${file}`);
  }
  await server.close();
  return demo;
}

async function insertMember(
  sql: import('@portal/server/kernel').SqlClient,
  brand: string,
  first: string,
  last: string,
  email: string,
  random: () => number,
): Promise<number> {
  const year = 1940 + Math.floor(random() * 60);
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  const mobile = `${2 + Math.floor(random() * 8)}${String(Math.floor(random() * 1e9)).padStart(9, '0')}`;
  const rows = await sql.query<{ member_id: number }>(
    `INSERT INTO members (member_number, brand, first_name, last_name, email, date_of_birth, mobile_phone, preferred_contact, is_phone_validated, pbm_vendor, gender, approved_date)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'Mobile', true, $8, $9, now() - interval '200 days') RETURNING member_id`,
    [
      `D${Math.floor(random() * 1e8)
        .toString()
        .padStart(8, '0')}`,
      brand,
      first,
      last,
      email,
      `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      mobile,
      1 + Math.floor(random() * 3),
      random() < 0.5 ? 'F' : 'M',
    ],
  );
  const id = rows[0]?.member_id;
  if (id === undefined) throw new Error('member insert returned no id');
  return id;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  seed(parseScale(process.argv.slice(2)), console.log, parseSpares(process.argv.slice(2))).catch((e: unknown) => {
    console.error(`Seeding failed: ${(e as Error).message}`);
    process.exit(1);
  });
}
