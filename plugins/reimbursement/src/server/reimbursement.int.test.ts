import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { Roles } from '@portal/core';
import { EICAR } from '@portal/sandbox';
import { ApiError, CREATE_KEY_RETENTION_DAYS } from '@portal/server';
import { LocalFileStore } from '@portal/server/kernel';
import { fixtures, storedFiles } from '@portal/testing/files';
import { type SandboxTestEnv, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReimbursementApi } from '../contract';
import { CHUNK_BYTES, ReimbursementMessages as M, MAX_FILE_BYTES } from '../rules';
import { BATCH_CHANGED_MESSAGE, BATCH_TAKEN_MESSAGE, CREATE_KEY_PRUNE_CRON, CREATE_KEY_PRUNE_JOB, KEY_REUSED_MESSAGE } from './handlers/reimbursements';
import { legacyChunkKey, loadUpload, pruneUploads, receiveChunk } from './uploads';

/**
 * Reimbursements through the whole kernel guard, the file store and the sandbox virus scanner over HTTP. The file
 * store is a local one in a temporary folder, so "no file is left behind" is checked on disk.
 */
let env: SandboxTestEnv;
let filesDir: string;
let member: Session;
let other: Session;
let guard: Session;
let superUser: Session;

async function user(name: string, role: string, brand: string, isMember: boolean) {
  await makeUser(env.server, { userName: name, roles: [role], brand, member: isMember });
  return signIn(env.server, name, undefined, '10.0.0.1', brand);
}

const json = (s: Session, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  env.server.app.inject({ method, url, headers: authHeaders(s), ...(payload === undefined ? {} : { payload: payload as object }) });
const start = (s: Session, FileName: string, Size: number) => json(s, 'POST', ReimbursementApi.uploadStart.path, { FileName, Size });
const chunk = (s: Session, id: string, offset: number, bytes: Buffer) =>
  env.server.app.inject({
    method: 'PATCH',
    url: `/api/reimbursements/uploads/${id}?Offset=${offset}`,
    headers: { ...authHeaders(s), 'content-type': 'application/octet-stream' },
    payload: bytes,
  });

/** Uploads the bytes whole, chunk by chunk; answers the upload id. */
async function upload(s: Session, name: string, bytes: Buffer): Promise<string> {
  const started = await start(s, name, bytes.length);
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json().Data.UploadId as string;
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    const res = await chunk(s, id, at, bytes.subarray(at, at + CHUNK_BYTES));
    expect(res.statusCode, res.body).toBe(200);
  }
  return id;
}

/**
 * A create's body. Most tests send the same service date and amount (and often the same bytes) as new requests of one
 * member again and again: they say AllowDuplicate, so the duplicate warning (its own tests, 'a request that looks like
 * one already sent') stays out of their way. `firstTime` leaves it out.
 */
const createBody = (UploadId: string, name: string, over: Record<string, unknown> = {}, BatchId = randomUUID()) => {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return {
    type: 'application/pdf',
    name,
    ext,
    UploadId,
    BatchId,
    reimbursement: { type: 'application/pdf', FileName: name, Extension: ext, ServiceDate: '2026-10-01', Amount: '42.50', ...over },
    AllowDuplicate: true as boolean | undefined,
  };
};
/** A create's body without AllowDuplicate: what the page sends first. */
const firstTime = (UploadId: string, name: string, over: Record<string, unknown> = {}, BatchId = randomUUID()) => ({
  ...createBody(UploadId, name, over, BatchId),
  AllowDuplicate: undefined,
});
const create = (s: Session, body: unknown) => json(s, 'POST', ReimbursementApi.create.path, body);
/** The files kept for an upload's reimbursement, and its chunks (data files only). */
const keptFor = async (memberId: number, uploadId: string) => storedFiles(join(filesDir, 'files', 'reimbursements', String(memberId), uploadId));
const chunksOf = async (uploadId: string) => storedFiles(join(filesDir, 'files', 'reimbursements', 'uploads', uploadId));
const memberIdOf = async (userName: string) =>
  (await env.server.database.sql.query<{ member_id: number }>('SELECT member_id FROM users WHERE user_name = $1', [userName]))[0]?.member_id ?? 0;
const list = async (s: Session) => (await json(s, 'GET', ReimbursementApi.list.path)).json().Data as { Id: number; Name: string; Amount: number }[];

/** A PDF whose bytes pass the type check, padded to `size` bytes, optionally carrying `inside`. */
async function pdf(size: number, inside = ''): Promise<Buffer> {
  const head = Buffer.concat([await fixtures.pdf(), Buffer.from(inside, 'latin1')]);
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x20)]);
}

beforeAll(async () => {
  filesDir = await mkdtemp(join(tmpdir(), 'reimbursement-int-'));
  env = await startSandboxTestEnv({ fileStore: { kind: 'local', dir: join(filesDir, 'files') } });
  member = await user('reimb-member', Roles.CareGuardFinance, 'finance', true);
  other = await user('reimb-other', Roles.CareGuardFinance, 'finance', true);
  guard = await user('reimb-guard', Roles.CareGuard, 'card', true);
  superUser = await user('reimb-super', Roles.SuperUser, 'staff', false);
}, 240_000);
afterAll(async () => {
  await env?.close();
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
});

describe('who may call it', () => {
  it('answers 401 without a sign-in, 403 to a role without reimbursements, 404 on a brand without them', async () => {
    const res = await env.server.app.inject({ method: 'GET', url: ReimbursementApi.list.path, headers: { host: 'finance.localhost' } });
    expect(res.statusCode).toBe(401);
    expect((await json(guard, 'GET', ReimbursementApi.list.path)).statusCode).toBe(404); // the card site has no reimbursements
    const staffGuard = await user('reimb-guard-staff', Roles.CareGuard, 'staff', true);
    expect((await json(staffGuard, 'GET', ReimbursementApi.list.path)).statusCode).toBe(403);
  });
  it('refuses SuperUser acting for no member with a clear 400', async () => {
    const res = await json(superUser, 'GET', ReimbursementApi.list.path);
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe('Your account has no reimbursements of its own. Choose a member to act for first.');
  });
});

