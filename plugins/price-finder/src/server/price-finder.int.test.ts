import { rawManifests } from '@portal/brands';
import { buildPath, Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePriceSearch, PRICE_RESULTS_FETCH, PRICE_RESULTS_MAX, PriceFinderApi } from '../contract';
import { priceLines } from './drugs';
import { trigramsOf } from './migrations';
import { searchText } from './search';

let server: Awaited<ReturnType<typeof startTestServer>>;
let member: Session;
let quote: Session;
const noPlugin = Object.values(rawManifests).find((b) => !b.plugins.includes('price-finder'))?.id;

const search = (text: string, s: Session = member, brand = s.brand) =>
  server.app.inject({ method: 'GET', url: buildPath(PriceFinderApi.search.path, { text: encodePriceSearch(text) }), headers: authHeaders(s, brand) });
const rawSearch = (segment: string) => server.app.inject({ method: 'GET', url: `/api/dashboard/getPrices/${segment}`, headers: authHeaders(member) });

beforeAll(async () => {
  server = await startTestServer();
  await makeUser(server, { userName: 'pf-member', roles: [Roles.CareGuard], brand: 'card', member: true });
  await makeUser(server, { userName: 'pf-quote', roles: [Roles.CareQuote], brand: 'quote', member: true });
  member = await signIn(server, 'pf-member', undefined, '10.0.0.1', 'card');
  quote = await signIn(server, 'pf-quote', undefined, '10.0.0.1', 'quote');
});
afterAll(() => server?.close());

describe('the price list', () => {
  it('holds a few thousand drug lines, each with its search text', async () => {
    const [n] = await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM price_list');
    expect(n?.n).toBe(priceLines().length);
    expect(n?.n).toBeGreaterThan(2000);
    const rows = await server.database.sql.query<{ code: string; description: string; search_text: string }>(
      'SELECT code, description, search_text FROM price_list',
    );
    expect(rows.filter((r) => r.search_text !== searchText(r.description, r.code))).toEqual([]);
  });

  it('reads a description word’s lines through pg_trgm’s index on search_text (migration 0003), the trigram arrays gone', async () => {
    const plan = await server.database.sql.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const rows = await tx.query<{ 'QUERY PLAN': string }>("EXPLAIN SELECT code FROM price_list p WHERE p.search_text LIKE '%amoxicillin%'");
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Bitmap Index Scan on price_list_search_trgm_idx/);
    const columns = await server.database.sql.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'price_list'",
    );
    expect(columns.map((c) => c.column_name)).not.toContain('trigrams');
  });

  it('keeps our price at or under AWP, in cents', () => {
    for (const l of priceLines()) {
      expect(Number.isInteger(l.ourCents) && Number.isInteger(l.awpCents)).toBe(true);
      expect(l.ourCents).toBeLessThanOrEqual(l.awpCents);
    }
  });
});

