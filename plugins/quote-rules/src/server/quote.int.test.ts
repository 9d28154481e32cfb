import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { CREATE_KEY_REUSED } from '@portal/server';
import { authHeaders, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LifeCompany, type SavedQuote, STALE_COMPANY_MESSAGE, STALE_QUOTE_MESSAGE } from '../contract';
import plugin from './index';

let server: StartedServer;
type Who = { userId: string; headers: Record<string, string> };
const who: Record<'a' | 'b' | 'su' | 'finance' | 'cardBrand', Who> = {} as never;

async function login(userName: string, roles: string[], brand: string): Promise<Who> {
  const u = await makeUser(server, { userName, roles, brand, member: roles.includes(Roles.CareQuote) });
  const s = await mintSession(server, { ...u, name: userName, roles });
  return { userId: u.userId, headers: authHeaders(s, brand) };
}

type Env<T> = { Data: T; MsgText: string | null; HasError: boolean };
async function call<T = unknown>(as: Who | null, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const headers = as ? as.headers : { host: 'quote.localhost' };
  const res = await server.app.inject({ method, url, headers, payload: payload as object | undefined });
  return { status: res.statusCode, body: res.json() as Env<T> };
}

const benefit = (overrides: Record<string, unknown> = {}) => ({
  AnnuityType: 'PC',
  TermType: 'M',
  TermYears: 10,
  TermMonths: null,
  TermWeeks: null,
  COLA: null,
  StartDate: '2026-06-01',
  PremiumAmount: 20_000,
  PaymentAmount: 200,
  LifeCompanies: [],
  CompanyId: null,
  ...overrides,
});
const aSave = (overrides: Record<string, unknown> = {}) => ({
  Id: null,
  Case: { Annuitants: [{ Age: 60 }], IsQualified: false, PurchaseDate: '2026-01-15' },
  Quote: { QuoteType: 'Standard', Benefits: [benefit()], FeeAmount: null },
  CompanyIds: ['LC01'],
  ...overrides,
});
const count = async () => Number((await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM quote_quotes'))[0]?.n);

beforeAll(async () => {
  server = await startTestServer();
  who.a = await login('quote-a', [Roles.CareQuote], 'quote');
  who.b = await login('quote-b', [Roles.CareQuote], 'quote');
  who.su = await login('quote-su', [Roles.SuperUser], 'staff');
  who.finance = await login('quote-fin', [Roles.CareGuardFinance], 'quote');
  who.cardBrand = await login('quote-card', [Roles.CareQuote], 'card');
  let seed = 11;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  await plugin.seed?.({ sql: server.database.sql, scale: 1, members: [], random, log: () => {} });
});
afterAll(() => server?.close());

describe('access', () => {
  it('refuses anonymous callers (401), other roles (403) and brands without the plugin (404)', async () => {
    expect((await call(null, 'GET', '/api/quote/companies')).status).toBe(401);
    expect((await call(null, 'POST', '/api/quote/quotes', aSave())).status).toBe(401);
    expect((await call(who.finance, 'GET', '/api/quote/quotes')).status).toBe(403);
    expect((await call(who.cardBrand, 'GET', '/api/quote/companies')).status).toBe(404);
    expect((await call(who.a, 'POST', '/api/quote/companies/LC01', {})).status).toBe(403);
  });
});

describe('life companies', () => {
  it('lists a dozen seeded companies with varied rules', async () => {
    const r = await call<LifeCompany[]>(who.a, 'GET', '/api/quote/companies');
    expect(r.status).toBe(200);
    expect(r.body.Data).toHaveLength(12);
    expect(r.body.Data[0]?.Rules.MinPremiumAmount).toBe(50_000);
    expect(new Set(r.body.Data.map((c) => JSON.stringify(c.Rules))).size).toBe(12);
  });

  it('lets SuperUser change a rule set, audited', async () => {
    const list = await call<LifeCompany[]>(who.su, 'GET', '/api/quote/companies');
    const target = list.body.Data[11] as LifeCompany;
    const r = await call<LifeCompany>(who.su, 'POST', `/api/quote/companies/${target.Id}`, { ...target.Rules, MaxAge: 77, Version: target.Version });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.Data.Rules.MaxAge).toBe(77);
    const audit = await server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1', ['quote.company.rules.update']);
    expect(audit).toHaveLength(1);
    expect((await call(who.su, 'POST', '/api/quote/companies/NOPE', { ...target.Rules, Version: 1 })).status).toBe(404);
  });

  const companyRow = async (id: string) =>
    (await server.database.sql.query<{ rules: LifeCompany['Rules']; version: number }>('SELECT rules, version FROM quote_companies WHERE id = $1', [id]))[0];
  const companyAudits = async (id: string) =>
    (await server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1 AND entity_id = $2', ['quote.company.rules.update', id])).length;

  it('refuses a rule change made from a stale Version (409) and changes nothing; the current Version saves and goes up by one', async () => {
    const list = await call<LifeCompany[]>(who.su, 'GET', '/api/quote/companies');
    const read = list.body.Data[10] as LifeCompany;
    expect(read.Version).toBe(1);
    // Two SuperUsers opened the same rules; the first saves, and the second's save is from Version 1.
    const first = await call<LifeCompany>(who.su, 'POST', `/api/quote/companies/${read.Id}`, { ...read.Rules, MaxAge: 90, Version: read.Version });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.Data.Version).toBe(2);
    const before = await companyRow(read.Id);
    const audits = await companyAudits(read.Id);

    const second = await call(who.su, 'POST', `/api/quote/companies/${read.Id}`, { ...read.Rules, MaxAge: 70, Version: read.Version });
    expect(second.status).toBe(409);
    expect(second.body.MsgText).toBe(STALE_COMPANY_MESSAGE);
    expect(await companyRow(read.Id)).toEqual(before);
    expect(before?.rules.MaxAge).toBe(90);
    expect(await companyAudits(read.Id)).toBe(audits);

    const again = await call<LifeCompany>(who.su, 'POST', `/api/quote/companies/${read.Id}`, { ...read.Rules, MaxAge: 70, Version: 2 });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.Data).toMatchObject({ Id: read.Id, Version: 3, Rules: { MaxAge: 70 } });
    expect(await companyRow(read.Id)).toMatchObject({ version: 3, rules: { MaxAge: 70 } });
    const listed = (await call<LifeCompany[]>(who.su, 'GET', '/api/quote/companies')).body.Data.find((c) => c.Id === read.Id);
    expect(listed).toMatchObject({ Version: 3, Rules: { MaxAge: 70 } });
  });

  it('refuses a rule change without a Version (400) and changes nothing', async () => {
    const read = (await call<LifeCompany[]>(who.su, 'GET', '/api/quote/companies')).body.Data[9] as LifeCompany;
    const before = await companyRow(read.Id);
    for (const Version of [undefined, null, 0, 'x'])
      expect((await call(who.su, 'POST', `/api/quote/companies/${read.Id}`, { ...read.Rules, MaxAge: 60, Version })).status).toBe(400);
    expect(await companyRow(read.Id)).toEqual(before);
  });
});