describe('a resumable upload, then create', () => {
  it('takes a 9 MB receipt in two chunks, resumes at the server offset after an interruption, keeps it and lists it', async () => {
    const bytes = await pdf(CHUNK_BYTES + 1_000_000);
    const started = await start(member, 'Dr. Smith, visit.pdf', bytes.length);
    expect(started.json().Data).toMatchObject({ FileName: 'Dr--Smith--visit.pdf', Size: bytes.length, Offset: 0, ChunkSize: CHUNK_BYTES });
    const id = started.json().Data.UploadId as string;
    expect((await chunk(member, id, 0, bytes.subarray(0, CHUNK_BYTES))).json().Data.Offset).toBe(CHUNK_BYTES);
    // The client lost track: sending from 0 again is refused with where the server is.
    const stale = await chunk(member, id, 0, bytes.subarray(0, 10));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().Data.Offset).toBe(CHUNK_BYTES);
    expect((await json(member, 'GET', `/api/reimbursements/uploads/${id}`)).json().Data.Offset).toBe(CHUNK_BYTES);
    // More than the file has left is refused and changes nothing.
    const tooMuch = await chunk(member, id, CHUNK_BYTES, Buffer.alloc(1_000_001));
    expect(tooMuch.statusCode).toBe(413);
    const done = await chunk(member, id, CHUNK_BYTES, bytes.subarray(CHUNK_BYTES));
    expect(done.json().Data.Offset).toBe(bytes.length);

    const res = await create(member, createBody(id, 'Dr. Smith, visit.pdf'));
    expect(res.statusCode, res.body).toBe(200);
    // The answer says the request is submitted (the page shows this MsgText as its success message).
    expect(res.json().MsgText).toBe('Your reimbursement request has been submitted with its file.');
    const made = res.json().Data;
    expect(made).toMatchObject({
      ServiceDate: '2026-10-01',
      Amount: 42.5,
      Name: 'Dr--Smith--visit.pdf',
      Extension: 'pdf',
      type: 'application/pdf',
      Size: bytes.length,
    });
    // A retried create keeps one reimbursement, and answers the same message.
    const retried = (await create(member, createBody(id, 'Dr. Smith, visit.pdf'))).json();
    expect(retried.Data.Id).toBe(made.Id);
    expect(retried.MsgText).toBe('Your reimbursement request has been submitted with its file.');
    expect((await list(member)).filter((r) => r.Id === made.Id)).toHaveLength(1);

    const download = await json(member, 'GET', `/api/reimbursements/download/${made.Id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toContain('application/pdf');
    expect(Buffer.compare(download.rawPayload, bytes)).toBe(0);
    // The upload is spent: its chunks and its row are gone.
    expect((await json(member, 'GET', `/api/reimbursements/uploads/${id}`)).statusCode).toBe(404);
  });

  it("keeps each member's uploads and reimbursements to that member (404), and SuperUser sees them acting for the member", async () => {
    const id = await upload(member, 'mine.png', await fixtures.png());
    expect((await json(other, 'GET', `/api/reimbursements/uploads/${id}`)).statusCode).toBe(404);
    expect((await create(other, createBody(id, 'mine.png'))).statusCode).toBe(404);
    const made = (await create(member, createBody(id, 'mine.png'))).json().Data;
    expect((await json(other, 'GET', `/api/reimbursements/download/${made.Id}`)).statusCode).toBe(404);
    expect((await list(other)).map((r) => r.Id)).not.toContain(made.Id);
    const memberId = (await env.server.database.sql.query<{ member_id: number }>('SELECT member_id FROM reimbursements WHERE id = $1', [made.Id]))[0]
      ?.member_id;
    const acting = await env.server.app.inject({
      method: 'GET',
      url: ReimbursementApi.list.path,
      headers: authHeaders(superUser, 'staff', { 'x-member-id': String(memberId) }),
    });
    expect((acting.json().Data as { Id: number }[]).map((r) => r.Id)).toContain(made.Id);
  });
});

describe('file names: shown as given (made clean), never part of the file key', () => {
  /** Uploads and creates one file under the name; answers the create. */
  const send = async (name: string, bytes: Buffer) => ({ uploadId: await upload(member, name, bytes), name });
  const made = async ({ uploadId, name }: { uploadId: string; name: string }) => create(member, createBody(uploadId, name));
  const download = (id: number) => json(member, 'GET', `/api/reimbursements/download/${id}`);
  /** The name a download is saved under (x-filename carries it percent-encoded where a header cannot hold it). */
  const savedAs = (res: { headers: Record<string, unknown> }) => decodeURIComponent(String(res.headers['x-filename']));

  it('keeps files whose names are long in UTF-8 (90 Chinese characters, 130 accented ones) on the local store, and downloads them by name', async () => {
    const memberId = await memberIdOf('reimb-member');
    const bytes = await pdf(3000);
    for (const name of [`${'陈'.repeat(90)}.pdf`, `${'é'.repeat(130)}.pdf`]) {
      const sent = await send(name, bytes);
      const res = await made(sent);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().Data.Name).toBe(name);
      expect((await list(member)).find((r) => r.Id === res.json().Data.Id)?.Name).toBe(name);
      const got = await download(res.json().Data.Id);
      expect(got.statusCode, got.body).toBe(200);
      expect(savedAs(got)).toBe(name);
      expect(Buffer.compare(got.rawPayload, bytes)).toBe(0);
      // The file's key is made of ids: reimbursements/<member>/<upload>/<id>.<extension>.
      const kept = await keptFor(memberId, sent.uploadId);
      expect(kept.map((f) => relative(join(filesDir, 'files', 'reimbursements', String(memberId), sent.uploadId), f))).toEqual([
        expect.stringMatching(/^[0-9a-f-]{36}\.pdf$/),
      ]);
    }
  });

  it('takes odd names (only an extension, a control character, a line break) and keeps them clean, not a 500', async () => {
    for (const [name, kept] of [
      ['.pdf', 'file.pdf'],
      ['a\u0001b.pdf', 'ab.pdf'],
      ['line\nbreak.pdf', 'line-break.pdf'],
    ] as const) {
      const started = await start(member, name, 100);
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json().Data.FileName).toBe(kept);
      const res = await made(await send(name, await pdf(2000)));
      expect(res.statusCode, `${JSON.stringify(name)}: ${res.body}`).toBe(200);
      expect(res.json().Data.Name).toBe(kept);
      const got = await download(res.json().Data.Id);
      expect(got.statusCode).toBe(200);
      expect(savedAs(got)).toBe(kept);
    }
  });

  it('takes a name over 200 characters cut to 200, its extension kept; refuses one over 1,000 with a worded 400 in the reader’s language', async () => {
    const long = `${'a'.repeat(210)}.pdf`;
    const started = await start(member, long, 100);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().Data.FileName).toBe(`${'a'.repeat(196)}.pdf`);
    const res = await made(await send(long, await pdf(2000)));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data.Name).toBe(`${'a'.repeat(196)}.pdf`);
    const tooLong = { FileName: `${'a'.repeat(1000)}.pdf`, Size: 100 };
    const english = await json(member, 'POST', ReimbursementApi.uploadStart.path, tooLong);
    expect(english.statusCode).toBe(400);
    expect(english.json().MsgText).toBe('body.FileName: must be at most 1000 characters');
    const spanish = await env.server.app.inject({
      method: 'POST',
      url: ReimbursementApi.uploadStart.path,
      headers: authHeaders(member, undefined, { cookie: 'cq.lang=es' }),
      payload: tooLong,
    });
    expect(spanish.statusCode).toBe(400);
    expect(spanish.json().MsgText).toBe('body.FileName: debe tener como máximo 1000 caracteres');
  });

  it("refuses an empty file with the spec's words, no field before them, in English and Spanish, and starts no upload", async () => {
    const english = await json(member, 'POST', ReimbursementApi.uploadStart.path, { FileName: 'blank.pdf', Size: 0 });
    expect(english.statusCode).toBe(400);
    expect(english.json().MsgText).toBe('Please upload a copy of your receipt or bill.');
    const spanish = await env.server.app.inject({
      method: 'POST',
      url: ReimbursementApi.uploadStart.path,
      headers: authHeaders(member, undefined, { cookie: 'cq.lang=es' }),
      payload: { FileName: 'blank.pdf', Size: 0 },
    });
    expect(spanish.statusCode).toBe(400);
    expect(spanish.json().MsgText).not.toContain('body.');
    expect(spanish.json().MsgText).not.toBe('Please upload a copy of your receipt or bill.');
  });

  it('still downloads a file kept before, under a key that holds its name', async () => {
    const memberId = await memberIdOf('reimb-member');
    const bytes = await pdf(2500);
    const sent = await send('before.pdf', bytes);
    const id = (await made(sent)).json().Data.Id as number;
    const oldKey = `reimbursements/${memberId}/${sent.uploadId}/${randomUUID()}/Old receipt.pdf`;
    await new LocalFileStore(join(filesDir, 'files')).put(oldKey, bytes, { contentType: 'application/pdf' });
    await env.server.database.sql.query("UPDATE reimbursements SET file_key = $2, name = 'Old receipt.pdf' WHERE id = $1", [id, oldKey]);
    const got = await download(id);
    expect(got.statusCode, got.body).toBe(200);
    expect(savedAs(got)).toBe('Old receipt.pdf');
    expect(Buffer.compare(got.rawPayload, bytes)).toBe(0);
  });
});

describe('the same create sent twice at once (a double click, a retry)', () => {
  const claimsOf = async (memberId: number) =>
    (await env.server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE member_id = $1', [memberId]))[0]?.n ?? 0;
  /** The metadata sidecars the local store keeps beside the files of an upload's reimbursement. */
  const metaFor = async (memberId: number, uploadId: string) => storedFiles(join(filesDir, 'files', '.meta', 'reimbursements', String(memberId), uploadId));

  for (const [what, sameBatch] of [
    ['with the same BatchId', true],
    ['with a BatchId each', false],
  ] as const) {
    it(`${what}: both answer the one reimbursement, whose file still downloads; one bill, one copy kept, no chunk left`, async () => {
      const memberId = await memberIdOf('reimb-member');
      const bytes = await pdf(6000);
      const id = await upload(member, 'twice.pdf', bytes);
      const batch = randomUUID();
      const [listed, claims] = [(await list(member)).length, await claimsOf(memberId)];
      const answers = await Promise.all([
        create(member, createBody(id, 'twice.pdf', {}, batch)),
        create(member, createBody(id, 'twice.pdf', {}, sameBatch ? batch : randomUUID())),
      ]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
      const [first, second] = answers.map((r) => r.json().Data.Id as number);
      expect(second).toBe(first);
      expect((await list(member)).length).toBe(listed + 1);
      expect(await claimsOf(memberId)).toBe(claims + 1);

      const download = await json(member, 'GET', `/api/reimbursements/download/${first}`);
      expect(download.statusCode, download.body).toBe(200);
      expect(Buffer.compare(download.rawPayload, bytes)).toBe(0);
      expect(await keptFor(memberId, id)).toHaveLength(1);
      expect(await metaFor(memberId, id)).toHaveLength(1);
      expect(await chunksOf(id)).toEqual([]);
    });
  }
});

describe('the rules: a clear 400 with the spec message, and nothing kept', () => {
  it('refuses a file type outside the list and a file over 1 GB when the upload starts', async () => {
    const exe = await start(member, 'setup.exe', 100);
    expect(exe.statusCode).toBe(400);
    expect(exe.json().MsgText).toBe(M.extension);
    const big = await start(member, 'huge.pdf', MAX_FILE_BYTES + 1);
    expect(big.statusCode).toBe(400);
    expect(big.json().MsgText).toBe(M.tooLarge);
  });

  it('refuses a future service date, a missing amount, and an unfinished upload', async () => {
    const before = (await list(member)).length;
    const id = await upload(member, 'r.pdf', await pdf(2000));
    const future = await create(member, createBody(id, 'r.pdf', { ServiceDate: '2999-01-01' }));
    expect(future.statusCode).toBe(400);
    expect(future.json().MsgText).toBe(M.futureDate);
    const missing = await create(member, createBody(id, 'r.pdf', { Amount: '' }));
    expect(missing.json().MsgText).toBe(M.dateAndAmount);
    const half = (await start(member, 'half.pdf', 5000)).json().Data.UploadId as string;
    await chunk(member, half, 0, (await pdf(5000)).subarray(0, 100));
    expect((await create(member, createBody(half, 'half.pdf'))).json().MsgText).toBe('The file has not finished uploading.');
    expect((await list(member)).length).toBe(before);
  });

  it('refuses a service date that is no calendar day and an amount over $100 million with a 400 naming the field, and changes nothing', async () => {
    const memberId = await memberIdOf('reimb-member');
    const before = (await list(member)).length;
    const id = await upload(member, 'bad-input.pdf', await pdf(2000));
    const feb31 = await create(member, createBody(id, 'bad-input.pdf', { ServiceDate: '2024-02-31' }));
    expect(feb31.statusCode, feb31.body).toBe(400);
    expect(feb31.json().MsgText).toBe('body.reimbursement.ServiceDate: is not a valid calendar date');
    for (const Amount of [1e20, '100000000.01']) {
      const huge = await create(member, createBody(id, 'bad-input.pdf', { Amount }));
      expect(huge.statusCode, huge.body).toBe(400);
      expect(huge.json().MsgText).toBe('body.reimbursement.Amount: is too large');
    }
    expect((await list(member)).length).toBe(before);
    expect(await keptFor(memberId, id)).toEqual([]);
    // The upload is untouched: the same file is kept once the input is right, up to the cap.
    const fixed = await create(member, createBody(id, 'bad-input.pdf', { Amount: 100_000_000 }));
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().Data.Amount).toBe(100_000_000);
  });

  it('refuses an amount with more than two decimals with a 400 instead of rounding it, and changes nothing', async () => {
    const memberId = await memberIdOf('reimb-member');
    const claims = async () =>
      (await env.server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE member_id = $1', [memberId]))[0]?.n ?? 0;
    const [listed, billed] = [(await list(member)).length, await claims()];
    const id = await upload(member, 'cents.pdf', await pdf(2000));
    for (const Amount of ['10.005', 10.005, '$1,000.999']) {
      const res = await create(member, createBody(id, 'cents.pdf', { Amount }));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().MsgText).toBe('body.reimbursement.Amount: must have at most 2 decimals');
    }
    const spanish = await env.server.app.inject({
      method: 'POST',
      url: ReimbursementApi.create.path,
      headers: authHeaders(member, undefined, { cookie: 'cq.lang=es' }),
      payload: createBody(id, 'cents.pdf', { Amount: '10.005' }),
    });
    expect(spanish.statusCode).toBe(400);
    expect(spanish.json().MsgText).toBe('body.reimbursement.Amount: debe tener como máximo 2 decimales');
    // Nothing was kept, billed or spent: the upload is still there, and the amount as typed goes through once it is cents.
    expect((await list(member)).length).toBe(listed);
    expect(await claims()).toBe(billed);
    expect(await keptFor(memberId, id)).toEqual([]);
    expect((await json(member, 'GET', `/api/reimbursements/uploads/${id}`)).statusCode).toBe(200);
    const fixed = await create(member, createBody(id, 'cents.pdf', { Amount: '10.01' }));
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().Data.Amount).toBe(10.01);
  });

  it('answers a download id beyond the database integer range with a 400, not a 500', async () => {
    for (const id of ['2147483648', '99999999999999999999']) {
      const res = await json(member, 'GET', `/api/reimbursements/download/${id}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().MsgText).toBe('params.id: is too large');
    }
  });

  it('refuses bytes that are not what the extension says', async () => {
    const before = (await list(member)).length;
    const id = await upload(member, 'receipt.pdf', await fixtures.png());
    const res = await create(member, createBody(id, 'receipt.pdf'));
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe("The content of 'receipt.pdf' is not a PDF document.");
    expect((await list(member)).length).toBe(before);
  });

  it('refuses the EICAR test virus, found by the sandbox scanner, and records the refusal', async () => {
    const before = (await list(member)).length;
    const id = await upload(member, 'infected.pdf', await pdf(4000, `\n% ${EICAR}\n`));
    const res = await create(member, createBody(id, 'infected.pdf'));
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe("'infected.pdf' was refused: the virus scanner found EICAR-Test-File.");
    expect((await list(member)).length).toBe(before);
    const audit = await env.server.database.sql.query<{ outcome: string }>(
      "SELECT outcome FROM audit_log WHERE action = 'reimbursement.create' AND entity_id = $1",
      [id],
    );
    expect(audit.map((a) => a.outcome)).toEqual(['refused']);
  });

  it("takes 10 files in one request, each answer counting the request's files, and refuses the 11th", async () => {
    const batch = randomUUID();
    const bytes = await fixtures.jpg();
    const claims = new Set<string>();
    const messages: string[] = [];
    for (let i = 0; i < 10; i++) {
      const id = await upload(member, `r${i}.jpg`, bytes);
      const res = await create(member, createBody(id, `r${i}.jpg`, {}, batch));
      expect(res.statusCode, res.body).toBe(200);
      claims.add(res.json().Data.ClaimNumber);
      messages.push(res.json().MsgText);
    }
    expect(messages.slice(0, 3)).toEqual([
      'Your reimbursement request has been submitted with its file.',
      'Your reimbursement request has been submitted with its 2 files.',
      'Your reimbursement request has been submitted with its 3 files.',
    ]);
    expect(messages[9]).toBe('Your reimbursement request has been submitted with its 10 files.');
    // The request is one bill for finance staff to review, whatever its number of files.
    expect(claims.size).toBe(1);
    const [number] = [...claims];
    expect(number).toMatch(/^RB\d{8}$/);
    const bill = await env.server.database.sql.query<{ billed_cents: string; claim_status_id: number; payee_name: string }>(
      'SELECT billed_cents::text, claim_status_id, payee_name FROM claims WHERE claim_number = $1',
      [number],
    );
    expect(bill).toEqual([{ billed_cents: '4250', claim_status_id: 1, payee_name: 'Member reimbursement' }]);
    const id = await upload(member, 'r10.jpg', bytes);
    const res = await create(member, createBody(id, 'r10.jpg', {}, batch));
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe(M.tooMany);
  });

  it('refuses a chunk sent as JSON (415)', async () => {
    const id = (await start(member, 'x.pdf', 10)).json().Data.UploadId as string;
    const res = await env.server.app.inject({
      method: 'PATCH',
      url: `/api/reimbursements/uploads/${id}?Offset=0`,
      headers: authHeaders(member),
      payload: { a: 1 },
    });
    expect(res.statusCode).toBe(415);
  });
});

