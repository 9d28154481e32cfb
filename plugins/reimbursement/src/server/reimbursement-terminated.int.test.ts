import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Roles } from '@portal/core';
import { fixtures } from '@portal/testing/files';
import { lockRaces } from '@portal/testing/races';
import { type SandboxTestEnv, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReimbursementApi } from '../contract';
import { CHUNK_BYTES } from '../rules';

/**
 * A reimbursement request for a terminated member: a service after the termination day is refused (409), for the
 * member and for staff acting for them; a service up to and on that day may still be requested, and a create repeated
 * for a request already made still answers it. The check runs again in the transaction that makes the request's bill
 * and row, under the member's row read FOR SHARE: on PostgreSQL a termination racing a create waits for it or is seen.
 */
let env: SandboxTestEnv;
let filesDir: string;
let member: Session;
let superUser: Session;
let memberId: number;
const onPostgres = !!process.env.TEST_DATABASE_URL;
const refused = 'The membership ended on Mar 10, 2026: a reimbursement for a service after that day cannot be requested.';
/** Noon in Chicago on 2026-03-10 (the business's day everywhere in the United States). */
const ENDED = '2026-03-10T18:00:00Z';

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
const requests = async (of: number = memberId) =>
  (await env.server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM reimbursements WHERE member_id = $1', [of]))[0]?.n ?? 0;
const terminate = (of: number, at: string = ENDED) => env.server.database.sql.query('UPDATE members SET termination_date = $2 WHERE member_id = $1', [of, at]);
let fresh = 0;
/** A member of their own (not terminated), signed in. */
async function newMember(name: string): Promise<{ id: number; session: Session }> {
  const userName = `reimb-ended-${name}-${++fresh}`;
  const id = (await makeUser(env.server, { userName, roles: [Roles.CareGuardFinance], brand: 'finance', member: true })).memberId ?? 0;
  return { id, session: await signIn(env.server, userName, undefined, `10.0.9.${10 + fresh}`, 'finance') };
}

beforeAll(async () => {
  filesDir = await mkdtemp(join(tmpdir(), 'reimbursement-ended-'));
  env = await startSandboxTestEnv({ fileStore: { kind: 'local', dir: join(filesDir, 'files') } });
  memberId = (await makeUser(env.server, { userName: 'reimb-ended', roles: [Roles.CareGuardFinance], brand: 'finance', member: true })).memberId ?? 0;
  await makeUser(env.server, { userName: 'reimb-ended-su', roles: [Roles.SuperUser], brand: 'staff', member: false });
  member = await signIn(env.server, 'reimb-ended', undefined, '10.0.9.1', 'finance');
  superUser = await signIn(env.server, 'reimb-ended-su', undefined, '10.0.9.2', 'staff');
  await terminate(memberId);
}, 240_000);
afterAll(async () => {
  await env?.close();
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
});

describe('a reimbursement request for a terminated member', () => {
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

describe('a create repeated after the termination', () => {
  it('answers the reimbursement its IdempotencyKey made before the termination, also with the file uploaded again', async () => {
    const m = await newMember('replay');
    const body = { ...createBody(await upload(m.session, 'receipt.pdf'), '2026-03-20'), IdempotencyKey: 'ended-replay-0001' };
    const first = await json(m.session, 'POST', ReimbursementApi.create.path, body);
    expect(first.statusCode, first.body).toBe(200);
    await terminate(m.id);
    const again = await json(m.session, 'POST', ReimbursementApi.create.path, { ...body, UploadId: await upload(m.session, 'receipt.pdf') });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().Data.Id).toBe(first.json().Data.Id);
    expect(await requests(m.id)).toBe(1);
  });
});

/**
 * The race between a create and a termination, made deterministic on PostgreSQL with locks the test holds. The first
 * check (before the bytes are read) reads without a lock and passes; the one in the create's transaction reads the
 * member's row FOR SHARE. (PGlite is one connection: a transaction runs alone and there is no race to test.)
 */
describe.skipIf(!onPostgres)('a termination racing a reimbursement request (PostgreSQL)', () => {
  const sql = () => env.server.database.sql;
  const races = lockRaces(sql);
  const { waiting, holding } = races;
  /** The uploads make these requests slower: 20 s at most. */
  const until = (seen: () => Promise<boolean>, settled: () => boolean) => races.until(seen, settled, 20_000);

  it('a termination committed while the create runs is seen: the create waits for it and is refused, storing nothing', async () => {
    const m = await newMember('race-create');
    const uploadId = await upload(m.session, 'receipt.pdf');
    const { waited, answer: res } = await races.whileHeld(
      'UPDATE members SET termination_date = $2 WHERE member_id = $1',
      [m.id, ENDED],
      () => json(m.session, 'POST', ReimbursementApi.create.path, createBody(uploadId, '2026-03-20')),
      '%FROM members WHERE member_id = $1 FOR SHARE',
      { timeoutMs: 20_000 },
    );
    expect(waited).toBe(true);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().MsgText).toBe(refused);
    expect(await requests(m.id)).toBe(0);
    expect((await sql().query('SELECT 1 FROM claims WHERE member_id = $1', [m.id])).length).toBe(0);
    // The upload stays, as for a refusal before its bytes are read.
    expect((await json(m.session, 'GET', `/api/reimbursements/uploads/${uploadId}`)).statusCode).toBe(200);
  });

  it('a termination while a create holds the member’s row waits until the request is made', async () => {
    const m = await newMember('race-hold');
    const uploadId = await upload(m.session, 'receipt.pdf');
    // The request's bill waits on this lock of the claims table, after the create's check took the member's row FOR SHARE.
    const table = holding('LOCK TABLE claims IN SHARE MODE', []);
    await table.ready;
    let made = false;
    const creating = json(m.session, 'POST', ReimbursementApi.create.path, createBody(uploadId, '2026-03-20')).finally(() => {
      made = true;
    });
    let terminated = false;
    let terminating: Promise<unknown> = Promise.resolve();
    let held: boolean;
    try {
      expect(
        await until(
          () => waiting('%INSERT INTO claims%'),
          () => made,
        ),
      ).toBe(true);
      terminating = terminate(m.id, new Date().toISOString()).finally(() => {
        terminated = true;
      });
      held = await until(
        () => waiting('UPDATE members%'),
        () => terminated,
      );
    } finally {
      table.release();
      await table.done;
    }
    const res = await creating;
    await terminating;
    expect(held).toBe(true);
    expect(res.statusCode, res.body).toBe(200);
    expect(await requests(m.id)).toBe(1);
    expect((await sql().query('SELECT 1 FROM members WHERE member_id = $1 AND termination_date IS NOT NULL', [m.id])).length).toBe(1);
  });
});
