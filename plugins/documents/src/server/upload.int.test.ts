import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Roles } from '@portal/core';
import { EICAR } from '@portal/sandbox';
import { LocalFileStore } from '@portal/server/kernel';
import { fixtures, storedFiles as storedFilesUnder } from '@portal/testing/files';
import { type SandboxTestEnv, sandboxPassThrough, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentsApi, MAX_UPLOAD_BYTES, UploadMessages } from '../contract';

/**
 * Staff add a PDF to a member's documents: streamed, content-checked and scanned by the sandbox scanner over HTTP. The
 * file store is a local one in a temporary folder (so "nothing was stored" is checked on disk), and the sandbox is
 * reached through a pass-through that can make its virus scanner fail.
 */
let env: SandboxTestEnv;
let filesDir: string;
let sandboxProxy: Awaited<ReturnType<typeof sandboxPassThrough>>;
/** While set, the scanner answers 503: a scanner that cannot answer. */
let scannerDown = false;
let superUser: Session;
let alice: Session;
let bob: Session;
let aliceId: number;

async function financeMember(userName: string) {
  const { memberId } = await makeUser(env.server, { userName, roles: [Roles.CareGuardFinance], brand: 'finance', member: true });
  return { session: await signIn(env.server, userName, undefined, '10.0.0.1', 'finance'), memberId: memberId as number };
}

