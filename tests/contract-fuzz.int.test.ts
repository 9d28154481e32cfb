import type { StartedServer } from '@portal/app-server/server';
import { ALL_ROLES, buildPath, decideAccess, Headers, IMPERSONATOR_ROLES, MEMBER_ROLES } from '@portal/core';
import { authHeaders, dataFingerprint, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asZod, type Mutant, mutants, queryString, validSample, verdict } from './contract-samples';

/**
 * The contract fuzz: bodies and queries valid in every field but one. tests/fuzz.int.test.ts sends input wrong as a
 * whole, which any schema refuses; a schema that takes anything in one field (`z.any()`, a number without `.int()`
 * on an id, a string without a maximum, a loose object) only shows with the rest of the input valid.
 *
 * For every route with a body or query schema (the kernel's and every plugin's, so new ones join by themselves):
 *  1. a valid sample is made from the schema itself (tests/contract-samples.ts) and the schema must take it, so the
 *     generator checks itself; the routes it cannot make one for are named in NO_SAMPLE;
 *  2. each field (top level and one level down) is broken in turn (missing, null, the wrong type, 100,000 characters,
 *     1e308, a fraction for a whole number, an unknown enum value, a list of 10,001 items, an unknown key), and the
 *     schema must refuse each mutant: what it takes is a gap, listed and compared with the reviewed REVIEWED_GAPS;
 *  3. every refused mutant (some 2,400: a few seconds) goes over HTTP as a role the route admits: a clear 400 (the
 *     envelope's message names the field), never a 5xx, and no data changes (a fingerprint of every business table);
 *  4. each reviewed gap goes over HTTP too (it reaches the handler): never a 5xx.
 */
let server: StartedServer;
const sessions = new Map<string, Record<string, string>>();
/** A member (of a member role's user) that staff act for when a handler needs one. */
let memberId: number | null = null;

beforeAll(async () => {
  server = await startTestServer();
  for (const role of ALL_ROLES) {
    const u = await makeUser(server, { userName: `contract-fuzz-${role}`, roles: [role], member: MEMBER_ROLES.includes(role) });
    memberId ??= u.memberId;
    sessions.set(role, authHeaders(await mintSession(server, { ...u, name: `contract-fuzz-${role}`, roles: [role] })));
  }
});
afterAll(() => server?.close());

const fingerprint = () => dataFingerprint(server.database.sql);

type Part = 'body' | 'query';
type Route = StartedServer['routes'][number];
const routeKey = (r: Route, part: Part | 'params') => `${r.method} ${r.endpoint.path} ${part}`;

/**
 * Schemas the generator cannot make a valid sample for, each with the reason (keyed `METHOD path part`). Keep it
 * small: a route may instead give a hand-written valid sample in HAND_SAMPLES.
 */
const NO_SAMPLE: Readonly<Record<string, string>> = {};
/** Hand-written valid samples (keyed `METHOD path part`) for schemas whose refinements no generic candidate meets. */
const HAND_SAMPLES: Readonly<Record<string, unknown>> = {};

/**
 * What the contracts take that a one-field mutant of a valid sample puts there, as reviewed (`METHOD path part.field
 * kind`). A new entry fails the test until it is reviewed here: fix the contract, or add it with the reason it is fine.
 */