describe('quotes', () => {
  it('saves a quote with the outcome the server computed and returns it on reopening', async () => {
    const r = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const company = r.body.Data.Outcome.companies[0];
    expect(company?.pass).toBe(false);
    expect(company?.checks.find((c) => c.id === 'minPremium')).toMatchObject({ pass: false, message: 'Total cost must be at least $50,000.00' });
    const again = await call<SavedQuote>(who.a, 'GET', `/api/quote/quotes/${r.body.Data.Id}`);
    expect(again.body.Data.Outcome).toEqual(r.body.Data.Outcome);
    const stored = await server.database.sql.query<{ outcome: unknown }>('SELECT outcome FROM quote_quotes WHERE id = $1', [r.body.Data.Id]);
    expect(stored[0]?.outcome).toEqual(r.body.Data.Outcome);

    const fixed = await call<SavedQuote>(
      who.a,
      'POST',
      '/api/quote/quotes',
      aSave({
        Id: r.body.Data.Id,
        Version: r.body.Data.Version,
        Quote: { QuoteType: 'Standard', Benefits: [benefit({ PremiumAmount: 60_000 })], FeeAmount: null },
      }),
    );
    expect(fixed.body.Data.Id).toBe(r.body.Data.Id);
    expect(fixed.body.Data.Outcome.companies[0]?.checks.find((c) => c.id === 'minPremium')?.pass).toBe(true);
    const mine = await call<{ Id: number }[]>(who.a, 'GET', '/api/quote/quotes');
    expect(mine.body.Data.map((q) => q.Id)).toEqual([r.body.Data.Id]);
  });

  it("answers 404 for another user's quote, reading or overwriting", async () => {
    const r = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave());
    expect((await call(who.b, 'GET', `/api/quote/quotes/${r.body.Data.Id}`)).status).toBe(404);
    expect((await call(who.b, 'POST', '/api/quote/quotes', aSave({ Id: r.body.Data.Id, Version: r.body.Data.Version }))).status).toBe(404);
    expect((await call<unknown[]>(who.b, 'GET', '/api/quote/quotes')).body.Data).toEqual([]);
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const before = await count();
    const bad = [
      aSave({ CompanyIds: [] }),
      aSave({ CompanyIds: ['NOPE'] }),
      aSave({ Quote: { QuoteType: 'Standard', Benefits: [benefit({ AnnuityType: 'XX' })], FeeAmount: null } }),
      aSave({ Case: { Annuitants: [{ Age: 60 }], IsQualified: false, PurchaseDate: '15/01/2026' } }),
      aSave({ Version: 1 }),
    ];
    for (const body of bad) expect((await call(who.a, 'POST', '/api/quote/quotes', body)).status).toBe(400);
    expect(await count()).toBe(before);
  });
});

