import { formatIsoDayText, localeOf, Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DocumentsApi } from '../contract';

/** Documents and statements through the whole kernel guard, generated from ledger rows written for the test. */
let server: Awaited<ReturnType<typeof startTestServer>>;
let alice: Session;
let bob: Session;
let support: Session;
let aliceId: number;
let bobId: number;

const thisYear = new Date().getUTCFullYear();
const lastYear = thisYear - 1;

async function financeMember(userName: string): Promise<{ session: Session; memberId: number }> {
  const { memberId } = await makeUser(server, { userName, roles: [Roles.CareGuardFinance], brand: 'finance', member: true });
  if (memberId === null) throw new Error('no member');
  return { session: await signIn(server, userName, undefined, '10.0.0.1', 'finance'), memberId };
}

async function ledgerRow(memberId: number, day: string, type: number, cents: number, description: string) {
  await server.database.sql.query(
    `INSERT INTO ledger_transactions (member_id, source, status, date_created, company, description, transaction_type_id, amount_cents) VALUES ($1, 'ledger', 'Posted', $2, 'Test Co', $3, $4, $5)`,
    [memberId, day, description, type, cents],
  );
}

const post = (url: string, headers: Record<string, string>, payload: unknown) =>
  server.app.inject({ method: 'POST', url, headers, payload: payload as object });
const get = (url: string, headers: Record<string, string>) => server.app.inject({ method: 'GET', url, headers });
const pdfText = async (raw: Buffer) => (await extractText(await getDocumentProxy(new Uint8Array(raw)), { mergePages: true })).text;

/**
 * What is wrong with a PDF's cross-reference table, read strictly (lenient readers such as pdf.js rebuild a broken
 * table without a word): startxref must point at 'xref', and each in-use entry at its 'N G obj'.
 */
function xrefProblems(raw: Buffer): string[] {
  const text = raw.toString('latin1');
  const problems: string[] = [];
  const start = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text);
  if (!start) return ['no startxref at the end'];
  const at = Number(start[1]);
  if (!text.startsWith('xref', at)) return [`startxref ${at} points at ${JSON.stringify(text.slice(at, at + 12))}`];
  const lines = text.slice(at).split(/\r?\n/);
  const [first, count] = (lines[1] ?? '').trim().split(/\s+/).map(Number) as [number, number];
  if (!(count > 1)) problems.push(`the xref table has no objects: ${JSON.stringify(lines[1])}`);
  for (let i = 0; i < count; i++) {
    const [offset, generation, kind] = (lines[2 + i] ?? '').trim().split(/\s+/);
    if (kind !== 'n') continue;
    const object = `${first + i} ${Number(generation)} obj`;
    if (!text.startsWith(object, Number(offset)))
      problems.push(`${object} at ${Number(offset)}: ${JSON.stringify(text.slice(Number(offset), Number(offset) + 12))}`);
  }
  return problems;
}

beforeAll(async () => {
  server = await startTestServer();
  const a = await financeMember('docs-alice');
  alice = a.session;
  aliceId = a.memberId;
  const b = await financeMember('docs-bob');
  bob = b.session;
  bobId = b.memberId;
  await makeUser(server, { userName: 'docs-support', roles: [Roles.CareSupport], brand: 'staff' });
  support = await signIn(server, 'docs-support');
  // Alice: $1,000.00 to start; in March of last year interest and an expense; in May the balance falls to zero
  // (a temporary depletion: June's deposit funds it again).
  await server.database.sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 100000)', [aliceId]);
  await ledgerRow(aliceId, `${lastYear}-03-01`, 3, 1234, 'Monthly interest');
  await ledgerRow(aliceId, `${lastYear}-03-15`, 1, 25000, 'Pharmacy copay');
  await ledgerRow(aliceId, `${lastYear}-05-10`, 1, 76234, 'Surgery');
  await ledgerRow(aliceId, `${lastYear}-06-01`, 2, 50000, 'Annual deposit');
  await server.database.sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 5000)', [bobId]);
  await ledgerRow(bobId, `${lastYear}-02-03`, 1, 5000, 'Hearing aid');
});
afterAll(() => server?.close());

