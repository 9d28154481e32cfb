import type { StartedServer } from '@portal/app-server/server';
import { UsersApi } from '@portal/plugin-users/contract';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupportApi } from '../contract';

/**
 * The users plugin's Permissions tab gates support's reports (ViewReports) and its list export (ExportData), on the
 * server: a CareSupport user without the permission gets the kernel's 403, audited as a refused route; a user whose
 * permissions were never saved keeps every one.
 */
let server: StartedServer & { dropDatabase(): Promise<void> };
let admin: Session; // CareSupport + SystemAdmin: saves permissions
let worker: Session; // CareSupport: runs the reports
let workerId: string;
let fresh: Session; // CareSupport whose permissions are never saved
const REFUSED = 'You do not have permission to do this.';

const GATED = [
  {
    name: 'registration report (PDF)',
    url: '/api/support/registrationReport/pdf',
    route: `POST ${SupportApi.registrationReport.path}`,
    body: {},
    permission: 'ViewReports',
  },
  { name: 'user report (Excel)', url: '/api/support/userReport/excel', route: `POST ${SupportApi.userReport.path}`, body: {}, permission: 'ViewReports' },
  {
    name: 'transactions export',
    url: SupportApi.transactionExcel.path,
    route: `POST ${SupportApi.transactionExcel.path}`,
    body: { Query: { Status: 'All' } },
    permission: 'ExportData',
  },
] as const;
const PERMISSION_ID = { ViewReports: 5, ExportData: 6 } as const;

const post = (session: Session, url: string, body: object) => server.app.inject({ method: 'POST', url, headers: authHeaders(session, 'staff'), payload: body });
const get = (session: Session, url: string) => server.app.inject({ method: 'GET', url, headers: authHeaders(session, 'staff') });

async function savePermissions(userId: string, ids: number[]) {
  const read = await get(admin, `/api/users/permission/get/${userId}`);
  expect(read.statusCode, read.body).toBe(200);
  const res = await post(admin, UsersApi.permissionSave.path, { Id: userId, Version: read.json().Data.Version, Models: ids });
  expect(res.statusCode, res.body).toBe(200);
}
const refusals = async (userId: string) =>
  server.database.sql.query<{ entity_id: string; detail: { status: number; reason: string } }>(
    "SELECT entity_id, detail FROM audit_log WHERE action = 'access.refused' AND outcome = 'refused' AND actor_user_id = $1 ORDER BY id",
    [userId],
  );

beforeAll(async () => {
  server = await startTestServer({}, { sites: ['staff'] });
  await makeUser(server, { userName: 'perm-admin', roles: ['CareSupport', 'SystemAdmin'], brand: 'staff' });
  workerId = (await makeUser(server, { userName: 'perm-worker', roles: ['CareSupport'], brand: 'staff' })).userId;
  await makeUser(server, { userName: 'perm-fresh', roles: ['CareSupport'], brand: 'staff' });
  admin = await signIn(server, 'perm-admin');
  worker = await signIn(server, 'perm-worker');
  fresh = await signIn(server, 'perm-fresh');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('permissions gate support reports and exports', () => {
  it('a user whose permissions were never saved keeps every report and export, and the tab shows them all held', async () => {
    for (const g of GATED) {
      const res = await post(fresh, g.url, g.body);
      expect(res.statusCode, `${g.name}: ${res.body.slice(0, 200)}`).toBe(200);
    }
    const freshId = (await server.database.sql.query<{ id: string }>("SELECT id FROM users WHERE user_name = 'perm-fresh'"))[0]?.id as string;
    const tab = (await get(admin, `/api/users/permission/get/${freshId}`)).json().Data.Models as { Key: string; IsSelected: boolean }[];
    expect(tab.every((p) => p.IsSelected)).toBe(true);
  });

  it('with every permission off: 403 with the kernel refusal on each gated route, audited, and no file', async () => {
    await savePermissions(workerId, []);
    for (const g of GATED) {
      const res = await post(worker, g.url, g.body);
      expect(res.statusCode, g.name).toBe(403);
      expect(res.json().MsgText).toBe(REFUSED);
      expect(res.headers['x-filename']).toBeUndefined();
    }
    expect((await refusals(workerId)).map((r) => [r.entity_id, r.detail])).toEqual(
      GATED.map((g) => [g.route, { status: 403, reason: `permission ${g.permission}` }]),
    );
    // The refused calls made no report: no report audit row of theirs.
    const reports = await server.database.sql.query("SELECT 1 FROM audit_log WHERE action LIKE 'support.report.%' AND actor_user_id = $1", [workerId]);
    expect(reports).toHaveLength(0);
    // The refusal is in the reader's language.
    const es = await server.app.inject({
      method: 'POST',
      url: '/api/support/userReport/pdf',
      headers: authHeaders(worker, 'staff', { cookie: 'cq.lang=es' }),
      payload: {},
    });
    expect(es.statusCode).toBe(403);
    expect(es.json().MsgText).not.toBe(REFUSED);
  });

  it('ViewReports alone opens the reports, not the export; ExportData alone the export, not the reports', async () => {
    await savePermissions(workerId, [PERMISSION_ID.ViewReports]);
    for (const g of GATED) expect((await post(worker, g.url, g.body)).statusCode, g.name).toBe(g.permission === 'ViewReports' ? 200 : 403);
    await savePermissions(workerId, [PERMISSION_ID.ExportData]);
    for (const g of GATED) expect((await post(worker, g.url, g.body)).statusCode, g.name).toBe(g.permission === 'ExportData' ? 200 : 403);
    await savePermissions(workerId, [PERMISSION_ID.ViewReports, PERMISSION_ID.ExportData]);
    for (const g of GATED) expect((await post(worker, g.url, g.body)).statusCode, g.name).toBe(200);
  });
});