describe('bounded input: a 400, never a database error, and nothing stored', () => {
  it('refuses a quote id that is not a decimal id from 1 to 2147483647 (the integer key)', async () => {
    for (const id of ['99999999999', '2147483648', '0x10', '1e3', '0', '-1', '1.5']) {
      const r = await call(who.a, 'GET', `/api/quote/quotes/${id}`);
      expect(r.status, id).toBe(400);
      expect(r.body.MsgText, id).toMatch(/^params\.id: /);
    }
    expect((await call(who.a, 'GET', '/api/quote/quotes/2147483647')).status).toBe(404);
  });

  it('refuses a save whose Id or Version is larger than the integer key, and changes nothing', async () => {
    const created = (await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave())).body.Data;
    const before = await count();
    const row = async () => (await server.database.sql.query('SELECT version, quote_data FROM quote_quotes WHERE id = $1', [created.Id]))[0];
    const stored = await row();
    const ids: [number | string, number][] = [
      [99_999_999_999, 1],
      ['0x10', 1],
      [created.Id, 99_999_999_999],
      [created.Id, 2_147_483_648],
    ];
    for (const [Id, Version] of ids) expect((await call(who.a, 'POST', '/api/quote/quotes', aSave({ Id, Version }))).status, `${Id}/${Version}`).toBe(400);
    expect(await count()).toBe(before);
    expect(await row()).toEqual(stored);
  });

  it('refuses a day the calendar does not have and an amount with more than 2 decimals, storing nothing', async () => {
    const before = await count();
    const cases: [Record<string, unknown>, RegExp][] = [
      [aSave({ Case: { Annuitants: [{ Age: 60 }], IsQualified: false, PurchaseDate: '2026-02-30' } }), /body\.Case\.PurchaseDate: /],
      [aSave({ Quote: { QuoteType: 'Standard', Benefits: [benefit({ StartDate: '2025-02-29' })], FeeAmount: null } }), /body\.Quote\.Benefits\.0\.StartDate: /],
      [
        aSave({ Quote: { QuoteType: 'Standard', Benefits: [benefit({ PremiumAmount: 20_000.005 })], FeeAmount: null } }),
        /PremiumAmount: must have at most 2 decimals/,
      ],
      [aSave({ Quote: { QuoteType: 'Standard', Benefits: [benefit()], FeeAmount: 99.999 } }), /FeeAmount: must have at most 2 decimals/],
    ];
    for (const [body, message] of cases) {
      const r = await call(who.a, 'POST', '/api/quote/quotes', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.MsgText).toMatch(message);
    }
    expect(await count()).toBe(before);
    // Cents are money: 20,000.05 saves as sent.
    const cents = await call<SavedQuote>(
      who.a,
      'POST',
      '/api/quote/quotes',
      aSave({ Quote: { QuoteType: 'Standard', Benefits: [benefit({ PremiumAmount: 20_000.05 })], FeeAmount: 0.1 } }),
    );
    expect(cents.status, JSON.stringify(cents.body)).toBe(200);
    expect(cents.body.Data.Quote).toMatchObject({ FeeAmount: 0.1, Benefits: [{ PremiumAmount: 20_000.05 }] });
  });

  it("refuses a company's rules with more term types than there are, an amount past cents or a Version past the integer key", async () => {
    const read = (await call<LifeCompany[]>(who.su, 'GET', '/api/quote/companies')).body.Data[8] as LifeCompany;
    const row = async () => (await server.database.sql.query('SELECT rules, version FROM quote_companies WHERE id = $1', [read.Id]))[0];
    const before = await row();
    for (const change of [
      { TermTypes: ['A', 'S', 'Q', 'M', 'B', 'W', 'A'] },
      { TermTypes: Array.from({ length: 10_000 }, () => 'M') },
      { MinPremiumAmount: 50_000.001 },
      { Version: 99_999_999_999 },
    ]) {
      const r = await call(who.su, 'POST', `/api/quote/companies/${read.Id}`, { ...read.Rules, Version: read.Version, ...change });
      expect(r.status, Object.keys(change).join()).toBe(400);
    }
    expect(await row()).toEqual(before);
    const all = await call<LifeCompany>(who.su, 'POST', `/api/quote/companies/${read.Id}`, {
      ...read.Rules,
      TermTypes: ['A', 'S', 'Q', 'M', 'B', 'W'],
      Version: read.Version,
    });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
  });
});