describe("a request (BatchId) is one member's", () => {
  const sql = () => env.server.database.sql;
  const rowsIn = async (batch: string, memberId: number) =>
    (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM reimbursements WHERE batch_id = $1 AND member_id = $2', [batch, memberId]))[0]?.n ?? 0;
  const claimsOf = async (memberId: number) =>
    (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE member_id = $1', [memberId]))[0]?.n ?? 0;

  it("refuses member B's reuse of member A's BatchId with 409: no row, no bill, A's claim number not revealed; A's next file still joins A's bill", async () => {
    const [aId, bId] = [await memberIdOf('reimb-member'), await memberIdOf('reimb-other')];
    const png = await fixtures.png();
    const batch = randomUUID();
    const first = await create(member, createBody(await upload(member, 'a1.png', png), 'a1.png', {}, batch));
    expect(first.statusCode, first.body).toBe(200);
    const claimNumber = first.json().Data.ClaimNumber as string;

    const bUpload = await upload(other, 'b1.png', png);
    const [bListed, bClaims] = [(await list(other)).length, await claimsOf(bId)];
    const refused = await create(other, createBody(bUpload, 'b1.png', {}, batch));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().MsgText).toBe(BATCH_TAKEN_MESSAGE);
    expect(refused.body).not.toContain(claimNumber);
    expect(await rowsIn(batch, bId)).toBe(0);
    expect((await list(other)).length).toBe(bListed);
    expect(await claimsOf(bId)).toBe(bClaims);
    // Nothing changed for B: the upload is still there, and makes B's own bill in a request of B's own.
    expect((await json(other, 'GET', `/api/reimbursements/uploads/${bUpload}`)).statusCode).toBe(200);
    const own = await create(other, createBody(bUpload, 'b1.png'));
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().Data.ClaimNumber).not.toBe(claimNumber);

    // A's second file of the request joins A's bill.
    const second = await create(member, createBody(await upload(member, 'a2.png', png), 'a2.png', {}, batch));
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().Data.ClaimNumber).toBe(claimNumber);
    expect(await rowsIn(batch, aId)).toBe(2);
  });

  it('lets only one member have a new BatchId when two start it at once', async () => {
    const png = await fixtures.png();
    const batch = randomUUID();
    const [a, b] = [await upload(member, 'race-a.png', png), await upload(other, 'race-b.png', png)];
    const answers = await Promise.all([create(member, createBody(a, 'race-a.png', {}, batch)), create(other, createBody(b, 'race-b.png', {}, batch))]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const owners = await sql().query<{ member_id: number }>('SELECT DISTINCT member_id FROM reimbursements WHERE batch_id = $1', [batch]);
    expect(owners).toHaveLength(1);
  });
});