const upload = (s: Session, bytes: Buffer, query: Record<string, string | number>, extra: Record<string, string> = {}) =>
  env.server.app.inject({
    method: 'POST',
    url: `${DocumentsApi.uploadDocument.path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
    headers: { ...authHeaders(s, undefined, extra), 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
const asAlice = () => ({ 'x-member-id': String(aliceId) });
const list = async (s: Session, extra: Record<string, string> = {}) =>
  (
    await env.server.app.inject({
      method: 'POST',
      url: DocumentsApi.getMemberDocuments.path,
      headers: authHeaders(s, undefined, extra),
      payload: { PageSize: 100, PageNumber: 1, DocumentTypeIds: [] },
    })
  ).json().Data.Items as { DocumentId: number; DocumentTypeId: number; FileName: string; Title: string; EffectiveDate: string }[];
const query = { DocumentTypeId: 3, EffectiveDate: '2026-06-30', FileName: 'depletion letter.pdf' };
/** Every file in the store, data and metadata (the temporary folder left out). */
const storedFiles = () => storedFilesUnder(join(filesDir, 'files'));

beforeAll(async () => {
  filesDir = await mkdtemp(join(tmpdir(), 'documents-upload-int-'));
  // The virus scanner through a pass-through that can make it fail.
  sandboxProxy = await sandboxPassThrough(
    () => env?.sandboxUrl,
    (req, _body, res) => {
      if (!scannerDown || !req.url?.startsWith('/scanner/scan')) return false;
      res.writeHead(503).end('the scanner is down');
      return true;
    },
  );
  env = await startSandboxTestEnv({ sandboxUrl: sandboxProxy.url, fileStore: { kind: 'local', dir: join(filesDir, 'files') } });
  const a = await financeMember('docup-alice');
  alice = a.session;
  aliceId = a.memberId;
  bob = (await financeMember('docup-bob')).session;
  await makeUser(env.server, { userName: 'docup-super', roles: [Roles.SuperUser], brand: 'staff' });
  superUser = await signIn(env.server, 'docup-super');
}, 240_000);
afterAll(async () => {
  await env?.close();
  await sandboxProxy?.close();
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
});

describe('staff add a document to a member', () => {
  it('SuperUser acting for the member adds a PDF; the member lists it and downloads the same bytes; another member cannot', async () => {
    const pdf = Buffer.concat([await fixtures.pdf(), Buffer.alloc(300_000, 0x20)]);
    const res = await upload(superUser, pdf, query, asAlice());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().MsgText).toBe(UploadMessages.uploaded);
    const item = res.json().Data;
    expect(item).toMatchObject({
      DocumentTypeId: 3,
      EffectiveDate: '2026-06-30',
      FileName: 'depletion letter.pdf',
      Title: 'Temporary Depletion Letter: depletion letter',
    });
    expect((await list(alice)).map((d) => d.DocumentId)).toContain(item.DocumentId);
    const download = await env.server.app.inject({
      method: 'POST',
      url: DocumentsApi.downloadDocument.path,
      headers: authHeaders(alice),
      payload: { DocumentId: item.DocumentId },
    });
    expect(download.statusCode).toBe(200);
    expect(Buffer.compare(download.rawPayload, pdf)).toBe(0);
    const other = await env.server.app.inject({
      method: 'POST',
      url: DocumentsApi.downloadDocument.path,
      headers: authHeaders(bob),
      payload: { DocumentId: item.DocumentId },
    });
    expect(other.statusCode).toBe(404);
    const audit = await env.server.database.sql.query<{ member_id: number }>(
      "SELECT member_id FROM audit_log WHERE action = 'documents.upload' AND outcome = 'success'",
    );
    expect(audit.map((a) => a.member_id)).toContain(aliceId);
  });

  it('refuses members themselves (403), SuperUser acting for nobody (400), a type that is not listed and a name that is not a PDF (400)', async () => {
    const pdf = await fixtures.pdf();
    expect((await upload(alice, pdf, query)).statusCode).toBe(403);
    expect((await upload(superUser, pdf, query)).statusCode).toBe(400);
    expect((await upload(superUser, pdf, { ...query, DocumentTypeId: 5 }, asAlice())).statusCode).toBe(400);
    expect((await upload(superUser, pdf, { ...query, FileName: 'letter.exe' }, asAlice())).statusCode).toBe(400);
  });

  it('refuses bytes that are not a PDF, the EICAR test virus and a file over 25 MB, and lists and keeps none of them', async () => {
    const before = (await list(alice)).length;
    const stored = (await storedFiles()).length;
    const png = await upload(superUser, await fixtures.png(), query, asAlice());
    expect(png.statusCode).toBe(400);
    expect(png.json().MsgText).toBe("The content of 'depletion letter.pdf' is not a PDF document.");
    const infected = await upload(superUser, Buffer.concat([await fixtures.pdf(), Buffer.from(`% ${EICAR}\n`, 'latin1')]), query, asAlice());
    expect(infected.statusCode).toBe(400);
    expect(infected.json().MsgText).toBe("'depletion letter.pdf' was refused: the virus scanner found EICAR-Test-File.");
    const big = await upload(superUser, Buffer.concat([await fixtures.pdf(), Buffer.alloc(MAX_UPLOAD_BYTES, 0x20)]), query, asAlice());
    expect(big.statusCode).toBe(413);
    expect(big.json().MsgText).toBe(UploadMessages.tooLarge);
    expect((await list(alice)).length).toBe(before);
    expect((await storedFiles()).length).toBe(stored);
  });
});

describe('file names: shown as given (made clean), never part of the file key', () => {
  const download = (s: Session, id: number) =>
    env.server.app.inject({ method: 'POST', url: DocumentsApi.downloadDocument.path, headers: authHeaders(s), payload: { DocumentId: id } });
  /** The name a download is saved under (x-filename carries it percent-encoded where a header cannot hold it). */
  const savedAs = (res: { headers: Record<string, unknown> }) => decodeURIComponent(String(res.headers['x-filename']));
  /** The keys of the member's uploaded documents, as the store holds them (the metadata sidecars left out). */
  const keysOf = async (memberId: number) =>
    (await storedFilesUnder(join(filesDir, 'files', 'documents', String(memberId)))).map((f) =>
      relative(join(filesDir, 'files', 'documents', String(memberId)), f),
    );

  it('takes names long in UTF-8 (90 Chinese characters, 130 accented ones), lists and downloads them by name, and keys the file by an id only', async () => {
    const pdf = await fixtures.pdf();
    for (const name of [`${'陈'.repeat(90)}.pdf`, `${'é'.repeat(130)}.pdf`]) {
      const res = await upload(superUser, pdf, { ...query, FileName: name }, asAlice());
      expect(res.statusCode, res.body).toBe(200);
      const item = res.json().Data;
      expect(item.FileName).toBe(name);
      expect((await list(alice)).find((d) => d.DocumentId === item.DocumentId)?.FileName).toBe(name);
      const got = await download(alice, item.DocumentId);
      expect(got.statusCode, got.body).toBe(200);
      expect(savedAs(got)).toBe(name);
      expect(Buffer.compare(got.rawPayload, pdf)).toBe(0);
    }
    const keys = await keysOf(aliceId);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f-]{36}\.pdf$/);
  });

  it('takes odd names (only an extension, a control character, a line break) and keeps them clean, not a 500', async () => {
    const pdf = await fixtures.pdf();
    for (const [name, kept] of [
      ['.pdf', 'file.pdf'],
      ['..pdf', 'file.pdf'],
      ['a\u0001b.pdf', 'ab.pdf'],
      ['line\nbreak.pdf', 'line break.pdf'],
      ['right\u202Eto left.pdf', 'rightto left.pdf'],
    ] as const) {
      const res = await upload(superUser, pdf, { ...query, FileName: name }, asAlice());
      expect(res.statusCode, `${JSON.stringify(name)}: ${res.body}`).toBe(200);
      const item = res.json().Data;
      expect(item.FileName).toBe(kept);
      expect(item.Title).toBe(`Temporary Depletion Letter: ${kept.replace(/\.pdf$/, '')}`);
      const got = await download(alice, item.DocumentId);
      expect(got.statusCode).toBe(200);
      expect(savedAs(got)).toBe(kept);
    }
  });

  it('takes a name over 200 characters cut to 200, its extension kept; refuses one over 1,000 with a worded 400 in the reader’s language', async () => {
    const pdf = await fixtures.pdf();
    const res = await upload(superUser, pdf, { ...query, FileName: `${'a'.repeat(260)}.pdf` }, asAlice());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data.FileName).toBe(`${'a'.repeat(196)}.pdf`);
    const tooLong = { ...query, FileName: `${'a'.repeat(1000)}.pdf` };
    const [stored, listed] = [(await storedFiles()).length, (await list(alice)).length];
    const english = await upload(superUser, pdf, tooLong, asAlice());
    expect(english.statusCode).toBe(400);
    expect(english.json().MsgText).toBe('query.FileName: must be at most 1000 characters');
    const spanish = await upload(superUser, pdf, tooLong, { ...asAlice(), cookie: 'cq.lang=es' });
    expect(spanish.statusCode).toBe(400);
    expect(spanish.json().MsgText).toBe('query.FileName: debe tener como máximo 1000 caracteres');
    expect([(await storedFiles()).length, (await list(alice)).length]).toEqual([stored, listed]);
  });

  it('still downloads a document stored before, under a key that holds its name', async () => {
    const pdf = Buffer.concat([await fixtures.pdf(), Buffer.from('% stored before\n')]);
    const id = randomUUID();
    const key = `documents/${aliceId}/${id}/old letter.pdf`;
    await new LocalFileStore(join(filesDir, 'files')).put(key, pdf, { contentType: 'application/pdf' });
    const row = await env.server.database.sql.query<{ document_id: number }>(
      `INSERT INTO member_documents (member_id, document_type_id, period_key, effective_date, source, file_key, file_name)
       VALUES ($1, 3, $2, '2026-06-30', 'uploaded', $3, 'old letter.pdf') RETURNING document_id`,
      [aliceId, `upload-${id}`, key],
    );
    const got = await download(alice, row[0]?.document_id as number);
    expect(got.statusCode, got.body).toBe(200);
    expect(savedAs(got)).toBe('old letter.pdf');
    expect(Buffer.compare(got.rawPayload, pdf)).toBe(0);
  });
});

describe('a refused or failed upload leaves no file behind', () => {
  it('refuses an EffectiveDate that is no calendar day (2024-02-31) with a 400 naming the field, and stores and lists nothing', async () => {
    const [listed, stored] = [(await list(alice)).length, (await storedFiles()).length];
    const res = await upload(superUser, await fixtures.pdf(), { ...query, EffectiveDate: '2024-02-31' }, asAlice());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().MsgText).toBe('query.EffectiveDate: is not a valid calendar date');
    expect((await list(alice)).length).toBe(listed);
    expect((await storedFiles()).length).toBe(stored);
  });

  it('removes the stored PDF and its metadata when the virus scanner cannot answer, and lists nothing', async () => {
    const [listed, stored] = [(await list(alice)).length, (await storedFiles()).length];
    scannerDown = true;
    try {
      const res = await upload(superUser, await fixtures.pdf(), query, asAlice());
      // A failure to retry, said plainly: not a 500, not "a virus".
      expect(res.statusCode).toBe(503);
      expect(res.json().MsgText).toBe('The virus scanner is not available right now. Please try again later.');
    } finally {
      scannerDown = false;
    }
    expect((await list(alice)).length).toBe(listed);
    expect((await storedFiles()).length).toBe(stored);
    // The scanner back, the same upload is kept: one file and its metadata.
    expect((await upload(superUser, await fixtures.pdf(), query, asAlice())).statusCode).toBe(200);
    expect((await storedFiles()).length).toBe(stored + 2);
  });
});

describe("messages in the user's language", () => {
  const es = { cookie: 'cq.lang=es' };

  it('answers a Spanish request with the added document, the refused file by name and the limits in Spanish', async () => {
    const pdf = await fixtures.pdf();
    const none = await upload(superUser, pdf, query, es);
    expect(none.statusCode).toBe(400);
    expect(none.json().MsgText).toBe('Su cuenta no tiene documentos propios. Primero elija el miembro en cuyo nombre actuar.');
    const added = await upload(superUser, pdf, { ...query, FileName: 'carta.pdf' }, { ...asAlice(), ...es });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().MsgText).toBe('El documento se ha añadido a los documentos del miembro.');
    expect(added.json().Data).toMatchObject({
      DocumentType: 'Carta de agotamiento temporal',
      Title: 'Carta de agotamiento temporal: carta',
      FileName: 'carta.pdf',
    });
    const infected = await upload(superUser, Buffer.concat([pdf, Buffer.from(`% ${EICAR}\n`, 'latin1')]), query, { ...asAlice(), ...es });
    expect(infected.statusCode).toBe(400);
    expect(infected.json().MsgText).toBe("Se rechazó 'depletion letter.pdf': el analizador de virus encontró EICAR-Test-File.");
    const big = await upload(superUser, Buffer.concat([pdf, Buffer.alloc(MAX_UPLOAD_BYTES, 0x20)]), query, { ...asAlice(), ...es });
    expect(big.statusCode).toBe(413);
    expect(big.json().MsgText).toBe('Un documento puede ocupar como máximo 25 MB.');
  });
});