describe('documents', () => {
  it('answers 401 anonymous, 403 to a role outside SuperUser and CareGuardFinance, 400 on bad input', async () => {
    expect((await post(DocumentsApi.getMemberDocuments.path, { host: 'finance.localhost' }, {})).statusCode).toBe(401);
    expect((await post(DocumentsApi.getMemberDocuments.path, authHeaders(support, 'staff'), {})).statusCode).toBe(403);
    expect((await post(DocumentsApi.getMemberDocuments.path, authHeaders(alice), { PageSize: 0 })).statusCode).toBe(400);
    expect((await post(DocumentsApi.getMemberDocuments.path, authHeaders(alice), { DocumentTypeIds: 'x' })).statusCode).toBe(400);
  });

  it('lists the generated 1099, annual accounting and depletion letter, and only the listed types', async () => {
    const res = await post(DocumentsApi.getMemberDocuments.path, authHeaders(alice), { PageSize: 20, PageNumber: 1, DocumentTypeIds: [] });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().Data as { TotalRows: number; Items: { DocumentTypeId: number; EffectiveDate: string }[] };
    expect(data.Items.map((i) => [i.DocumentTypeId, i.EffectiveDate]).sort()).toEqual(
      [
        [1, `${lastYear}-12-31`],
        [2, `${lastYear}-12-31`],
        [3, `${lastYear}-05-10`],
      ].sort(),
    );
    expect(data.TotalRows).toBe(3);
    const statementsAsked = await post(DocumentsApi.getMemberDocuments.path, authHeaders(alice), { DocumentTypeIds: [5] });
    expect(statementsAsked.json().Data).toEqual({ TotalRows: 0, Items: [] });
    const paged = await post(DocumentsApi.getMemberDocuments.path, authHeaders(alice), { PageSize: 2, PageNumber: 2 });
    expect(paged.json().Data.TotalRows).toBe(3);
    expect(paged.json().Data.Items).toHaveLength(1);
  });

  it('lists a permanent depletion for a balance that stays at zero', async () => {
    const res = await post(DocumentsApi.getMemberDocuments.path, authHeaders(bob), { DocumentTypeIds: [3, 4] });
    expect(res.json().Data.Items.map((i: { DocumentTypeId: number }) => i.DocumentTypeId)).toEqual([4]);
  });

  it("downloads a real 1099 with the year's interest, the same bytes every time", async () => {
    const list = await post(DocumentsApi.getMemberDocuments.path, authHeaders(alice), { DocumentTypeIds: [1] });
    const id = list.json().Data.Items[0].DocumentId as number;
    const first = await post(DocumentsApi.downloadDocument.path, authHeaders(alice), { DocumentId: id });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['x-filename']).toBe(`1099-INT-${lastYear}.pdf`);
    const text = await pdfText(first.rawPayload);
    expect(text).toContain('Box 1 Interest income');
    expect(text).toContain('$12.34');
    vi.useFakeTimers({ toFake: ['Date'] });
    // Two minutes later (within the session): the PDF service stamps a different time; the bytes must not change.
    vi.setSystemTime(new Date(Date.now() + 120_000));
    try {
      const again = await post(DocumentsApi.downloadDocument.path, authHeaders(alice), { DocumentId: id });
      expect(again.statusCode).toBe(200);
      expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('marks a 1099 CORRECTED once its Box 1 changed after it was furnished, and keeps the mark on every later download', async () => {
    const carol = await financeMember('docs-carol');
    await server.database.sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 10000)', [carol.memberId]);
    await ledgerRow(carol.memberId, `${lastYear}-04-01`, 3, 500, 'Monthly interest');
    const list = await post(DocumentsApi.getMemberDocuments.path, authHeaders(carol.session), { DocumentTypeIds: [1] });
    const id = list.json().Data.Items[0].DocumentId as number;
    const download = async () => {
      const res = await post(DocumentsApi.downloadDocument.path, authHeaders(carol.session), { DocumentId: id });
      expect(res.statusCode, res.body).toBe(200);
      return pdfText(res.rawPayload);
    };
    const original = await download();
    expect(original).toContain('$5.00');
    expect(original).not.toContain('CORRECTED');
    // Downloaded again with the same figure: still the original form.
    expect(await download()).not.toContain('CORRECTED');
    // A late interest row for that year changes Box 1: the form furnished now corrects the earlier one.
    await ledgerRow(carol.memberId, `${lastYear}-11-01`, 3, 250, 'Monthly interest');
    const corrected = await download();
    expect(corrected).toContain('CORRECTED');
    expect(corrected).toContain('This form corrects the one furnished earlier for this tax year.');
    expect(corrected).toContain('$7.50');
    // The same corrected figure downloaded again is still the corrected form.
    const again = await download();
    expect(again).toContain('CORRECTED');
    expect(again).toContain('$7.50');
  });

  it("signs a document with the member's brand wherever it is downloaded: SuperUser on the staff site gets the member's bytes", async () => {
    await makeUser(server, { userName: 'docs-super', roles: [Roles.SuperUser], brand: 'staff' });
    const superUser = await signIn(server, 'docs-super');
    const list = await post(DocumentsApi.getMemberDocuments.path, authHeaders(alice), { DocumentTypeIds: [1] });
    const id = list.json().Data.Items[0].DocumentId as number;
    const own = await post(DocumentsApi.downloadDocument.path, authHeaders(alice), { DocumentId: id });
    const staff = await post(DocumentsApi.downloadDocument.path, authHeaders(superUser, 'staff', { 'x-member-id': String(aliceId) }), { DocumentId: id });
    expect(staff.statusCode, staff.body).toBe(200);
    const text = await pdfText(staff.rawPayload);
    expect(text).toMatch(/Payer\s+CareGuard Finance/);
    expect(text).not.toContain('Portal Staff');
    expect(Buffer.compare(staff.rawPayload, own.rawPayload)).toBe(0);
  });

  it('writes each generated document, depletion letters included, as a well-formed PDF in every language: its xref right, its CreationDate a PDF date', async () => {
    for (const [session, type] of [
      [alice, 1],
      [alice, 2],
      [alice, 3],
      [bob, 4],
    ] as const) {
      for (const language of ['en', 'es']) {
        const headers = authHeaders(session, undefined, language === 'es' ? { cookie: 'cq.lang=es' } : {});
        const list = await post(DocumentsApi.getMemberDocuments.path, headers, { DocumentTypeIds: [type] });
        const item = list.json().Data.Items[0] as { DocumentId: number; EffectiveDate: string };
        const res = await post(DocumentsApi.downloadDocument.path, headers, { DocumentId: item.DocumentId });
        expect(res.statusCode, res.body).toBe(200);
        expect(xrefProblems(res.rawPayload), `type ${type} in ${language}`).toEqual([]);
        // The document's own day (its effective date), as a PDF date: D:YYYYMMDDHHmmSS.
        const created = /\((D:[^)]*)\)/.exec(res.rawPayload.toString('latin1'))?.[1];
        expect(created, `type ${type} in ${language}`).toBe(`D:${item.EffectiveDate.replaceAll('-', '')}000000Z`);
      }
    }
  });

  it("answers 404 for another member's document", async () => {
    const list = await post(DocumentsApi.getMemberDocuments.path, authHeaders(alice), {});
    const id = list.json().Data.Items[0].DocumentId as number;
    expect((await post(DocumentsApi.downloadDocument.path, authHeaders(bob), { DocumentId: id })).statusCode).toBe(404);
    expect((await post(DocumentsApi.getMemberDocuments.path, authHeaders(bob), { MemberId: aliceId })).statusCode).toBe(404);
  });
});