describe('GET /api/dashboard/getPrices/{text}', () => {
  it('answers 401 without a sign-in, 403 to CareQuote, 404 where the plugin is off', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/dashboard/getPrices/amox', headers: { host: 'card.localhost' } })).statusCode).toBe(401);
    if (!noPlugin) throw new Error('every brand enables price-finder');
    expect((await search('amox', quote, 'quote')).statusCode).toBe(noPlugin === 'quote' ? 404 : 403);
  });

  it("refuses a search under 3 characters with the spec's words, nothing before them", async () => {
    const short = await search('am');
    expect(short.statusCode).toBe(400);
    expect(short.json().MsgText).toBe('Minimum 3 characters are required');
  });

  it('finds the lines holding every word, any case', async () => {
    const res = await search('AMOXICILLIN 500');
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.json().Data as { Code: string; Description: string; OurPrice: number; AWPPrice: number }[];
    // A number under 4 digits is looked for in the description only, not inside the code.
    const expected = priceLines()
      .filter((l) => l.description.toLowerCase().includes('amoxicillin') && l.description.includes('500'))
      .map((l) => ({ Code: l.code, Description: l.description, OurPrice: l.ourCents / 100, AWPPrice: l.awpCents / 100 }));
    expect(expected.length).toBeGreaterThan(3);
    expect(expected.length).toBeLessThanOrEqual(PRICE_RESULTS_MAX);
    const byCode = (a: { Code: string }, b: { Code: string }) => (a.Code < b.Code ? -1 : 1);
    expect([...lines].sort(byCode)).toEqual([...expected].sort(byCode));
  });

  it('answers one line past what the page shows when more match, so the page can say the list is cut', async () => {
    const matching = priceLines().filter((l) => l.description.toLowerCase().includes('tablet')).length;
    expect(matching).toBeGreaterThan(2000);
    const lines = (await search('tablet')).json().Data as unknown[];
    expect(lines).toHaveLength(PRICE_RESULTS_FETCH);
    expect(PRICE_RESULTS_FETCH).toBe(PRICE_RESULTS_MAX + 1);
    // Exactly as many as the page shows: no extra line, so no "there are more".
    const fifty = priceLines().filter((l) => l.description.startsWith('Metformin ')).length;
    expect((await search('metformin')).json().Data).toHaveLength(Math.min(fifty, PRICE_RESULTS_FETCH));
  });

  it('ranks lines whose drug, strength or form words match the search first, then by strength and package size as numbers', async () => {
    const lines = (await search('metformin 500')).json().Data as { Description: string }[];
    const names = lines.map((l) => l.Description);
    // The 500 mg lines (10: two forms, five packages) before any line that has 500 only as its package size.
    const strength500 = names.filter((d) => d.startsWith('Metformin 500 mg'));
    expect(strength500).toHaveLength(10);
    expect(names.slice(0, strength500.length)).toEqual(strength500);
    expect(names).toContain('Metformin 1000 mg tablet, bottle of 500');
    expect(names.slice(0, 5)).toEqual([30, 90, 100, 500, 1000].map((n) => `Metformin 500 mg extended-release tablet, bottle of ${n}`));
    expect(names.slice(5, 10)).toEqual([30, 90, 100, 500, 1000].map((n) => `Metformin 500 mg tablet, bottle of ${n}`));
    // Then by strength as a number: 850 mg before 1000 mg.
    const rest = names.slice(10).map((d) => d.split(' mg')[0]);
    expect(rest.indexOf('Metformin 850')).toBeLessThan(rest.indexOf('Metformin 1000'));

    // Package sizes as numbers, strengths as numbers.
    const lisinopril = ((await search('lisinopril tablet')).json().Data as { Description: string }[]).map((l) => l.Description);
    expect(lisinopril.slice(0, 5)).toEqual([30, 90, 100, 500, 1000].map((n) => `Lisinopril 2.5 mg tablet, bottle of ${n}`));
    expect(lisinopril.findIndex((d) => d.startsWith('Lisinopril 5 mg'))).toBeLessThan(lisinopril.findIndex((d) => d.startsWith('Lisinopril 10 mg')));

    // A word that begins the drug's name ranks it above one that holds it inside ('pred': Prednisone, then
    // Methylprednisolone); a partial strength too ('metformin 85' lists 850 mg first).
    const pred = ((await search('pred')).json().Data as { Description: string }[]).map((l) => l.Description);
    expect(pred[0]).toMatch(/^Prednisone /);
    expect(pred.at(-1)).toMatch(/^Methylprednisolone /);
    const m85 = ((await search('metformin 85')).json().Data as { Description: string }[]).map((l) => l.Description);
    expect(m85[0]).toMatch(/^Metformin 850 mg /);
  });

  it('derives the ordering keys from every description', async () => {
    const rows = await server.database.sql.query<{
      description: string;
      match_text: string;
      drug_name: string;
      strength_value: string | null;
      pack_size: number | null;
    }>(
      `SELECT description, match_text, drug_name, strength_value::text, pack_size FROM price_list
       WHERE description IN ('Metformin 1000 mg tablet, bottle of 500', 'Semaglutide 0.25 mg/0.5 mL prefilled pen', 'Vitamin D2 (Ergocalciferol) 1.25 mg (50,000 units) capsule, bottle of 30')
       ORDER BY description`,
    );
    expect(rows).toEqual([
      {
        description: 'Metformin 1000 mg tablet, bottle of 500',
        match_text: ' metformin 1000 mg tablet ',
        drug_name: 'metformin',
        strength_value: '1000',
        pack_size: 500,
      },
      {
        description: 'Semaglutide 0.25 mg/0.5 mL prefilled pen',
        match_text: ' semaglutide 0.25 mg 0.5 ml prefilled pen ',
        drug_name: 'semaglutide',
        strength_value: '0.25',
        pack_size: null,
      },
      {
        description: 'Vitamin D2 (Ergocalciferol) 1.25 mg (50,000 units) capsule, bottle of 30',
        match_text: ' vitamin d2 ergocalciferol 1.25 mg 50 000 units capsule ',
        drug_name: 'vitamin d2 (ergocalciferol)',
        strength_value: '1.25',
        pack_size: 30,
      },
    ]);
    const [missing] = await server.database.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM price_list WHERE strength_value IS NULL OR drug_name = lower(description) OR (pack_size IS NULL) = (description LIKE '%, bottle of %')",
    );
    expect(missing?.n).toBe(0);
  });

  it('turns the dot placeholder back into a dot', async () => {
    const res = await search('2.5 mg');
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.json().Data as { Description: string }[];
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.Description.includes('2.5 mg'))).toBe(true);
    // The placeholder itself, as the browser sends it.
    const raw = await rawSearch(encodeURIComponent('Carvedilol 12__dot__5'));
    expect((raw.json().Data as { Description: string }[]).every((l) => l.Description.startsWith('Carvedilol 12.5 mg'))).toBe(true);
    expect(raw.json().Data.length).toBeGreaterThan(0);
  });

  it('finds lines by code', async () => {
    const line = priceLines()[100];
    const res = await search(line?.code as string);
    expect(res.json().Data).toEqual([
      { Code: line?.code, Description: line?.description, OurPrice: (line?.ourCents ?? 0) / 100, AWPPrice: (line?.awpCents ?? 0) / 100 },
    ]);
  });

  it('finds what people type: units against the number, decimal commas, abbreviations, punctuation between words', async () => {
    const descriptions = async (text: string) => {
      const res = await search(text);
      expect(res.statusCode, `${text}: ${res.body}`).toBe(200);
      return (res.json().Data as { Description: string }[]).map((l) => l.Description);
    };
    const same = async (typed: string, as: string) => {
      const found = await descriptions(typed);
      expect(found.length, typed).toBeGreaterThan(0);
      expect(found, typed).toEqual(await descriptions(as));
      return found;
    };
    await same('metformin 500mg', 'metformin 500 mg');
    await same('metformin, 500', 'metformin 500');
    await same('Amlodipine 2,5 mg', 'amlodipine 2.5 mg');
    await same('amoxicillin/clavulanate', 'amoxicillin clavulanate');
    await same('amoxicillin-clavulanate', 'amoxicillin clavulanate');
    await same('(amoxicillin) clavulanate 875mg/125mg', 'amoxicillin clavulanate 875 mg 125 mg');
    const lisinopril = await same('lisinopril 10mg tab', 'lisinopril 10 mg tablet');
    // 10 mg first; '10' is also in 'bottle of 100' of the other strengths.
    expect(lisinopril.slice(0, 5).every((d) => d.startsWith('Lisinopril 10 mg tablet'))).toBe(true);
    expect(await same('atorvastatin 40 tabs', 'atorvastatin 40 tablet')).toHaveLength(5);
    const er = await same('metformin er', 'metformin extended-release');
    expect(er).toEqual(
      priceLines()
        .filter((l) => l.description.startsWith('Metformin ') && l.description.includes('extended-release'))
        .map((l) => l.description)
        .sort(byStrength),
    );
    for (const abbr of ['xr', 'ER']) expect(await descriptions(`metformin ${abbr}`)).toEqual(er);
    expect(await same('gabapentin 300 caps', 'gabapentin 300 capsule')).toHaveLength(5);
    // Omeprazole's 5 lines, then Esomeprazole's (which holds the name inside).
    const dr = await same('omeprazole 20 dr', 'omeprazole 20 delayed-release');
    expect(dr.slice(0, 5).every((d) => d.startsWith('Omeprazole 20 mg delayed-release capsule'))).toBe(true);
    expect(dr.slice(5).every((d) => d.startsWith('Esomeprazole 20 mg delayed-release capsule'))).toBe(true);
    // A thousands comma stays one: '50,000' finds Vitamin D2 (50,000 units).
    expect((await descriptions('vitamin 50,000 units'))[0]).toMatch(/^Vitamin D2 \(Ergocalciferol\) 1.25 mg \(50,000 units\)/);
    expect(await descriptions('---')).toEqual([]);
  });

  it('finds a line by its NDC with or without dashes, and matches a short number in the description only', async () => {
    const line = priceLines()[250];
    if (!line) throw new Error('no line 250');
    const one = [{ Code: line.code, Description: line.description, OurPrice: line.ourCents / 100, AWPPrice: line.awpCents / 100 }];
    for (const text of [line.code, line.code.replace(/-/g, ''), `(${line.code})`]) expect((await search(text)).json().Data, text).toEqual(one);
    // The labeler and product parts (4 digits or more) still find the code's lines.
    const product = line.code.split('-')[1] as string;
    expect((await search(product)).json().Data.map((l: { Code: string }) => l.Code)).toContain(line.code);
    // 'metformin 500 mg 90': 90 is a package size, never a piece of a code ('bottle of 30' whose code holds 90 is not found).
    const ninety = ((await search('metformin 500 mg 90')).json().Data as { Description: string }[]).map((l) => l.Description);
    expect(ninety).toEqual(['Metformin 500 mg extended-release tablet, bottle of 90', 'Metformin 500 mg tablet, bottle of 90']);
    const codeOnly = priceLines().find((l) => l.description.startsWith('Metformin ') && l.code.includes('28') && !l.description.includes('28'));
    expect(codeOnly, 'a metformin line whose code holds 28').toBeDefined();
    expect((await search('metformin 28')).json().Data).toEqual([]);
  });

  it('needs 3 characters: under that 400, naming the field', async () => {
    for (const text of ['am', '  a ', '.']) {
      const res = await search(text);
      expect(res.statusCode, text).toBe(400);
    }
    expect((await search('a.b')).statusCode).toBe(200);
    expect((await search('zzzzqq')).json().Data).toEqual([]);
  });

  it('takes LIKE wildcards as plain text and never fails on garbage', async () => {
    expect((await search('%%%')).json().Data).toEqual([]);
    expect((await search('___')).json().Data).toEqual([]);
    expect((await rawSearch(encodeURIComponent("'; DROP TABLE price_list; --"))).statusCode).toBe(200);
    expect((await rawSearch('x'.repeat(61))).statusCode).toBe(400);
  });
});

/** Metformin's lines in the search's order for a text that matches them all alike: strength, form, package, as numbers. */
function byStrength(a: string, b: string): number {
  const key = (d: string) => {
    const m = /^\S+ ([\d.]+) mg (.*?)(?:, bottle of (\d+))?$/.exec(d);
    return [Number(m?.[1]), m?.[2] ?? '', Number(m?.[3] ?? 0)] as const;
  };
  const [x, y] = [key(a), key(b)];
  return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0) || x[2] - y[2];
}

describe('trigramsOf (migration 0001)', () => {
  it('gives the distinct three-character pieces of words of 3 or more', () => {
    expect(trigramsOf(['amox', 'mg', 'ox'])).toEqual(['amo', 'mox']);
    expect(trigramsOf(['aaaa'])).toEqual(['aaa']);
  });
});