describe('a request sent again under its BatchId (the files that were not sent, retried)', () => {
  const sql = () => env.server.database.sql;
  const claimsOf = async (memberId: number) =>
    (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE member_id = $1', [memberId]))[0]?.n ?? 0;

  it("adds the retried file to the request and its bill: no second bill, the answer counting the request's files", async () => {
    const memberId = await memberIdOf('reimb-member');
    const batch = randomUUID();
    const [listed, billed] = [(await list(member)).length, await claimsOf(memberId)];
    // The first Send: one file goes through (the request's bill), the other is refused.
    const sent = await create(member, createBody(await upload(member, 'retry-1.pdf', await pdf(3000)), 'retry-1.pdf', {}, batch));
    expect(sent.statusCode, sent.body).toBe(200);
    const claimNumber = sent.json().Data.ClaimNumber as string;
    const refused = await create(member, createBody(await upload(member, 'retry-2.pdf', await fixtures.png()), 'retry-2.pdf', {}, batch));
    expect(refused.statusCode).toBe(400);
    expect(await claimsOf(memberId)).toBe(billed + 1);

    // The second Send: only the file that failed, under the same BatchId.
    const retried = await create(member, createBody(await upload(member, 'retry-2.pdf', await pdf(3000)), 'retry-2.pdf', {}, batch));
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().Data.ClaimNumber).toBe(claimNumber);
    expect(retried.json().MsgText).toBe('Your reimbursement request has been submitted with its 2 files.');
    expect(await claimsOf(memberId)).toBe(billed + 1);
    expect((await list(member)).length).toBe(listed + 2);
    const rows = await sql().query<{ claim_number: string }>('SELECT claim_number FROM reimbursements WHERE batch_id = $1 ORDER BY id', [batch]);
    expect(rows).toEqual([{ claim_number: claimNumber }, { claim_number: claimNumber }]);
  });

  it('refuses a file sent under the BatchId with another service date or amount (409), and changes nothing', async () => {
    const memberId = await memberIdOf('reimb-member');
    const batch = randomUUID();
    expect((await create(member, createBody(await upload(member, 'same-1.pdf', await pdf(3000)), 'same-1.pdf', {}, batch))).statusCode).toBe(200);
    const [listed, billed] = [(await list(member)).length, await claimsOf(memberId)];
    const id = await upload(member, 'same-2.pdf', await pdf(3000));
    for (const over of [{ Amount: '42.51' }, { ServiceDate: '2026-09-30' }]) {
      const res = await create(member, createBody(id, 'same-2.pdf', over, batch));
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().MsgText).toBe(BATCH_CHANGED_MESSAGE);
    }
    expect((await list(member)).length).toBe(listed);
    expect(await claimsOf(memberId)).toBe(billed);
    expect(await keptFor(memberId, id)).toEqual([]);
    // The upload is untouched: with the request's date and amount (42.5 is 42.50) it joins the request.
    const joined = await create(member, createBody(id, 'same-2.pdf', { Amount: 42.5 }, batch));
    expect(joined.statusCode, joined.body).toBe(200);
    expect(await claimsOf(memberId)).toBe(billed);
  });
});

describe('a create sent again with its IdempotencyKey (its answer lost on the network, the page sending the file again)', () => {
  const sql = () => env.server.database.sql;
  const rowsIn = async (batch: string) =>
    sql().query<{ id: number; upload_id: string; claim_number: string }>(
      'SELECT id, upload_id::text AS upload_id, claim_number FROM reimbursements WHERE batch_id = $1 ORDER BY id',
      [batch],
    );
  const claimsOf = async (memberId: number) =>
    (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE member_id = $1', [memberId]))[0]?.n ?? 0;
  const keyed = (UploadId: string, name: string, batch: ReturnType<typeof randomUUID>, IdempotencyKey: string, over: Record<string, unknown> = {}) => ({
    ...createBody(UploadId, name, over, batch),
    IdempotencyKey,
  });
  const newKey = () => `reimbursement-${randomUUID()}`;

  it('stores each file of a request once when each create is sent twice, the second time with the file uploaded again: one bill, one row per file, the first answers', async () => {
    const memberId = await memberIdOf('reimb-member');
    const batch = randomUUID();
    const billed = await claimsOf(memberId);
    const files = [
      { name: 'lost-1.pdf', bytes: await pdf(3000), key: newKey() },
      { name: 'lost-2.pdf', bytes: await pdf(3500), key: newKey() },
    ];
    const first: { Id: number; ClaimNumber: string }[] = [];
    for (const f of files) {
      const res = await create(member, keyed(await upload(member, f.name, f.bytes), f.name, batch, f.key));
      expect(res.statusCode, res.body).toBe(200);
      first.push(res.json().Data);
    }
    // Both answers were lost: the page uploads each file again (its first upload was used up) and sends its create again.
    for (const [i, f] of files.entries()) {
      const again = await upload(member, f.name, f.bytes);
      const res = await create(member, keyed(again, f.name, batch, f.key));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().Data).toEqual(first[i]);
      expect(res.json().MsgText).toBe('Your reimbursement request has been submitted with its 2 files.');
      // Nothing new is kept: the upload the repeat brought is dropped, its chunks with it.
      expect((await json(member, 'GET', `/api/reimbursements/uploads/${again}`)).statusCode).toBe(404);
      expect(await chunksOf(again)).toEqual([]);
      expect(await keptFor(memberId, again)).toEqual([]);
    }
    // The very same request sent again (same UploadId) answers it too.
    const rows = await rowsIn(batch);
    const same = await create(member, keyed(rows[0]?.upload_id ?? '', 'lost-1.pdf', batch, files[0]?.key ?? ''));
    expect(same.json().Data.Id).toBe(first[0]?.Id);
    expect(rows.map((r) => r.id)).toEqual(first.map((r) => r.Id));
    expect(new Set(rows.map((r) => r.claim_number))).toEqual(new Set([first[0]?.ClaimNumber]));
    expect(await claimsOf(memberId)).toBe(billed + 1);
  });

  it('stores the file once when the repeat arrives while the first create is still checking it', async () => {
    const memberId = await memberIdOf('reimb-member');
    const batch = randomUUID();
    const billed = await claimsOf(memberId);
    const bytes = await pdf(5000);
    const key = newKey();
    const [u1, u2] = [await upload(member, 'at-once.pdf', bytes), await upload(member, 'at-once.pdf', bytes)];
    const answers = await Promise.all([create(member, keyed(u1, 'at-once.pdf', batch, key)), create(member, keyed(u2, 'at-once.pdf', batch, key))]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers[1]?.json().Data.Id).toBe(answers[0]?.json().Data.Id);
    const rows = await rowsIn(batch);
    expect(rows).toHaveLength(1);
    expect(await claimsOf(memberId)).toBe(billed + 1);
    // One copy kept (the made row's), and neither upload left behind.
    const made = rows[0]?.upload_id ?? '';
    const spare = made === u1 ? u2 : u1;
    expect(await keptFor(memberId, made)).toHaveLength(1);
    expect(await keptFor(memberId, spare)).toEqual([]);
    expect([...(await chunksOf(u1)), ...(await chunksOf(u2))]).toEqual([]);
  });

  it('refuses the key with another body (409) and stores nothing: another amount, date, file, request, also with the same upload', async () => {
    const memberId = await memberIdOf('reimb-member');
    const batch = randomUUID();
    const key = newKey();
    const madeUpload = await upload(member, 'keyed.pdf', await pdf(3000));
    const made = await create(member, keyed(madeUpload, 'keyed.pdf', batch, key));
    expect(made.statusCode, made.body).toBe(200);
    const [listed, billed, audits] = [
      (await list(member)).length,
      await claimsOf(memberId),
      (await sql().query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'reimbursement.create'"))[0]?.n,
    ];
    const id = await upload(member, 'other.pdf', await pdf(3000));
    for (const body of [
      keyed(id, 'keyed.pdf', batch, key, { Amount: '42.51' }),
      keyed(id, 'keyed.pdf', batch, key, { ServiceDate: '2026-09-30' }),
      keyed(id, 'other.pdf', batch, key),
      keyed(id, 'keyed.pdf', randomUUID(), key),
      keyed(madeUpload, 'keyed.pdf', batch, key, { Amount: '1.00' }),
    ]) {
      const res = await create(member, body);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().MsgText).toBe(KEY_REUSED_MESSAGE);
    }
    const spanish = await env.server.app.inject({
      method: 'POST',
      url: ReimbursementApi.create.path,
      headers: authHeaders(member, undefined, { cookie: 'cq.lang=es' }),
      payload: keyed(id, 'other.pdf', batch, key),
    });
    expect(spanish.statusCode).toBe(409);
    expect(spanish.json().MsgText).toBe('Esta IdempotencyKey ya se usó para otro archivo u otra solicitud. No se guardó nada; envíelo con una clave nueva.');
    expect((await list(member)).length).toBe(listed);
    expect(await claimsOf(memberId)).toBe(billed);
    expect((await rowsIn(batch)).map((r) => r.id)).toEqual([made.json().Data.Id]);
    expect((await sql().query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'reimbursement.create'"))[0]?.n).toBe(audits);
    expect(await keptFor(memberId, id)).toEqual([]);
    // The refused create's upload is untouched: with a key of its own it joins the request.
    expect((await json(member, 'GET', `/api/reimbursements/uploads/${id}`)).statusCode).toBe(200);
    const joined = await create(member, keyed(id, 'other.pdf', batch, newKey()));
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().Data.ClaimNumber).toBe(made.json().Data.ClaimNumber);
  });

  it('claims no key with a refused create, keeps keys to each member, and refuses a malformed key with a 400', async () => {
    const key = newKey();
    const batch = randomUUID();
    // Bytes that are not what the extension says: refused, and the key stays free for the file sent right.
    const wrong = await create(member, keyed(await upload(member, 'claimless.pdf', await fixtures.png()), 'claimless.pdf', batch, key));
    expect(wrong.statusCode).toBe(400);
    const right = await create(member, keyed(await upload(member, 'claimless.pdf', await pdf(3000)), 'claimless.pdf', batch, key));
    expect(right.statusCode, right.body).toBe(200);
    // Another member's same key is that member's own create.
    const theirs = await create(other, keyed(await upload(other, 'claimless.pdf', await pdf(3000)), 'claimless.pdf', randomUUID(), key));
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().Data.Id).not.toBe(right.json().Data.Id);
    const id = await upload(member, 'bad-key.pdf', await pdf(3000));
    for (const IdempotencyKey of ['short', 'has spaces in it', 'x'.repeat(101), 'reimbursement/0a1b2c3d']) {
      const res = await create(member, keyed(id, 'bad-key.pdf', randomUUID(), IdempotencyKey));
      expect(res.statusCode, IdempotencyKey).toBe(400);
      expect(res.json().MsgText).toBe('body.IdempotencyKey: must be 8 to 100 letters, digits or - _ . :');
    }
    expect(await keptFor(await memberIdOf('reimb-member'), id)).toEqual([]);
  });
});

