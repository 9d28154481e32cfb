import type { StartedServer } from '@portal/app-server/server';
import { ALL_ROLES, decideAccess, MEMBER_ROLES } from '@portal/core';
import { authHeaders, dataFingerprint, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Security issue 11: every registered route (the kernel's and every plugin's, so new plugins join by
 * themselves), called anonymously and as a role it admits, with generated bad input: wrong types, NUL,
 * lone surrogates, huge strings and numbers, prototype keys, SQL meta characters in sort and search
 * fields, nasty path parameters and query strings. No answer may be a 5xx, and the data must not change
 * (a fingerprint of every business table: row count and newest row version). The role the route admits gets a clear
 * 400 for bad input, but for the refusals each named below (`unclearAnswer`).
 */
let server: StartedServer;
const users = new Map<string, { userId: string; memberId: number | null }>();

beforeAll(async () => {
  server = await startTestServer();
  for (const role of ALL_ROLES) users.set(role, await makeUser(server, { userName: `fuzz-${role}`, roles: [role], member: MEMBER_ROLES.includes(role) }));
});
afterAll(() => server?.close());

const fingerprint = () => dataFingerprint(server.database.sql);

const NUL = String.fromCharCode(0);
const nastyText = fc.constantFrom(
  `a${NUL}b`,
  'half \uD800 pair',
  '\uDFFF',
  'x'.repeat(100_000),
  "' OR 1=1; DROP TABLE users; --",
  'ClaimID; DELETE FROM claims',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '',
  ' ',
);
const nastyNumber = fc.constantFrom(1e308, -1e308, -1, 0, 2 ** 53 + 1, 1.5, -0.0000001, 99999999999999);
const nastyScalar = fc.oneof(nastyText, nastyNumber, fc.constantFrom(true, false, null, [], {}, [1, 2], { $gt: '' }));
const fieldNames = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'Id',
  'ID',
  'ClaimID',
  'MemberID',
  'Version',
  'SortColumn',
  'sortColumn',
  'SortOrder',
  'Search',
  'Query',
  'q',
  'PageSize',
  'PageIndex',
  'Amount',
  'Email',
  'UserName',
  'Filters',
  'Ids',
);
const nastyObject = fc.dictionary(fieldNames, nastyScalar, { minKeys: 1, maxKeys: 6 });
/** Every generated body carries at least one value no schema may accept as it is, or is the wrong shape altogether. */
const badBody = fc.oneof(
  nastyObject.map((o) => ({ ...o, SortColumn: 'Id; DROP TABLE claims --', Search: `a${NUL}` })),
  fc.constantFrom<unknown>('just text', 12, null, [], [{ a: 1 }], { __proto__: { admin: true } }),
  fc.record({ PageSize: nastyNumber, PageIndex: nastyNumber, SortOrder: nastyText }),
);
const LONG_PARAM = 'x'.repeat(3000);
const badParam = fc.constantFrom('0x10', '1e1', '-1', '13.0', 'true', '%00', "1' OR '1'='1", LONG_PARAM, '%F0%9F', '..%2F..%2F');

/** Routes that take a file's bytes, not JSON: a JSON body is refused as the wrong content type (415). */
const FILE_ROUTES = new Set(['/api/documents/uploadDocument', '/api/reimbursements/uploads/:id']);
/**
 * Routes whose parameter is any text by the spec: a link's id (activation, reset) answers IsValid false, a search
 * text or a member number finds nothing (200 with nothing, or 404 for one record).
 */
const TEXT_LOOKUPS = new Set([
  '/api/account/activate/:urlId',
  '/api/account/reset/validate/:urlId',
  '/api/claims/searchVendors/:text',
  '/api/dashboard/getPrices/:text',
  '/api/account/members/byNumber/:number',
]);

/**
 * Why the answer to a bad input is not the clear 400 it should be, or null when it is one of the named refusals:
 * a 3,000-character path parameter is past Fastify's parameter length, so no route matches (404) or the address is
 * too long (414); a file route refuses JSON (415); a text lookup finds nothing; a query whose keys are none of the
 * route's own is a query without them (unknown keys are ignored, as every query's are).
 */
function unclearAnswer(route: { path: string; query?: unknown }, url: string, query: Record<string, unknown>, status: number): string | null {
  if (status === 400) return null;
  if ((status === 404 || status === 414) && url.includes(LONG_PARAM)) return null;
  if (status === 415 && FILE_ROUTES.has(route.path)) return null;
  if ((status === 200 || status === 404) && TEXT_LOOKUPS.has(route.path)) return null;
  // A contract's query is a zod object: its shape names the keys it reads.
  const own = Object.keys((route.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
  if (status === 200 && !url.split('?')[0]?.includes(':') && Object.keys(query).every((k) => !own.includes(k))) return null;
  return `${status}`;
}

const fill = (path: string, value: string) =>
  path.replace(/:(\w+)/g, () => (value.startsWith('%') || value.startsWith('..') ? value : encodeURIComponent(value)));

describe('fuzzing every route with bad input', () => {
  it('never answers 5xx, answers the role it admits with a clear 400 (or a named refusal), and never changes data', async () => {
    const failures: string[] = [];
    const unclear: string[] = [];
    const all = server.routes.filter((r) => r.endpoint.path !== '/token');
    expect(all.length).toBeGreaterThan(20);
    // Routes that take no input (sign-out, terminate ...) act on any call by design: fuzz them first for 5xx
    // only; the data must then stay unchanged through every route that does take input.
    const takesInput = (r: (typeof all)[number]) => Boolean(r.endpoint.params || r.endpoint.query || r.endpoint.body);
    const routes = [...all.filter((r) => !takesInput(r)), ...all.filter(takesInput)];
    let before: Record<string, string> | null = null;
    for (const r of routes) {
      if (takesInput(r) && before === null) before = await fingerprint();
      // Anonymous, and one role the route admits (other roles are refused before parsing; the matrix covers them).
      const admitted = ALL_ROLES.find((role) => decideAccess(r.access, [role]) === 'allow');
      const callers = [null, ...(admitted ? [admitted] : [])];
      for (const role of callers) {
        const samples = fc.sample(fc.tuple(badBody, badParam, nastyObject), { numRuns: 4, seed: 4242 });
        for (const [body, param, query] of samples) {
          let headers: Record<string, string> = { host: 'staff.localhost' };
          if (role) {
            const u = users.get(role);
            if (!u) throw new Error(role);
            headers = authHeaders(await mintSession(server, { ...u, name: `fuzz-${role}`, roles: [role] }));
          }
          const hasParams = r.endpoint.path.includes(':');
          // Routes with path parameters get bad parameters (so no handler ever runs on a real record); the others bad bodies and queries.
          const url = hasParams
            ? fill(r.endpoint.path, param)
            : `${r.endpoint.path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()}`;
          const isGet = r.method === 'GET';
          const res = await server.app.inject({
            method: r.method as 'GET',
            url,
            headers: isGet ? headers : { ...headers, 'content-type': 'application/json' },
            payload: isGet ? undefined : JSON.stringify(body),
          });
          if (res.statusCode >= 500) failures.push(`${r.method} ${r.endpoint.path} as ${role ?? 'anonymous'} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
          const why = role && takesInput(r) ? unclearAnswer(r.endpoint, url, hasParams ? {} : query, res.statusCode) : null;
          if (why) unclear.push(`${r.method} ${r.endpoint.path} as ${role} -> ${why} ${url.slice(0, 80)} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(unclear).toEqual([]);
    expect(await fingerprint()).toEqual(before);
  }, 300_000);
});