describe('quote versions', () => {
  const quoteRow = async (id: number) =>
    (
      await server.database.sql.query<{ version: number; quote_data: unknown; outcome: unknown; saved_at: unknown }>(
        'SELECT version, quote_data, outcome, saved_at FROM quote_quotes WHERE id = $1',
        [id],
      )
    )[0];
  const premium = (amount: number) => ({ QuoteType: 'Standard', Benefits: [benefit({ PremiumAmount: amount })], FeeAmount: null });

  it('answers a new quote with Version 1, and the same Version on reopening', async () => {
    const r = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.Data.Version).toBe(1);
    expect((await call<SavedQuote>(who.a, 'GET', `/api/quote/quotes/${r.body.Data.Id}`)).body.Data.Version).toBe(1);
  });

  it('refuses an overwrite from a stale Version (409) and changes nothing; the current Version saves and goes up by one', async () => {
    const created = (await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave())).body.Data;
    // The quote is open in two tabs; the first saves, the second then saves from Version 1.
    const first = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave({ Id: created.Id, Version: created.Version, Quote: premium(60_000) }));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.Data.Version).toBe(2);
    const before = await quoteRow(created.Id);
    const audits = (await server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1', ['quote.update'])).length;

    const second = await call(who.a, 'POST', '/api/quote/quotes', aSave({ Id: created.Id, Version: created.Version, Quote: premium(70_000) }));
    expect(second.status).toBe(409);
    expect(second.body.MsgText).toBe(STALE_QUOTE_MESSAGE);
    expect(await quoteRow(created.Id)).toEqual(before);
    expect(before?.quote_data).toMatchObject({ Benefits: [{ PremiumAmount: 60_000 }] });
    expect((await server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1', ['quote.update'])).length).toBe(audits);

    const again = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave({ Id: created.Id, Version: 2, Quote: premium(70_000) }));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.Data).toMatchObject({ Id: created.Id, Version: 3 });
    expect(again.body.Data.Quote.Benefits[0]?.PremiumAmount).toBe(70_000);
    expect(await quoteRow(created.Id)).toMatchObject({ version: 3 });
  });

  it('refuses an overwrite without a Version (400) and changes nothing', async () => {
    const created = (await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave())).body.Data;
    const before = await quoteRow(created.Id);
    for (const Version of [undefined, null, 0])
      expect((await call(who.a, 'POST', '/api/quote/quotes', aSave({ Id: created.Id, Version, Quote: premium(80_000) }))).status).toBe(400);
    expect(await quoteRow(created.Id)).toEqual(before);
  });

  it('words the refusal of a stale save in Spanish', async () => {
    const created = (await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave())).body.Data;
    await call(who.a, 'POST', '/api/quote/quotes', aSave({ Id: created.Id, Version: 1 }));
    const stale = await call(
      { ...who.a, headers: { ...who.a.headers, cookie: 'cq.lang=es' } },
      'POST',
      '/api/quote/quotes',
      aSave({ Id: created.Id, Version: 1 }),
    );
    expect(stale.status).toBe(409);
    expect(stale.body.MsgText).toBe('Otra persona cambió esta cotización. Vuelva a cargarla y haga su cambio de nuevo.');
  });
});