describe('uploads are audited: the start, the completion (not each chunk) and a cancel, in the transaction of their write', () => {
  const sql = () => env.server.database.sql;
  const auditsOf = async (uploadId: string) =>
    sql().query<{ action: string; member_id: number; actor_name: string }>(
      "SELECT action, member_id, actor_name FROM audit_log WHERE entity = 'reimbursement_upload' AND entity_id = $1 AND action LIKE 'reimbursement.upload.%' ORDER BY id",
      [uploadId],
    );

  it('audits the start and the completion of a two-chunk upload under the member, and a cancel', async () => {
    const memberId = await memberIdOf('reimb-member');
    const bytes = await pdf(CHUNK_BYTES + 1000);
    const id = (await start(member, 'audited.pdf', bytes.length)).json().Data.UploadId as string;
    const by = { member_id: memberId, actor_name: 'reimb-member' };
    expect(await auditsOf(id)).toEqual([{ action: 'reimbursement.upload.start', ...by }]);
    expect((await chunk(member, id, 0, bytes.subarray(0, CHUNK_BYTES))).statusCode).toBe(200);
    expect(await auditsOf(id)).toHaveLength(1);
    expect((await chunk(member, id, CHUNK_BYTES, bytes.subarray(CHUNK_BYTES))).statusCode).toBe(200);
    expect(await auditsOf(id)).toEqual([
      { action: 'reimbursement.upload.start', ...by },
      { action: 'reimbursement.upload.complete', ...by },
    ]);

    const dropped = (await start(member, 'dropped.pdf', 5000)).json().Data.UploadId as string;
    expect((await chunk(member, dropped, 0, (await pdf(5000)).subarray(0, 100))).statusCode).toBe(200);
    const cancel = await json(member, 'DELETE', `/api/reimbursements/uploads/${dropped}`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await auditsOf(dropped)).toEqual([
      { action: 'reimbursement.upload.start', ...by },
      { action: 'reimbursement.upload.cancel', ...by },
    ]);
    expect(await chunksOf(dropped)).toEqual([]);
    expect((await json(member, 'GET', `/api/reimbursements/uploads/${dropped}`)).statusCode).toBe(404);
  });

  it('changes nothing when the audit row cannot be written: no upload started, the offset not moved to the end, the upload not cancelled', async () => {
    const memberId = await memberIdOf('reimb-member');
    const bytes = await pdf(4000);
    const id = (await start(member, 'half-audited.pdf', bytes.length)).json().Data.UploadId as string;
    expect((await chunk(member, id, 0, bytes.subarray(0, 1000))).statusCode).toBe(200);
    const uploads = async () =>
      (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM reimbursement_uploads WHERE member_id = $1', [memberId]))[0]?.n ?? 0;
    const before = await uploads();
    await sql().exec(`
      CREATE FUNCTION reimbursement_test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused by the test'; END $$;
      CREATE TRIGGER reimbursement_test_refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW
        WHEN (NEW.action LIKE 'reimbursement.upload.%' AND NEW.member_id = ${memberId}) EXECUTE FUNCTION reimbursement_test_refuse_audit();`);
    try {
      expect((await start(member, 'never.pdf', 100)).statusCode).toBe(500);
      expect(await uploads()).toBe(before);
      expect((await chunk(member, id, 1000, bytes.subarray(1000))).statusCode).toBe(500);
      expect((await json(member, 'GET', `/api/reimbursements/uploads/${id}`)).json().Data.Offset).toBe(1000);
      expect((await json(member, 'DELETE', `/api/reimbursements/uploads/${id}`)).statusCode).toBe(500);
      expect((await json(member, 'GET', `/api/reimbursements/uploads/${id}`)).statusCode).toBe(200);
    } finally {
      await sql().exec('DROP TRIGGER reimbursement_test_refuse_audit ON audit_log; DROP FUNCTION reimbursement_test_refuse_audit();');
    }
    // Once audit rows can be written, the last chunk completes the upload (with its audit row).
    expect((await chunk(member, id, 1000, bytes.subarray(1000))).json().Data.Offset).toBe(bytes.length);
    expect((await auditsOf(id)).map((a) => a.action)).toEqual(['reimbursement.upload.start', 'reimbursement.upload.complete']);
  });
});

describe('a request that looks like one already sent (a second send of the same receipt)', () => {
  let dup: Session;
  let dupId: number;
  const sql = () => env.server.database.sql;
  const rowsOf = async () => (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM reimbursements WHERE member_id = $1', [dupId]))[0]?.n ?? 0;
  const billsOf = async () => (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE member_id = $1', [dupId]))[0]?.n ?? 0;
  const keysOf = async () =>
    (await sql().query<{ n: number }>('SELECT count(*)::int AS n FROM reimbursement_create_keys WHERE member_id = $1', [dupId]))[0]?.n ?? 0;
  const sentOn = /on [A-Z][a-z]{2} \d{1,2}, \d{4} \(bill RB\d{8}\)/;
  let first: { Id: number; ClaimNumber: string; CreatedAt: string };
  let receipt: Buffer;

  beforeAll(async () => {
    dup = await user('reimb-dup', Roles.CareGuardFinance, 'finance', true);
    dupId = await memberIdOf('reimb-dup');
    receipt = await pdf(3000, '\n% receipt of 2026-09-14\n');
    const res = await create(dup, firstTime(await upload(dup, 'receipt.pdf', receipt), 'receipt.pdf', { ServiceDate: '2026-09-14', Amount: '42.50' }));
    expect(res.statusCode, res.body).toBe(200);
    first = res.json().Data;
  });

  it('refuses the same date and amount under a new BatchId with 409 naming the earlier request, and stores nothing (the upload stays)', async () => {
    const [rows, bills, keys] = [await rowsOf(), await billsOf(), await keysOf()];
    const id = await upload(dup, 'receipt.pdf', receipt);
    const body = { ...firstTime(id, 'receipt.pdf', { ServiceDate: '2026-09-14', Amount: '42.5' }), IdempotencyKey: `dup-${randomUUID()}` };
    const res = await create(dup, body);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().MsgText).toMatch(/^You already sent a reimbursement request for \$42\.50 with service date Sep 14, 2026 on /);
    expect(res.json().MsgText).toMatch(sentOn);
    expect(res.json().MsgText).toContain(`(bill ${first.ClaimNumber}). This one was not sent.`);
    expect(res.json().Data).toEqual({
      Duplicate: true,
      Reason: 'dateAndAmount',
      Earlier: { Id: first.Id, ClaimNumber: first.ClaimNumber, ServiceDate: '2026-09-14', Amount: 42.5, CreatedAt: first.CreatedAt },
    });
    // Nothing stored: no row, no bill, no key claimed, no kept copy; the upload is still there for the resend.
    expect([await rowsOf(), await billsOf(), await keysOf()]).toEqual([rows, bills, keys]);
    expect(await keptFor(dupId, id)).toEqual([]);
    expect((await json(dup, 'GET', `/api/reimbursements/uploads/${id}`)).statusCode).toBe(200);

    // Sent anyway (the same create with AllowDuplicate): a new request and bill, which names the one it looked like.
    const anyway = await create(dup, { ...body, AllowDuplicate: true });
    expect(anyway.statusCode, anyway.body).toBe(200);
    expect(anyway.json().Data.ClaimNumber).not.toBe(first.ClaimNumber);
    expect([await rowsOf(), await billsOf()]).toEqual([rows + 1, bills + 1]);
    const kept = await sql().query<{ duplicate_of: number | null; content_sha256: string }>(
      'SELECT duplicate_of, content_sha256 FROM reimbursements WHERE id = $1',
      [anyway.json().Data.Id],
    );
    expect(kept[0]?.duplicate_of).toBe(first.Id);
    expect(kept[0]?.content_sha256).toMatch(/^[0-9a-f]{64}$/);
    // The key made it: the same create again answers it (a retry after a lost answer is no new warning).
    const again = await create(dup, { ...body, UploadId: await upload(dup, 'receipt.pdf', receipt) });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().Data.Id).toBe(anyway.json().Data.Id);
  });

  it('refuses the same file with another date and amount (409, the file named), found by its SHA-256 once copied; the copy goes, the upload stays', async () => {
    const rows = await rowsOf();
    const id = await upload(dup, 'renamed.pdf', receipt);
    const res = await create(dup, firstTime(id, 'renamed.pdf', { ServiceDate: '2026-08-01', Amount: '17.00' }));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().MsgText).toMatch(/^You already sent this file with a reimbursement request for \$42\.50 with service date Sep 14, 2026 on /);
    expect(res.json().Data.Reason).toBe('sameFile');
    expect(await rowsOf()).toBe(rows);
    expect(await keptFor(dupId, id)).toEqual([]);
    expect((await json(dup, 'GET', `/api/reimbursements/uploads/${id}`)).statusCode).toBe(200);
  });

  it('takes another amount or another date (other bytes) as a new request, and files joining their own request unasked', async () => {
    const amount = await create(dup, firstTime(await upload(dup, 'a.pdf', await pdf(3001)), 'a.pdf', { ServiceDate: '2026-09-14', Amount: '42.51' }));
    expect(amount.statusCode, amount.body).toBe(200);
    const batch = randomUUID();
    const date = await create(dup, firstTime(await upload(dup, 'b.pdf', await pdf(3002)), 'b.pdf', { ServiceDate: '2026-09-15', Amount: '42.50' }, batch));
    expect(date.statusCode, date.body).toBe(200);
    // The request's second file (the same BatchId) is no duplicate of its first, nor of the earlier request's file.
    const joined = await create(dup, firstTime(await upload(dup, 'c.pdf', receipt), 'c.pdf', { ServiceDate: '2026-09-15', Amount: '42.50' }, batch));
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().Data.ClaimNumber).toBe(date.json().Data.ClaimNumber);
    // Another member's requests never count.
    const theirs = await create(other, firstTime(await upload(other, 'receipt.pdf', receipt), 'receipt.pdf', { ServiceDate: '2026-09-14', Amount: '42.50' }));
    expect(theirs.statusCode, theirs.body).toBe(200);
  });

  it('says it in Spanish', async () => {
    const id = await upload(dup, 'receipt.pdf', receipt);
    const res = await env.server.app.inject({
      method: 'POST',
      url: ReimbursementApi.create.path,
      headers: authHeaders(dup, undefined, { cookie: 'cq.lang=es' }),
      payload: firstTime(id, 'receipt.pdf', { ServiceDate: '2026-09-14', Amount: '42.50' }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().MsgText).toMatch(
      /^Ya envió una solicitud de reembolso por \$42\.50 con fecha de servicio 14 sept 2026 el .+ \(factura RB\d{8}\)\. Esta no se envió\.$/,
    );
  });
});

describe("the list: each file with its request's BatchId and its bill's status and payment", () => {
  it('shows a new request Received and unpaid, its files under one BatchId and bill, then Paid with the amount and date once paid', async () => {
    const batch = randomUUID();
    const png = await fixtures.png();
    const one = await create(member, createBody(await upload(member, 'st-1.png', png), 'st-1.png', { Amount: '60.00' }, batch));
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().Data).toMatchObject({ BatchId: batch, ClaimStatusID: 1, ClaimStatus: 'Received', PaidAmount: null, PaidDate: null });
    await create(member, createBody(await upload(member, 'st-2.png', png), 'st-2.png', { Amount: '60.00' }, batch));
    const mine = () =>
      json(member, 'GET', ReimbursementApi.list.path).then((r) => (r.json().Data as Record<string, unknown>[]).filter((x) => x.BatchId === batch));
    const listed = await mine();
    expect(listed).toHaveLength(2);
    for (const r of listed)
      expect(r).toMatchObject({ ClaimNumber: one.json().Data.ClaimNumber, ClaimStatusID: 1, ClaimStatus: 'Received', PaidAmount: null, PaidDate: null });
    await env.server.database.sql.query("UPDATE claims SET claim_status_id = 8, paid_cents = 5500, paid_date = '2026-11-15' WHERE claim_number = $1", [
      one.json().Data.ClaimNumber,
    ]);
    for (const r of await mine()) expect(r).toMatchObject({ ClaimStatusID: 8, ClaimStatus: 'Paid', PaidAmount: 55, PaidDate: '2026-11-15' });
    await env.server.database.sql.query('UPDATE claims SET claim_status_id = 5, paid_cents = NULL, paid_date = NULL WHERE claim_number = $1', [
      one.json().Data.ClaimNumber,
    ]);
    for (const r of await mine()) expect(r).toMatchObject({ ClaimStatusID: 5, ClaimStatus: 'Denied', PaidAmount: null });
  });
});

