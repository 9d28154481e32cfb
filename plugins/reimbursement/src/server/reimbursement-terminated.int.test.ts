import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Roles } from '@portal/core';
import { fixtures } from '@portal/testing/files';
import { type SandboxTestEnv, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReimbursementApi } from '../contract';
import { CHUNK_BYTES } from '../rules';

/**
 * A reimbursement request for a terminated member: a service after the termination day is refused (409), for the
 * member and for staff acting for them; a service up to and on that day may still be requested.
 */
let env: SandboxTestEnv;
let filesDir: string;
let member: Session;
let superUser: Session;
let memberId: number;

const json = (s: Session, method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  env.server.app.inject({ method, url, headers: authHeaders(s, undefined, headers), ...(payload === undefined ? {} : { payload: payload as object }) });

/** Uploads a small PDF whole (as the member, or staff acting for them); answers the upload id. */
async function upload(s: Session, name: string, headers: Record<string, string> = {}): Promise<string> {
  const bytes = await fixtures.pdf();
  const started = await json(s, 'POST', ReimbursementApi.uploadStart.path, { FileName: name, Size: bytes.length }, headers);
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json().Data.UploadId as string;
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    const res = await env.server.app.inject({
      method: 'PATCH',
      url: `/api/reimbursements/uploads/${id}?Offset=${at}`,
      headers: { ...authHeaders(s, undefined, headers), 'content-type': 'application/octet-stream' },
      payload: bytes.subarray(at, at + CHUNK_BYTES),
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return id;
}
const createBody = (UploadId: string, ServiceDate: string) => ({
  type: 'application/pdf',
  name: 'receipt.pdf',
  ext: 'pdf',
  UploadId,
  BatchId: randomUUID(),
  reimbursement: { type: 'application/pdf', FileName: 'receipt.pdf', Extension: 'pdf', ServiceDate, Amount: '42.50' },
  AllowDuplicate: true,
});
const requests = async () =>
  (await env.server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM reimbursements WHERE member_id = $1', [memberId]))[0]?.n ?? 0;

beforeAll(async () => {
  filesDir = await mkdtemp(join(tmpdir(), 'reimbursement-ended-'));
  env = await startSandboxTestEnv({ fileStore: { kind: 'local', dir: join(filesDir, 'files') } });
  memberId = (await makeUser(env.server, { userName: 'reimb-ended', roles: [Roles.CareGuardFinance], brand: 'finance', member: true })).memberId ?? 0;
  await makeUser(env.server, { userName: 'reimb-ended-su', roles: [Roles.SuperUser], brand: 'staff', member: false });
  member = await signIn(env.server, 'reimb-ended', undefined, '10.0.9.1', 'finance');
  superUser = await signIn(env.server, 'reimb-ended-su', undefined, '10.0.9.2', 'staff');
  // Terminated at noon on 2026-03-10 (the business's day everywhere in the United States).
  await env.server.database.sql.query(`UPDATE members SET termination_date = '2026-03-10T18:00:00Z' WHERE member_id = $1`, [memberId]);
}, 240_000);
afterAll(async () => {
  await env?.close();
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
});

describe('a reimbursement request for a terminated member', () => {
  const refused = 'The membership ended on Mar 10, 2026: a reimbursement for a service after that day cannot be requested.';

  it('refuses a service after the termination day (409) for the member and for staff acting for them; nothing is made', async () => {
    const acting = { 'x-member-id': String(memberId) };
    const mine = await json(member, 'POST', ReimbursementApi.create.path, createBody(await upload(member, 'receipt.pdf'), '2026-03-11'));
    expect(mine.statusCode, mine.body).toBe(409);
    expect(mine.json().MsgText).toBe(refused);
    const staff = await json(superUser, 'POST', ReimbursementApi.create.path, createBody(await upload(superUser, 'receipt.pdf', acting), '2026-06-01'), acting);
    expect(staff.statusCode, staff.body).toBe(409);
    expect(staff.json().MsgText).toBe(refused);
    const es = await json(member, 'POST', ReimbursementApi.create.path, createBody(await upload(member, 'receipt.pdf'), '2026-03-11'), {
      cookie: 'cq.lang=es',
    });
    expect(es.statusCode).toBe(409);
    expect(es.json().MsgText).toBe('La membresía terminó el 10 mar 2026: no se puede solicitar un reembolso de un servicio posterior a ese día.');
    expect(await requests()).toBe(0);
  });

  it('takes a service before or on the termination day', async () => {
    for (const day of ['2026-03-01', '2026-03-10']) {
      const res = await json(member, 'POST', ReimbursementApi.create.path, createBody(await upload(member, 'receipt.pdf'), day));
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await requests()).toBe(2);
  });
});