const REVIEWED_GAPS: readonly string[] = [
  // Fine: the global searches' result count has `.catch(limit)`: anything but 1 to the limit asks for the limit.
  'GET /api/search/searchClaims query.s fraction',
  'GET /api/search/searchClaims query.s huge-number',
  'GET /api/search/searchClaims query.s wrong-type',
  'GET /api/search/searchNotes query.s fraction',
  'GET /api/search/searchNotes query.s huge-number',
  'GET /api/search/searchNotes query.s wrong-type',
  // The kit gallery's demonstration form (staff only; the handler only counts the fields, stores nothing).
  // Fine: cappedNumber by design (a larger value is set to the field's maximum, 100).
  'POST /api/kit-gallery/form body.Units huge-number',
  // Fine: an attachment's base64 is bounded, at 5 MB of bytes (6,990,508 characters), above the 100,000 tried.
  'POST /api/notes/create body.Attachments.0.Content long-string',
  'POST /api/notes/update body.Attachments.0.Content long-string',
  // Fine: only the gateway's signed bodies reach the handler (the signature is checked over the raw bytes first).
  'POST /api/payment/webhook body.payload.authAmount huge-number',
  // Fine: the ledger's typed values are judged by the handler, in the spec's order and words (plugins/ledger/src/rules.ts):
  // 'Please select transaction type', 'Amount must be a whole number of cents up to $100,000,000.' (400).
  'POST /api/transactions/balance body.Amount huge-number',
  'POST /api/transactions/create body.Amount huge-number',
  'POST /api/transactions/create body.TransactionTypeID fraction',
  'POST /api/transactions/create body.TransactionTypeID huge-number',
  'POST /api/transactions/update body.Amount huge-number',
];

/** Routes whose input is parsed by the handler, not the kernel ('raw' answers: OAuth /token, with its own error shape and sign-in throttling). */
const OWN_PARSING = (r: Route) => r.endpoint.answer === 'raw';

interface Case {
  route: Route;
  part: Part;
  /** The valid input of every part, the broken part included (its mutant replaces it). */
  valid: { body?: unknown; query?: unknown; params?: Record<string, unknown> };
  mutant: Mutant;
}

/** Every route's parts with a schema, their valid samples, and each part's mutants, refused and taken. */
function plan() {
  const routes = server.routes.filter((r) => r.endpoint.body || r.endpoint.query);
  const noSample: string[] = [];
  const selfCheck: string[] = [];
  const refused: Case[] = [];
  const taken: Case[] = [];
  for (const route of routes) {
    const valid: Case['valid'] = {};
    const parts = (['body', 'query'] as const).filter((p) => route.endpoint[p]);
    for (const part of [...parts, 'params'] as const) {
      const schema = route.endpoint[part];
      if (!schema) continue;
      const key = routeKey(route, part);
      const sample = key in HAND_SAMPLES ? { value: HAND_SAMPLES[key] } : validSample(schema, part === 'body' ? 'body' : 'query');
      if (!sample) {
        noSample.push(key);
        continue;
      }
      // The generator checks itself: the schema takes its sample as it travels.
      if (!asZod(schema).safeParse(sample.value).success) selfCheck.push(key);
      if (part === 'params') valid.params = sample.value as Record<string, unknown>;
      else valid[part] = sample.value;
    }
    for (const part of parts) {
      const schema = route.endpoint[part];
      if (!(part in valid)) continue;
      for (const mutant of mutants(schema, valid[part], part)) {
        const v = verdict(schema, mutant);
        if (v !== 'dropped') (v === 'taken' ? taken : refused).push({ route, part, valid, mutant });
      }
    }
  }
  return { routes, noSample, selfCheck, refused, taken };
}

const gapName = (c: Case) => `${c.route.method} ${c.route.endpoint.path} ${c.part}.${c.mutant.path.join('.')} ${c.mutant.kind}`;

/**
 * Who sends a case: the first role the route admits (as tests/fuzz.int.test.ts), or, for a call that must reach the
 * handler's own rules, a member role it admits, else a role that may act for a member, acting for one.
 */
function caller(route: Route, asMember: boolean): Record<string, string> {
  const admitted = ALL_ROLES.filter((r) => decideAccess(route.access, [r]) === 'allow');
  const role = (asMember && (admitted.find((r) => MEMBER_ROLES.includes(r)) ?? admitted.find((r) => IMPERSONATOR_ROLES.includes(r)))) || admitted[0];
  const headers = { ...(role ? sessions.get(role) : { host: 'staff.localhost' }) };
  if (asMember && role && !MEMBER_ROLES.includes(role) && IMPERSONATOR_ROLES.includes(role) && memberId !== null)
    headers[Headers.impersonate] = String(memberId);
  return headers;
}

