import { openTestDatabase } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { kernelMigrations } from '../db/kernel-migrations';
import { migrate } from '../db/migrate';
import { type IdentityService, identityService } from './identity';

/** The identity methods user administration uses: search, setRoles within a set, updateUser and bumpVersion with a Version check. */
let database: Database;
let identity: IdentityService;
const ids: Record<string, string> = {};

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database.sql, [{ owner: 'kernel', migrations: kernelMigrations }]);
  identity = identityService(database.sql);
  const people: [string, string, string, number | null, string[]][] = [
    ['ann.lee', 'Ann', 'Lee', 1, ['CareSupport', 'SystemAdmin']],
    ['bob.stone', 'Bob', 'Stone', 2, ['CareSupport', 'Broker']],
    ['cara.lee', 'Cara', 'Lee', 1, []],
  ];
  for (const [userName, firstName, lastName, companyId, roles] of people) {
    ids[userName] = await identity.createUser({ userName, passwordHash: 'x', firstName, lastName, brand: 'staff', companyId, roles });
  }
});
afterAll(() => database?.close());

const base = { sort: 'UserName', sortDir: 'asc', limit: 10, offset: 0 } as const;

describe('identity service: user administration', () => {
  it('searches by parts of names, company and role, pages and sorts', async () => {
    expect((await identity.searchUsers({ ...base, lastName: 'LEE' })).rows.map((r) => r.user_name)).toEqual(['ann.lee', 'cara.lee']);
    expect((await identity.searchUsers({ ...base, companyIds: [2] })).rows.map((r) => r.user_name)).toEqual(['bob.stone']);
    expect((await identity.searchUsers({ ...base, role: 'SystemAdmin' })).rows.map((r) => r.user_name)).toEqual(['ann.lee']);
    const page = await identity.searchUsers({ ...base, sort: 'FirstName', sortDir: 'desc', limit: 1, offset: 1 });
    expect(page).toMatchObject({ total: 3, rows: [{ user_name: 'bob.stone', version: 1, is_active: true }] });
    expect((await identity.searchUsers({ ...base, kind: 'member' })).total).toBe(0);
  });

  it('sets roles only within the given set, leaving the others', async () => {
    const within = ['SystemAdmin', 'Adjuster', 'Broker', 'TeamLead'];
    expect(await identity.setRoles(ids['bob.stone'] ?? '', ['TeamLead'], within)).toEqual(['Broker']);
    expect(await identity.rolesOf(ids['bob.stone'] ?? '')).toEqual(['CareSupport', 'TeamLead']);
    await expect(identity.setRoles(ids['bob.stone'] ?? '', ['SuperUser'], within)).rejects.toThrow(/SuperUser/);
    expect(await identity.rolesOf(ids['bob.stone'] ?? '')).toEqual(['CareSupport', 'TeamLead']);
  });

  it('updates a user and bumps the version only when the version is current', async () => {
    const id = ids['cara.lee'] ?? '';
    const patch = { userName: 'cara@example.com', firstName: 'Carla', lastName: 'Lee', email: 'cara@example.com', companyId: 2 };
    expect(await identity.updateUser(id, 1, patch)).toBe(2);
    expect(await identity.updateUser(id, 1, { ...patch, firstName: 'Stale' })).toBeNull();
    expect(await identity.findById(id)).toMatchObject({ first_name: 'Carla', company_id: 2, user_name: 'cara@example.com', version: 2 });
    expect(await identity.bumpVersion(id, 2)).toBe(3);
    expect(await identity.bumpVersion(id, 2)).toBeNull();
  });
});