describe('a new quote with an IdempotencyKey (a retry after a lost answer adds the quote once)', () => {
  const quotesOf = async (as: Who) =>
    (await server.database.sql.query<{ id: number }>('SELECT id FROM quote_quotes WHERE user_id = $1 ORDER BY id', [as.userId])).map((r) => r.id);
  const audits = async (action: string, id: number) =>
    (await server.database.sql.query('SELECT 1 FROM audit_log WHERE action = $1 AND entity_id = $2', [action, String(id)])).length;
  const premium = (amount: number) => ({ QuoteType: 'Standard', Benefits: [benefit({ PremiumAmount: amount })], FeeAmount: null });

  it('adds one quote for the same key sent twice and answers that quote both times, audited once', async () => {
    const before = await count();
    const first = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave({ IdempotencyKey: 'quote-retry-0001' }));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave({ IdempotencyKey: 'quote-retry-0001' }));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await count()).toBe(before + 1);
    expect(await audits('quote.create', first.body.Data.Id)).toBe(1);
  });

  it('adds one quote when the same key arrives twice at once (a double press)', async () => {
    const before = await count();
    const body = aSave({ IdempotencyKey: 'quote-double-0001' });
    const [x, y] = await Promise.all([call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', body), call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', body)]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect(y.body.Data.Id).toBe(x.body.Data.Id);
    expect(await count()).toBe(before + 1);
  });

  it('refuses the same key with another quote (409) and adds nothing', async () => {
    const first = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave({ IdempotencyKey: 'quote-reuse-0001' }));
    expect(first.status).toBe(200);
    const before = await count();
    for (const other of [{ Quote: premium(30_000) }, { CompanyIds: ['LC01', 'LC02'] }]) {
      const r = await call(who.a, 'POST', '/api/quote/quotes', aSave({ IdempotencyKey: 'quote-reuse-0001', ...other }));
      expect(r.status, JSON.stringify(other)).toBe(409);
      expect(r.body.MsgText).toBe(CREATE_KEY_REUSED);
    }
    expect(await count()).toBe(before);
    expect((await call<SavedQuote>(who.a, 'GET', `/api/quote/quotes/${first.body.Data.Id}`)).body.Data.Quote.Benefits[0]?.PremiumAmount).toBe(20_000);
  });

  it('adds a quote for each save of a new quote without a key, as before', async () => {
    const before = await count();
    for (const body of [aSave(), aSave(), aSave({ IdempotencyKey: null })]) expect((await call(who.a, 'POST', '/api/quote/quotes', body)).status).toBe(200);
    expect(await count()).toBe(before + 3);
  });

  it('keeps keys per user: another user’s key of the same text makes their own quote', async () => {
    const mine = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave({ IdempotencyKey: 'quote-shared-0001' }));
    const theirs = await call<SavedQuote>(who.b, 'POST', '/api/quote/quotes', aSave({ IdempotencyKey: 'quote-shared-0001' }));
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.body.Data.Id).not.toBe(mine.body.Data.Id);
    expect(await quotesOf(who.b)).toContain(theirs.body.Data.Id);
  });

  it('claims the key only with its quote: a refused save leaves the key free for the corrected one', async () => {
    const before = await count();
    const refused = await call(who.a, 'POST', '/api/quote/quotes', aSave({ CompanyIds: ['NOPE'], IdempotencyKey: 'quote-refused-0001' }));
    expect(refused.status).toBe(400);
    expect(await count()).toBe(before);
    const ok = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave({ IdempotencyKey: 'quote-refused-0001' }));
    expect(ok.status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('keeps the Version check of an overwrite, which a key does not turn into a create or a retry', async () => {
    const created = (await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave({ IdempotencyKey: 'quote-overwrite-0001' }))).body.Data;
    const before = await count();
    const overwrite = aSave({ Id: created.Id, Version: 1, Quote: premium(60_000), IdempotencyKey: 'quote-overwrite-0001' });
    const saved = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', overwrite);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.Data).toMatchObject({ Id: created.Id, Version: 2 });
    const stale = await call(who.a, 'POST', '/api/quote/quotes', overwrite);
    expect(stale.status).toBe(409);
    expect(stale.body.MsgText).toBe(STALE_QUOTE_MESSAGE);
    expect(await audits('quote.update', created.Id)).toBe(1);
    // The new quote's save sent again answers that quote as it is now saved, adding none.
    const retried = await call<SavedQuote>(who.a, 'POST', '/api/quote/quotes', aSave({ IdempotencyKey: 'quote-overwrite-0001' }));
    expect(retried.status).toBe(200);
    expect(retried.body.Data).toMatchObject({ Id: created.Id, Version: 2 });
    expect(await count()).toBe(before);
  });

  it('refuses a key in the wrong format with 400 and stores nothing', async () => {
    const before = await count();
    for (const bad of ['x', 'short', 'has spaces in it', 'x'.repeat(101), 12345678]) {
      const r = await call(who.a, 'POST', '/api/quote/quotes', aSave({ IdempotencyKey: bad }));
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.MsgText).toMatch(/^body\.IdempotencyKey: must be/);
    }
    expect(await count()).toBe(before);
  });
});