/** A request for a case: the valid parts, and the mutant in place of its part. */
async function send(c: Case, asMember = false) {
  const headers = caller(c.route, asMember);
  const body = c.part === 'body' ? c.mutant.value : c.valid.body;
  const query = (c.part === 'query' ? c.mutant.value : c.valid.query) as Record<string, unknown> | undefined;
  const params = c.valid.params ?? Object.fromEntries([...c.route.endpoint.path.matchAll(/:(\w+)/g)].map((m) => [m[1], '1']));
  const qs = query ? queryString(query) : '';
  const url = `${buildPath(c.route.endpoint.path, params)}${qs ? `?${qs}` : ''}`;
  const binary = c.route.endpoint.bodyEncoding === 'binary';
  const isGet = c.route.method === 'GET';
  return server.app.inject({
    method: c.route.method as 'POST',
    url,
    headers: isGet ? headers : { ...headers, 'content-type': binary ? 'application/octet-stream' : 'application/json' },
    payload: isGet ? undefined : binary ? Buffer.from('x') : JSON.stringify(body ?? {}),
  });
}

/**
 * Whether a 400's message names where the input is wrong: the kernel words a refusal `body.Field: what is wrong` (a
 * field inside a union or a list may be named by the field that holds it: `body.LoginForm: Invalid input`).
 */
function namesField(message: string, c: Case): boolean {
  const [top] = c.mutant.path;
  return typeof top === 'string' ? message.includes(`${c.part}.${top}`) : message.startsWith(c.part);
}

describe('contract fuzz: input valid in every field but one', () => {
  let cases: ReturnType<typeof plan>;
  beforeAll(() => {
    cases = plan();
  });

  it('makes a valid sample of every body and query schema from the schema itself', () => {
    expect(cases.routes.length).toBeGreaterThan(100);
    expect(cases.selfCheck).toEqual([]);
    expect(cases.noSample.sort()).toEqual(Object.keys(NO_SAMPLE).sort());
    expect(cases.refused.length).toBeGreaterThan(1000);
  });

  it('refuses each one-field mutant in the schema itself, but for the reviewed gaps', () => {
    const gaps = [...new Set(cases.taken.map(gapName))].sort();
    console.info(`contract fuzz: ${cases.refused.length} mutants refused by their schemas, ${gaps.length} taken:\n${gaps.join('\n')}`);
    expect(gaps).toEqual([...REVIEWED_GAPS].sort());
  });

  it('answers every refused mutant with a clear 400, never a 5xx, and changes no data', async () => {
    const before = await fingerprint();
    const failures: string[] = [];
    let sent = 0;
    for (const c of cases.refused) {
      if (OWN_PARSING(c.route)) continue;
      sent++;
      const res = await send(c);
      const message = res.headers['content-type']?.includes('json') ? (res.json() as { MsgText?: unknown }).MsgText : undefined;
      const what = `${gapName(c)} -> ${res.statusCode} ${res.body.slice(0, 160)}`;
      if (res.statusCode !== 400) failures.push(what);
      else if (typeof message !== 'string' || !namesField(message, c)) failures.push(`unclear: ${what}`);
    }
    console.info(`contract fuzz: ${sent} refused mutants sent over HTTP`);
    expect(sent).toBeGreaterThan(2000);
    expect(failures).toEqual([]);
    expect(await fingerprint()).toEqual(before);
  }, 120_000);

  it('never answers a 5xx to the mutants the contracts take (they reach the handler)', async () => {
    const failures: string[] = [];
    const answers: string[] = [];
    for (const c of cases.taken) {
      if (OWN_PARSING(c.route)) continue;
      const res = await send(c, true);
      answers.push(`${gapName(c)} -> ${res.statusCode} ${res.body.slice(0, 140)}`);
      if (res.statusCode >= 500) failures.push(`${gapName(c)} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    console.info(`contract fuzz: the reviewed gaps over HTTP:\n${answers.join('\n')}`);
    expect(failures).toEqual([]);
  }, 120_000);
});