describe('statements', () => {
  it('answers the effective years and the monthly statements of a year', async () => {
    const years = await get(DocumentsApi.effectiveYears.path, authHeaders(alice));
    expect(years.statusCode, years.body).toBe(200);
    expect(years.json().Data[0]).toBe(thisYear);
    expect(years.json().Data).toContain(lastYear);
    const months = await get(`${DocumentsApi.monthlyStatements.path}?selectedYear=${lastYear}`, authHeaders(alice));
    expect(months.statusCode, months.body).toBe(200);
    const list = months.json().Data as { DocumentId: number; EffectiveMonth: string }[];
    expect(list.map((m) => m.EffectiveMonth)).toEqual(Array.from({ length: 10 }, (_, i) => `${lastYear}-${String(i + 3).padStart(2, '0')}`));
    const search = await post(DocumentsApi.statementSearch.path, authHeaders(alice), { Year: lastYear, PageSize: 5 });
    expect(search.json().Data.TotalRows).toBe(10);
    expect(search.json().Data.Items).toHaveLength(5);
    // A page past the last still says how many there are (the pager goes back from there).
    const past = await post(DocumentsApi.statementSearch.path, authHeaders(alice), { Year: lastYear, PageSize: 5, PageNumber: 3 });
    expect(past.json().Data).toEqual({ TotalRows: 10, Items: [] });
    expect((await get(`${DocumentsApi.monthlyStatements.path}?selectedYear=abc`, authHeaders(alice))).statusCode).toBe(400);
  });

  it('downloads a statement of the month: opening balance, every transaction, closing balance, brand and contacts', async () => {
    const months = await get(`${DocumentsApi.monthlyStatements.path}?selectedYear=${lastYear}`, authHeaders(alice));
    const march = (months.json().Data as { DocumentId: number; EffectiveMonth: string }[]).find((m) => m.EffectiveMonth === `${lastYear}-03`);
    const res = await get(`${DocumentsApi.downloadStatement.path}?documentId=${march?.DocumentId}`, authHeaders(alice));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      `March ${lastYear}`,
      'Opening balance',
      '$1,000.00',
      'Monthly interest',
      'Pharmacy copay',
      '$762.34',
      'Closing balance',
      'CareGuard Finance',
      '(800) 555-0140',
    ]) {
      expect(text).toContain(expected);
    }
    const again = await get(`${DocumentsApi.downloadStatement.path}?documentId=${march?.DocumentId}`, authHeaders(alice));
    expect(Buffer.compare(again.rawPayload, res.rawPayload)).toBe(0);
    expect((await get(`${DocumentsApi.downloadStatement.path}?documentId=${march?.DocumentId}`, authHeaders(bob))).statusCode).toBe(404);
    expect((await get(`${DocumentsApi.downloadStatement.path}?documentId=-1`, authHeaders(alice))).statusCode).toBe(400);
  });

  it('audits the reads with the member', async () => {
    const count = async () =>
      (
        await server.database.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action LIKE 'statements.%' AND member_id = $1", [
          aliceId,
        ])
      )[0]?.n ?? 0;
    await expect.poll(count, { timeout: 5000 }).toBeGreaterThan(0);
  });
});