describe('messages in Spanish', () => {
  const inSpanish = (as: Who): Who => ({ ...as, headers: { ...as.headers, cookie: 'cq.lang=es' } });

  it('answers the rules of the checks, the term problems and refusals in Spanish, and stores the English', async () => {
    const body = aSave({
      Quote: { QuoteType: 'Standard', Benefits: [benefit({ TermType: 'S', TermMonths: 3 })], FeeAmount: null },
    });
    const r = await call<SavedQuote>(inSpanish(who.a), 'POST', '/api/quote/quotes', body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const checks = r.body.Data.Outcome.companies[0]?.checks ?? [];
    expect(checks.find((c) => c.id === 'minPremium')).toMatchObject({ pass: false, message: 'El costo total debe ser de al menos $50,000.00' });
    expect(checks.find((c) => c.id === 'maxAge')?.message).toBe('La edad no debe superar 85');
    expect(checks.find((c) => c.id === 'minTerm')?.message).toBe('El plazo debe ser de al menos 5 años');
    expect(r.body.Data.Outcome.benefits[0]?.messages).toEqual(['El mes debe estar vacío o ser 6']);

    const id = r.body.Data.Id;
    const reopened = await call<SavedQuote>(inSpanish(who.a), 'GET', `/api/quote/quotes/${id}`);
    expect(reopened.body.Data.Outcome).toEqual(r.body.Data.Outcome);
    const english = await call<SavedQuote>(who.a, 'GET', `/api/quote/quotes/${id}`);
    expect(english.body.Data.Outcome.companies[0]?.checks.find((c) => c.id === 'minPremium')?.message).toBe('Total cost must be at least $50,000.00');
    const stored = await server.database.sql.query<{ outcome: SavedQuote['Outcome'] }>('SELECT outcome FROM quote_quotes WHERE id = $1', [id]);
    expect(stored[0]?.outcome).toEqual(english.body.Data.Outcome);

    const missing = await call(inSpanish(who.b), 'GET', `/api/quote/quotes/${id}`);
    expect(missing.status).toBe(404);
    expect(missing.body.MsgText).toBe('No existe esa cotización.');
    const unknown = await call(inSpanish(who.a), 'POST', '/api/quote/quotes', aSave({ CompanyIds: ['NOPE'] }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.MsgText).toBe('CompanyIds: compañía de seguros de vida desconocida.');
  });
});

describe('a saved quote whose companies changed their rules since', () => {
  type Summary = { Id: number; PassCount: number; CompanyCount: number; RulesChanged: boolean };

  it('says RulesChanged (and which companies) on reading and in the list, until the quote is saved again', async () => {
    const owner = await login('quote-rules-changed', [Roles.CareQuote], 'quote');
    const companies = (await call<LifeCompany[]>(who.su, 'GET', '/api/quote/companies')).body.Data;
    const target = companies[7] as LifeCompany;
    const body = aSave({ CompanyIds: ['LC01', target.Id], Quote: { QuoteType: 'Standard', Benefits: [benefit({ PremiumAmount: 60_000 })], FeeAmount: null } });
    const saved = await call<SavedQuote>(owner, 'POST', '/api/quote/quotes', body);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.Data).toMatchObject({ RulesChanged: false, ChangedCompanyIds: [] });
    const id = saved.body.Data.Id;
    expect((await call<SavedQuote>(owner, 'GET', `/api/quote/quotes/${id}`)).body.Data).toMatchObject({ RulesChanged: false, ChangedCompanyIds: [] });
    expect((await call<Summary[]>(owner, 'GET', '/api/quote/quotes')).body.Data).toMatchObject([{ Id: id, RulesChanged: false }]);

    // The insurer's rules are tightened: the quote's premium is now below its minimum.
    const edit = await call<LifeCompany>(who.su, 'POST', `/api/quote/companies/${target.Id}`, {
      ...target.Rules,
      MinPremiumAmount: 100_000,
      MaxPremiumAmount: null,
      Version: target.Version,
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);

    const reopened = await call<SavedQuote>(owner, 'GET', `/api/quote/quotes/${id}`);
    expect(reopened.body.Data).toMatchObject({ RulesChanged: true, ChangedCompanyIds: [target.Id] });
    // The stored outcome is answered as it was saved (the page checks the quote against the current rules).
    expect(reopened.body.Data.Outcome).toEqual(saved.body.Data.Outcome);
    const listed = (await call<Summary[]>(owner, 'GET', '/api/quote/quotes')).body.Data;
    expect(listed).toMatchObject([{ Id: id, RulesChanged: true, PassCount: saved.body.Data.Outcome.companies.filter((c) => c.pass).length }]);

    // Saved again, it is checked against the current rules and is up to date.
    const resaved = await call<SavedQuote>(owner, 'POST', '/api/quote/quotes', { ...body, Id: id, Version: saved.body.Data.Version });
    expect(resaved.status, JSON.stringify(resaved.body)).toBe(200);
    expect(resaved.body.Data).toMatchObject({ RulesChanged: false, ChangedCompanyIds: [] });
    expect(resaved.body.Data.Outcome.companies.find((c) => c.companyId === target.Id)?.checks.find((c) => c.id === 'minPremium')).toMatchObject({
      pass: false,
      message: 'Total cost must be at least $100,000.00',
    });
    expect((await call<SavedQuote>(owner, 'GET', `/api/quote/quotes/${id}`)).body.Data.RulesChanged).toBe(false);
    expect((await call<Summary[]>(owner, 'GET', '/api/quote/quotes')).body.Data[0]?.RulesChanged).toBe(false);
  });

  it('counts a company as changed for a quote saved before Versions were stored once its rules were ever edited', async () => {
    const owner = await login('quote-rules-legacy', [Roles.CareQuote], 'quote');
    const companies = (await call<LifeCompany[]>(who.su, 'GET', '/api/quote/companies')).body.Data;
    const unedited = companies.find((c) => c.Version === 1) as LifeCompany;
    const edited = companies.find((c) => c.Version > 1) as LifeCompany;
    const one = (await call<SavedQuote>(owner, 'POST', '/api/quote/quotes', aSave({ CompanyIds: [unedited.Id] }))).body.Data;
    const two = (await call<SavedQuote>(owner, 'POST', '/api/quote/quotes', aSave({ CompanyIds: [unedited.Id, edited.Id] }))).body.Data;
    await server.database.sql.query('UPDATE quote_quotes SET rule_versions = NULL WHERE id = ANY($1::int[])', [[one.Id, two.Id]]);
    expect((await call<SavedQuote>(owner, 'GET', `/api/quote/quotes/${one.Id}`)).body.Data).toMatchObject({ RulesChanged: false, ChangedCompanyIds: [] });
    expect((await call<SavedQuote>(owner, 'GET', `/api/quote/quotes/${two.Id}`)).body.Data).toMatchObject({
      RulesChanged: true,
      ChangedCompanyIds: [edited.Id],
    });
    const listed = (await call<Summary[]>(owner, 'GET', '/api/quote/quotes')).body.Data;
    expect(Object.fromEntries(listed.map((q) => [q.Id, q.RulesChanged]))).toEqual({ [one.Id]: false, [two.Id]: true });
  });
});

describe('rule sets no quote could meet, and quotes lacking data', () => {
  const inSpanish = (as: Who): Who => ({ ...as, headers: { ...as.headers, cookie: 'cq.lang=es' } });

  it('refuses a minimum above its maximum and a term type listed twice (400), naming the pair, and stores nothing', async () => {
    const read = (await call<LifeCompany[]>(who.su, 'GET', '/api/quote/companies')).body.Data[1] as LifeCompany;
    const before = (await server.database.sql.query('SELECT rules, version FROM quote_companies WHERE id = $1', [read.Id]))[0];
    const post = (as: Who, rules: Record<string, unknown>) =>
      call(as, 'POST', `/api/quote/companies/${read.Id}`, { ...read.Rules, ...rules, Version: read.Version });
    const terms = await post(who.su, { MinTerm: 30, MaxTerm: 5 });
    expect(terms.status).toBe(400);
    expect(terms.body.MsgText).toBe('body.MinTerm: must not be above MaxTerm');
    const premiums = await post(inSpanish(who.su), { MinPremiumAmount: 900_000, MaxPremiumAmount: 1_000 });
    expect(premiums.status).toBe(400);
    expect(premiums.body.MsgText).toBe('body.MinPremiumAmount: no debe ser mayor que MaxPremiumAmount');
    expect((await post(who.su, { MinDeferral: 400, MaxDeferral: 1 })).status).toBe(400);
    const twice = await post(who.su, { TermTypes: ['M', 'M', 'M'] });
    expect(twice.status).toBe(400);
    expect(twice.body.MsgText).toBe('body.TermTypes: lists a term type twice');
    expect((await server.database.sql.query('SELECT rules, version FROM quote_companies WHERE id = $1', [read.Id]))[0]).toEqual(before);
  });

  it('does not count a company as accepting an empty quote: its rules are not checked, saying what is missing', async () => {
    const owner = await login('quote-empty-case', [Roles.CareQuote], 'quote');
    const ids = (await call<LifeCompany[]>(owner, 'GET', '/api/quote/companies')).body.Data.map((c) => c.Id);
    const empty = benefit({ AnnuityType: null, TermType: null, TermYears: null, StartDate: null, PremiumAmount: null, PaymentAmount: null });
    const body = aSave({
      CompanyIds: ids,
      Case: { Annuitants: [{ Age: null }], IsQualified: false, PurchaseDate: null },
      Quote: { QuoteType: 'Standard', Benefits: [empty], FeeAmount: null },
    });
    const r = await call<SavedQuote>(inSpanish(owner), 'POST', '/api/quote/quotes', body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const lc01 = r.body.Data.Outcome.companies.find((c) => c.companyId === 'LC01');
    expect(lc01?.pass).toBe(false);
    expect(lc01?.checks.find((c) => c.id === 'maxAge')).toMatchObject({ pass: null, message: 'No comprobado: falta la edad' });
    expect(lc01?.checks.find((c) => c.id === 'minDeferral')).toMatchObject({ pass: null, message: 'No comprobado: falta la fecha de compra' });
    expect(lc01?.checks.find((c) => c.id === 'minPremium')).toMatchObject({ pass: null, message: 'No comprobado: falta la prima' });
    const english = await call<SavedQuote>(owner, 'GET', `/api/quote/quotes/${r.body.Data.Id}`);
    expect(english.body.Data.Outcome.companies[0]?.checks.find((c) => c.id === 'maxAge')?.message).toBe('Not checked: age missing');
    const listed = (await call<{ PassCount: number; CompanyCount: number }[]>(owner, 'GET', '/api/quote/quotes')).body.Data[0];
    expect(listed?.CompanyCount).toBe(12);
    expect(listed?.PassCount).toBeLessThan(12);
    expect(listed?.PassCount).toBe(r.body.Data.Outcome.companies.filter((c) => c.pass).length);
  });
});
