import { rawManifests } from '@portal/brands';
import { buildPath, Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePriceSearch, PRICE_RESULTS_MAX, PriceFinderApi } from '../contract';
import { priceLines } from './drugs';
import { trigramsOf } from './search';

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
  it('holds a few thousand drug lines, each with its trigrams', async () => {
    const [n] = await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM price_list');
    expect(n?.n).toBe(priceLines().length);
    expect(n?.n).toBeGreaterThan(2000);
    const [t] = await server.database.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM price_list p WHERE NOT (substr(p.search_text, 1, 3) = ANY(p.trigrams))`,
    );
    expect(t?.n).toBe(0);
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

  it('finds the lines holding every word, any case, by description', async () => {
    const res = await search('AMOXICILLIN 500');
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.json().Data as { Code: string; Description: string; OurPrice: number; AWPPrice: number }[];
    const expected = priceLines()
      .filter((l) => l.description.toLowerCase().includes('amoxicillin') && `${l.description} ${l.code}`.toLowerCase().includes('500'))
      .sort((a, b) => (a.description < b.description ? -1 : a.description > b.description ? 1 : a.code < b.code ? -1 : 1))
      .map((l) => ({ Code: l.code, Description: l.description, OurPrice: l.ourCents / 100, AWPPrice: l.awpCents / 100 }));
    expect(expected.length).toBeGreaterThan(3);
    expect(lines).toEqual(expected.slice(0, PRICE_RESULTS_MAX));
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

describe('trigramsOf', () => {
  it('gives the distinct three-character pieces of words of 3 or more', () => {
    expect(trigramsOf(['amox', 'mg', 'ox'])).toEqual(['amo', 'mox']);
    expect(trigramsOf(['aaaa'])).toEqual(['aaa']);
  });
});