describe("a bill's receipts (listByClaim): the files of the request the bill was made from, the member's own only", () => {
  const byClaim = (s: Session, claimId: number, headers: Record<string, string> = authHeaders(s)) =>
    env.server.app.inject({ method: 'GET', url: `/api/reimbursements/listByClaim/${claimId}`, headers });
  const claimOf = async (id: number) =>
    (await env.server.database.sql.query<{ claim_id: number }>('SELECT claim_id FROM reimbursements WHERE id = $1', [id]))[0]?.claim_id ?? 0;
  const ids = (res: { json(): { Data: { Id: number }[] } }) => res.json().Data.map((r) => r.Id);

  it("answers the bill's files in the order sent, nothing of the member's other bill, nothing to another member; audited", async () => {
    const batch = randomUUID();
    const receipt = await pdf(3000, `receipt of ${batch}`);
    const png = await fixtures.png();
    const send = async (s: Session, name: string, bytes: Buffer, Amount: string, BatchId = randomUUID()) =>
      (await create(s, createBody(await upload(s, name, bytes), name, { Amount }, BatchId))).json().Data as { Id: number; ClaimNumber: string };
    const first = await send(member, 'bill-1.pdf', receipt, '31.00', batch);
    const second = await send(member, 'bill-2.png', png, '31.00', batch);
    const elsewhere = await send(member, 'bill-3.png', png, '32.00');
    const others = await send(other, 'bill-4.png', png, '31.00');
    const bill = await claimOf(first.Id);
    expect(bill).toBeGreaterThan(0);
    expect(await claimOf(second.Id)).toBe(bill);

    const mine = await byClaim(member, bill);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(ids(mine)).toEqual([first.Id, second.Id]);
    expect(mine.json().Data[0]).toMatchObject({
      Name: 'bill-1.pdf',
      Extension: 'pdf',
      type: 'application/pdf',
      Size: receipt.length,
      ServiceDate: '2026-10-01',
      Amount: 31,
      ClaimNumber: first.ClaimNumber,
      ClaimStatus: 'Received',
    });
    // Each file downloads by the Id the list gives, byte for byte.
    const download = await json(member, 'GET', `/api/reimbursements/download/${first.Id}`);
    expect(Buffer.compare(download.rawPayload, receipt)).toBe(0);
    // The member's other bill has its own file only; another member's bill, and a bill of no request, list nothing.
    expect(ids(await byClaim(member, await claimOf(elsewhere.Id)))).toEqual([elsewhere.Id]);
    expect(ids(await byClaim(member, await claimOf(others.Id)))).toEqual([]);
    const theirs = await byClaim(other, bill);
    expect(theirs.statusCode).toBe(200);
    expect(ids(theirs)).toEqual([]);
    expect(ids(await byClaim(member, 2_000_000_000))).toEqual([]);

    // SuperUser sees the files acting for the member, and is told to choose one when acting for nobody.
    const memberId = await memberIdOf('reimb-member');
    expect(ids(await byClaim(superUser, bill, authHeaders(superUser, 'staff', { 'x-member-id': String(memberId) })))).toEqual([first.Id, second.Id]);
    const nobody = await byClaim(superUser, bill, authHeaders(superUser, 'staff'));
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().MsgText).toBe('Your account has no reimbursements of its own. Choose a member to act for first.');
    // Not an id: a 400, not a 500.
    expect((await json(member, 'GET', '/api/reimbursements/listByClaim/abc')).statusCode).toBe(400);

    // Each read is audited under the member, naming the bill.
    await env.server.flushAudit();
    const audited = await env.server.database.sql.query<{ actor_name: string; entity: string; detail: unknown }>(
      "SELECT actor_name, entity, detail FROM audit_log WHERE action = 'reimbursement.listByClaim' AND entity_id = $1 AND member_id = $2 ORDER BY id",
      [String(bill), memberId],
    );
    expect(audited.map((r) => r.actor_name)).toEqual(['reimb-member', 'reimb-super']);
    expect(audited[0]).toMatchObject({ entity: 'claim', detail: { count: 2 } });
  });
});