describe("generated documents in the reader's language", () => {
  const es = (s: Session) => authHeaders(s, undefined, { cookie: 'cq.lang=es' });
  type Item = { DocumentId: number; DocumentTypeId: number; DocumentType: string; Title: string; FileName: string };
  const items = async (headers: Record<string, string>) =>
    (await post(DocumentsApi.getMemberDocuments.path, headers, { PageSize: 20, PageNumber: 1 })).json().Data.Items as Item[];
  const marchId = async () => {
    const months = await get(`${DocumentsApi.monthlyStatements.path}?selectedYear=${lastYear}`, authHeaders(alice));
    return (months.json().Data as { DocumentId: number; EffectiveMonth: string }[]).find((m) => m.EffectiveMonth === `${lastYear}-03`)?.DocumentId;
  };

  it('lists the kinds and titles in Spanish for a Spanish reader, with the same English file names', async () => {
    const spanish = await items(es(alice));
    const english = await items(authHeaders(alice));
    const annual = (list: Item[]) => list.find((i) => i.DocumentTypeId === 2);
    expect(annual(english)).toMatchObject({
      DocumentType: 'Annual Accounting',
      Title: `Annual Accounting ${lastYear}`,
      FileName: `annual-accounting-${lastYear}.pdf`,
    });
    expect(annual(spanish)).toMatchObject({
      DocumentType: 'Contabilidad anual',
      Title: `Contabilidad anual ${lastYear}`,
      FileName: `annual-accounting-${lastYear}.pdf`,
    });
    // A depletion letter's day as the reader's language writes one; its file name keeps the ISO day.
    const may10 = `${lastYear}-05-10`;
    expect(spanish.find((i) => i.DocumentTypeId === 3)).toMatchObject({
      Title: `Carta de agotamiento temporal ${formatIsoDayText(may10, 'medium', localeOf('es'))}`,
      FileName: `temporary-depletion-letter-${may10}.pdf`,
    });
    expect(english.find((i) => i.DocumentTypeId === 3)).toMatchObject({
      Title: `Temporary Depletion Letter ${formatIsoDayText(may10, 'medium', localeOf('en'))}`,
      FileName: `temporary-depletion-letter-${may10}.pdf`,
    });
    expect(spanish.find((i) => i.DocumentTypeId === 1)?.Title).toBe(`1099-INT ${lastYear}`);
  });

  it('writes a statement in Spanish: title, labels, month, period, row types and page footer; the same bytes every time', async () => {
    const id = await marchId();
    const url = `${DocumentsApi.downloadStatement.path}?documentId=${id}`;
    const res = await get(url, es(alice));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-filename']).toBe(`statement-${lastYear}-03.pdf`);
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      `Estado de cuenta de marzo de ${lastYear}`,
      'Período del estado de cuenta',
      // The period's days as Spanish writes a day.
      `marzo de ${lastYear} (del ${formatIsoDayText(`${lastYear}-03-01`, 'medium', localeOf('es'))} al ${formatIsoDayText(`${lastYear}-03-31`, 'medium', localeOf('es'))})`,
      'Número de miembro',
      'Saldo de apertura',
      '$1,000.00',
      'Transacciones',
      'Interés',
      'Gasto',
      'Pharmacy copay',
      'Saldo de cierre',
      '$762.34',
      '¿Tiene preguntas? Llame al (800) 555-0140',
      'Teléfono (800) 555-0140',
      'Página 1 de 1',
    ]) {
      expect(text).toContain(expected);
    }
    for (const english of ['Opening balance', 'March', 'Expense', 'Page 1 of', 'Questions?']) expect(text).not.toContain(english);
    const again = await get(url, es(alice));
    expect(Buffer.compare(again.rawPayload, res.rawPayload)).toBe(0);
    const inEnglish = await get(url, authHeaders(alice));
    expect(await pdfText(inEnglish.rawPayload)).toContain(`Statement March ${lastYear}`);
    expect(Buffer.compare(inEnglish.rawPayload, res.rawPayload)).not.toBe(0);
  });

  it('writes the 1099-INT and the depletion letter in Spanish, keeping the form and box as the IRS names them', async () => {
    const list = await items(es(alice));
    const download = async (type: number) => {
      const res = await post(DocumentsApi.downloadDocument.path, es(alice), { DocumentId: list.find((i) => i.DocumentTypeId === type)?.DocumentId });
      expect(res.statusCode, res.body).toBe(200);
      return pdfText(res.rawPayload);
    };
    const form = await download(1);
    for (const expected of [
      `Formulario 1099-INT: ingresos por intereses del año fiscal ${lastYear}.`,
      'Pagador',
      'Año fiscal',
      'Box 1 Ingresos por intereses',
      '$12.34',
      'Página 1 de 1',
    ]) {
      expect(form).toContain(expected);
    }
    // Words as one line: where the paragraph wraps depends on the typeface's widths.
    const letter = (await download(3)).replace(/\s+/g, ' ');
    for (const expected of [
      'Carta de agotamiento temporal',
      'Fecha de agotamiento',
      'Estimado/a',
      'Este agotamiento es temporal',
      'Página 1 de 1',
      // The day the balance reached zero, as Spanish writes a day, in the letter's text.
      `el 10 de mayo de ${lastYear}`,
    ]) {
      expect(letter).toContain(expected);
    }
    expect(letter).not.toContain('Dear');
  });
});