describe("messages in the user's language", () => {
  const es = { cookie: 'cq.lang=es' };
  const spanish = (s: Session, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    env.server.app.inject({ method, url, headers: authHeaders(s, undefined, es), ...(payload === undefined ? {} : { payload: payload as object }) });
  const spanishChunk = (s: Session, id: string, offset: number, bytes: Buffer) =>
    env.server.app.inject({
      method: 'PATCH',
      url: `/api/reimbursements/uploads/${id}?Offset=${offset}`,
      headers: { ...authHeaders(s, undefined, es), 'content-type': 'application/octet-stream' },
      payload: bytes,
    });

  it('answers a Spanish request with the spec rules, the upload offset and the refused file in Spanish', async () => {
    const none = await spanish(superUser, 'GET', ReimbursementApi.list.path);
    expect(none.statusCode).toBe(400);
    expect(none.json().MsgText).toBe('Su cuenta no tiene reembolsos propios. Primero elija el miembro en cuyo nombre actuar.');
    const exe = await spanish(member, 'POST', ReimbursementApi.uploadStart.path, { FileName: 'setup.exe', Size: 10 });
    expect(exe.statusCode).toBe(400);
    expect(exe.json().MsgText).toBe('Use una extensión de archivo válida: pdf, gif, jpeg, jpg, png, doc, docx, xls, xlsx');

    const bytes = await pdf(4000);
    const id = (await start(member, 'es.pdf', bytes.length)).json().Data.UploadId as string;
    expect((await chunk(member, id, 0, bytes.subarray(0, 1000))).statusCode).toBe(200);
    const stale = await spanishChunk(member, id, 0, bytes.subarray(0, 10));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().MsgText).toBe('El envío está en el byte 1000; envíe el siguiente fragmento desde ahí.');
    const tooMuch = await spanishChunk(member, id, 1000, Buffer.alloc(3001));
    expect(tooMuch.statusCode).toBe(413);
    expect(tooMuch.json().MsgText).toBe('Aquí un fragmento puede contener como máximo 3000 bytes.');
    const unfinished = await spanish(member, 'POST', ReimbursementApi.create.path, createBody(id, 'es.pdf'));
    expect(unfinished.json().MsgText).toBe('El archivo aún no ha terminado de enviarse.');

    const infected = await upload(member, 'infected-es.pdf', await pdf(4000, `\n% ${EICAR}\n`));
    const refused = await spanish(member, 'POST', ReimbursementApi.create.path, createBody(infected, 'infected-es.pdf'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().MsgText).toBe("Se rechazó 'infected-es.pdf': el analizador de virus encontró EICAR-Test-File.");
  });

  it('says in Spanish that the request is submitted, counting its files', async () => {
    const batch = randomUUID();
    const png = await fixtures.png();
    const first = await spanish(member, 'POST', ReimbursementApi.create.path, createBody(await upload(member, 'es-1.png', png), 'es-1.png', {}, batch));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().MsgText).toBe('Su solicitud de reembolso se ha enviado con su archivo.');
    const second = await spanish(member, 'POST', ReimbursementApi.create.path, createBody(await upload(member, 'es-2.png', png), 'es-2.png', {}, batch));
    expect(second.json().MsgText).toBe('Su solicitud de reembolso se ha enviado con sus 2 archivos.');
  });

  it("refuses another member's BatchId in Spanish", async () => {
    const batch = randomUUID();
    const png = await fixtures.png();
    expect((await create(other, createBody(await upload(other, 'mine-es.png', png), 'mine-es.png', {}, batch))).statusCode).toBe(200);
    const taken = await spanish(member, 'POST', ReimbursementApi.create.path, createBody(await upload(member, 'es.png', png), 'es.png', {}, batch));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().MsgText).toBe('Esta solicitud pertenece a otro miembro. Inicie una nueva solicitud de reembolso.');
  });
});

describe('a stale attempt at a chunk (the first try still open when the retry went through, on this process or another)', () => {
  const sql = () => env.server.database.sql;
  /** The store the server writes to (a local one in the test's folder). */
  const store = () => new LocalFileStore(join(filesDir, 'files'));
  /** A route's context for calling receiveChunk beside the server: its database and file store, no audit (no chunk here completes a file). */
  const beside = () =>
    ({ database: env.server.database, services: { files: store() }, audit: async () => {} }) as unknown as Parameters<typeof receiveChunk>[0];
  /** Waits until the store is writing a temporary file of at least `bytes` (the stale attempt's put is under way). */
  async function writing(bytes: number): Promise<void> {
    const tmp = join(filesDir, 'files', '.tmp');
    for (let i = 0; i < 500; i++) {
      const names = await readdir(tmp).catch(() => [] as string[]);
      const sizes = await Promise.all(
        names.map((n) =>
          stat(join(tmp, n)).then(
            (s) => s.size,
            () => 0,
          ),
        ),
      );
      if (sizes.some((s) => s >= bytes)) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the stale attempt never started writing');
  }
  /** A two-chunk PDF whose second chunk is told apart from its first, the first chunk sent; its upload id and the member's. */
  async function halfSent(name: string) {
    const memberId = await memberIdOf('reimb-member');
    const bytes = await pdf(CHUNK_BYTES + 5000);
    bytes.fill(0x42, CHUNK_BYTES);
    const id = (await start(member, name, bytes.length)).json().Data.UploadId as string;
    expect((await chunk(member, id, 0, bytes.subarray(0, CHUNK_BYTES))).statusCode).toBe(200);
    return { memberId, bytes, id };
  }
  /** The stale first attempt at the second chunk: 1,000 bytes sent, then nothing (the connection hangs). */
  async function staleAttempt(memberId: number, id: string, bytes: Buffer) {
    const body = new PassThrough();
    body.write(bytes.subarray(CHUNK_BYTES, CHUNK_BYTES + 1000));
    const settled = receiveChunk(beside(), await loadUpload(sql(), id, memberId), CHUNK_BYTES, body, memberId).then(
      (status) => ({ status, error: null }),
      (error: unknown) => ({ status: null, error }),
    );
    await writing(1000);
    return { body, settled };
  }

  it("keeps the retry's chunk when the first attempt's connection fails afterwards: the file is kept whole, its declared size", async () => {
    const { memberId, bytes, id } = await halfSent('stale-fails.pdf');
    const stale = await staleAttempt(memberId, id, bytes);
    const retry = await chunk(member, id, CHUNK_BYTES, bytes.subarray(CHUNK_BYTES));
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().Data.Offset).toBe(bytes.length);
    // The first attempt's connection drops (Node's "aborted" of a request whose client went away).
    stale.body.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    const { error } = await stale.settled;

    const made = await create(member, createBody(id, 'stale-fails.pdf'));
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().Data.Size).toBe(bytes.length);
    const download = await json(member, 'GET', `/api/reimbursements/download/${made.json().Data.Id}`);
    expect(Buffer.compare(download.rawPayload, bytes)).toBe(0);
    expect(await chunksOf(id)).toEqual([]);
    // The sender's abort is answered as a refusal (a 4xx, not an unhandled error in the log).
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe('The chunk did not arrive whole.');
  });

  it("refuses a first attempt that ends short after the retry stored the chunk (409) and leaves the retry's chunk as it was", async () => {
    const { memberId, bytes, id } = await halfSent('stale-short.pdf');
    const stale = await staleAttempt(memberId, id, bytes);
    expect((await chunk(member, id, CHUNK_BYTES, bytes.subarray(CHUNK_BYTES))).statusCode).toBe(200);
    stale.body.end();
    const { error } = await stale.settled;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).message).toBe('Another request sent this chunk first.');
    // Two chunks, the ones the upload moved with: nothing of the stale attempt is left.
    expect((await chunksOf(id)).length).toBe(2);

    const made = await create(member, createBody(id, 'stale-short.pdf'));
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().Data.Size).toBe(bytes.length);
    const download = await json(member, 'GET', `/api/reimbursements/download/${made.json().Data.Id}`);
    expect(Buffer.compare(download.rawPayload, bytes)).toBe(0);
  });

  it('refuses to keep a file whose chunks do not add up to its size (a chunk lost from the store) with a 400 naming it, and drops the upload', async () => {
    const memberId = await memberIdOf('reimb-member');
    /** A finished two-chunk upload whose second chunk the store lost. */
    const holed = async (name: string) => {
      const id = await upload(member, name, await pdf(CHUNK_BYTES + 5000));
      const files = store();
      const keys: string[] = [];
      for await (const entry of files.list(`reimbursements/uploads/${id}/`)) keys.push(entry.key);
      expect(keys).toHaveLength(2);
      await files.delete(keys[1] as string);
      return id;
    };
    const id = await holed('holed.pdf');
    const listed = (await list(member)).length;
    const res = await create(member, createBody(id, 'holed.pdf'));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().MsgText).toBe("'holed.pdf' did not arrive whole. Send the file again.");
    expect((await list(member)).length).toBe(listed);
    expect(await keptFor(memberId, id)).toEqual([]);
    expect((await json(member, 'GET', `/api/reimbursements/uploads/${id}`)).statusCode).toBe(404);
    expect(await chunksOf(id)).toEqual([]);
    const spanish = await env.server.app.inject({
      method: 'POST',
      url: ReimbursementApi.create.path,
      headers: authHeaders(member, undefined, { cookie: 'cq.lang=es' }),
      payload: createBody(await holed('holed.pdf'), 'holed.pdf'),
    });
    expect(spanish.statusCode, spanish.body).toBe(400);
    expect(spanish.json().MsgText).toBe("'holed.pdf' no llegó completo. Envíe el archivo de nuevo.");
  });

  it('still keeps an upload started before chunks were recorded: its chunks under one key per offset, read as listed', async () => {
    const memberId = await memberIdOf('reimb-member');
    const bytes = await pdf(CHUNK_BYTES + 5000);
    bytes.fill(0x43, CHUNK_BYTES);
    const id = (await start(member, 'before.pdf', bytes.length)).json().Data.UploadId as string;
    await sql().query('UPDATE reimbursement_uploads SET chunks = NULL WHERE id = $1', [id]);
    // One chunk as the version before stored it, the next through this one (an upload that went on across a deploy).
    await store().put(legacyChunkKey(id, 0), bytes.subarray(0, CHUNK_BYTES), { contentType: 'application/octet-stream' });
    await sql().query('UPDATE reimbursement_uploads SET received = $2 WHERE id = $1', [id, CHUNK_BYTES]);
    expect((await chunk(member, id, CHUNK_BYTES, bytes.subarray(CHUNK_BYTES))).statusCode).toBe(200);
    const made = await create(member, createBody(id, 'before.pdf'));
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().Data.Size).toBe(bytes.length);
    const download = await json(member, 'GET', `/api/reimbursements/download/${made.json().Data.Id}`);
    expect(Buffer.compare(download.rawPayload, bytes)).toBe(0);
    expect(await keptFor(memberId, id)).toHaveLength(1);
    expect(await chunksOf(id)).toEqual([]);
  });
});

describe('the daily prune of unfinished uploads', () => {
  const age = (id: string, interval: string) =>
    env.server.database.sql.query(`UPDATE reimbursement_uploads SET created_at = now() - $2::interval WHERE id = $1`, [id, interval]);
  /** The store the server writes to (a local one in the test's folder). */
  const store = () => new LocalFileStore(join(filesDir, 'files'));
  const rowOf = async (id: string) => (await env.server.database.sql.query<{ id: string }>('SELECT id FROM reimbursement_uploads WHERE id = $1', [id])).length;

  it('drops uploads left unfinished for a day, chunks and row, and keeps younger ones', async () => {
    const old = (await start(member, 'old.pdf', 3 * CHUNK_BYTES)).json().Data.UploadId as string;
    expect((await chunk(member, old, 0, await pdf(CHUNK_BYTES))).statusCode).toBe(200);
    const young = (await start(member, 'young.pdf', 3 * CHUNK_BYTES)).json().Data.UploadId as string;
    expect((await chunk(member, young, 0, await pdf(CHUNK_BYTES))).statusCode).toBe(200);
    await age(old, '25 hours');
    await age(young, '23 hours');
    expect(await pruneUploads(env.server.database.sql, store())).toBeGreaterThanOrEqual(1);
    expect(await rowOf(old)).toBe(0);
    expect(await chunksOf(old)).toEqual([]);
    expect(await rowOf(young)).toBe(1);
    expect((await chunksOf(young)).length).toBe(1);
    await json(member, 'DELETE', `/api/reimbursements/uploads/${young}`);
  });

  it('keeps the row of an upload whose chunks could not all be dropped, so the next run tries again (no chunks left unnamed)', async () => {
    const id = (await start(member, 'stuck.pdf', 3 * CHUNK_BYTES)).json().Data.UploadId as string;
    expect((await chunk(member, id, 0, await pdf(CHUNK_BYTES))).statusCode).toBe(200);
    await age(id, '2 days');
    const files = store();
    // The same store, whose deletes fail (unreachable for a moment).
    const failing = Object.assign(Object.create(files) as LocalFileStore, { delete: async () => Promise.reject(new Error('store unreachable')) });
    await expect(pruneUploads(env.server.database.sql, failing)).rejects.toThrow('store unreachable');
    expect(await rowOf(id)).toBe(1);
    expect(await pruneUploads(env.server.database.sql, files)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(id)).toBe(0);
    expect(await chunksOf(id)).toEqual([]);
  });
});

describe('chunks a failing file store kept after a cancel', () => {
  it('answers the cancel (it is done) and leaves the chunks to the daily prune, which drops chunks no row names once a day old', async () => {
    const id = (await start(member, 'left-behind.pdf', 3 * CHUNK_BYTES)).json().Data.UploadId as string;
    expect((await chunk(member, id, 0, await pdf(CHUNK_BYTES))).statusCode).toBe(200);
    const refuse = vi.spyOn(LocalFileStore.prototype, 'delete').mockRejectedValueOnce(new Error('store unreachable'));
    try {
      const cancel = await json(member, 'DELETE', `/api/reimbursements/uploads/${id}`);
      expect(cancel.statusCode, cancel.body).toBe(200);
    } finally {
      refuse.mockRestore();
    }
    expect((await json(member, 'GET', `/api/reimbursements/uploads/${id}`)).statusCode).toBe(404);
    expect(await chunksOf(id)).toHaveLength(1);
    const files = new LocalFileStore(join(filesDir, 'files'));
    // Written just now: kept (a day's grace).
    await pruneUploads(env.server.database.sql, files);
    expect(await chunksOf(id)).toHaveLength(1);
    // A day and a bit later: no row names them, so they go.
    await pruneUploads(env.server.database.sql, files, new Date(Date.now() + 25 * 3_600_000));
    expect(await chunksOf(id)).toEqual([]);
  });
});

describe("the daily prune of creates' IdempotencyKeys", () => {
  const sql = () => env.server.database.sql;
  const keysLeft = async (keys: string[]) =>
    (
      await sql().query<{ idempotency_key: string }>('SELECT idempotency_key FROM reimbursement_create_keys WHERE idempotency_key = ANY($1::text[])', [keys])
    ).map((r) => r.idempotency_key);

  it("deletes keys older than the kernel's window for its own, keeps younger ones and every reimbursement a key made", async () => {
    expect(CREATE_KEY_RETENTION_DAYS).toBe(30);
    const [oldKey, youngKey] = [`reimbursement-${randomUUID()}`, `reimbursement-${randomUUID()}`];
    const made: number[] = [];
    for (const key of [oldKey, youngKey]) {
      const res = await create(member, { ...createBody(await upload(member, 'keyed-prune.pdf', await pdf(3000)), 'keyed-prune.pdf'), IdempotencyKey: key });
      expect(res.statusCode, res.body).toBe(200);
      made.push(res.json().Data.Id);
    }
    await sql().query('UPDATE reimbursement_create_keys SET created_at = now() - make_interval(days => $2) WHERE idempotency_key = $1', [
      oldKey,
      CREATE_KEY_RETENTION_DAYS + 1,
    ]);
    await sql().query('UPDATE reimbursement_create_keys SET created_at = now() - make_interval(days => $2) WHERE idempotency_key = $1', [
      youngKey,
      CREATE_KEY_RETENTION_DAYS - 1,
    ]);
    await env.server.jobs.send(CREATE_KEY_PRUNE_JOB, {});
    await env.server.jobs.drain();
    expect(await keysLeft([oldKey, youngKey])).toEqual([youngKey]);
    expect((await list(member)).map((r) => r.Id)).toEqual(expect.arrayContaining(made));
  });

  it('is scheduled once a day', async () => {
    const rows = await sql().query<{ name: string; cron: string }>('SELECT name, cron FROM pgboss.schedule WHERE name = $1', [CREATE_KEY_PRUNE_JOB]);
    expect(rows).toEqual([{ name: CREATE_KEY_PRUNE_JOB, cron: CREATE_KEY_PRUNE_CRON }]);
  });
});
