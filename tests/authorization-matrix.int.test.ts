import { executionAsyncId } from 'node:async_hooks';
import type { StartedServer } from '@portal/app-server/server';
import { type Access, ALL_ROLES, decideAccess, MEMBER_ROLES } from '@portal/core';
import { authHeaders, makeUser, startTestServer } from '@portal/testing/server';
import { mintSession } from '@portal/testing/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Walks every registered route of the kernel and of every plugin with every role (and with no sign-in),
 * and checks the answer against the route's declared access: 401 without sign-in, 403 for a wrong role,
 * and neither for an allowed caller. A route added later without a correct declaration fails here.
 */
let server: StartedServer;
const users = new Map<string, { userId: string; memberId: number | null }>();

beforeAll(async () => {
  server = await startTestServer();
  for (const role of ALL_ROLES) {
    users.set(role, await makeUser(server, { userName: `matrix-${role}`, roles: [role], member: MEMBER_ROLES.includes(role) }));
  }
});
afterAll(() => server?.close());

const fill = (url: string) => url.replace(/:(\w+)/g, (_m, name: string) => (/id$/i.test(name) ? '1' : 'x')).replace('*', 'x');

describe('authorization matrix', () => {
  it('covers at least the kernel and help routes', () => {
    const urls = server.routes.map((r) => r.url);
    expect(urls).toContain('/api/account/user/identity');
    expect(urls).toContain('/api/help/topics');
    // Support's notes inbox: CareSupport and SuperUser only (members 403), walked with every role below.
    expect(urls).toContain('/api/support/notes/open');
  });

  it('refuses or allows every route for every caller exactly as declared', async () => {
    const mismatches: string[] = [];
    // One session per role: a route that ends its caller's session (sign-out) must not end the others'.
    const sessionOf = async (role: string) => {
      const u = users.get(role);
      if (!u) throw new Error(role);
      return authHeaders(await mintSession(server, { ...u, name: `matrix-${role}`, roles: [role] }));
    };
    const headersByRole = new Map<string, Record<string, string>>();
    for (const role of ALL_ROLES) headersByRole.set(role, await sessionOf(role));
    for (const r of server.routes) {
      if (r.url === '/token') continue; // the sign-in endpoint itself; covered by the auth tests
      const callers: (string | null)[] = [null, ...ALL_ROLES];
      for (const role of callers) {
        let headers: Record<string, string> = { host: 'staff.localhost' };
        if (role) headers = r.method === 'GET' ? (headersByRole.get(role) ?? headers) : await sessionOf(role);
        const res = await server.app.inject({ method: r.method as 'GET', url: fill(r.url), headers, payload: r.method === 'GET' ? undefined : {} });
        const expected = decideAccess(r.access, role ? [role] : null);
        const got = res.statusCode === 401 ? 'unauthenticated' : res.statusCode === 403 ? 'forbidden' : 'allow';
        if (got !== expected)
          mismatches.push(`${r.method} ${r.url} as ${role ?? 'anonymous'}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 600_000);

  /*
   * The test above checks each route against its own declaration, so a declaration opened to more roles passes it. This
   * one keeps every route's declared access in tests/route-access.txt (one sorted line per route: method, path, access),
   * so any change of who may call a route shows as a diff of that file, to be reviewed with the change. After a change
   * meant so, update the file with `pnpm exec vitest run --project integration tests/authorization-matrix.int.test.ts -u`
   * and commit it with the change. Under CI (CI=1) the file is never written: a difference, or no file, fails.
   */
  it("keeps every route's declared access as reviewed in route-access.txt: a role change must be reviewed there", async () => {
    const accessOf = (access: Access) =>
      typeof access === 'string' ? access : access.length === 0 ? '(no roles: any signed-in user)' : [...access].sort().join(', ');
    const lines = server.routes.map((r) => `${r.method} ${r.url} => ${accessOf(r.access)}`).sort();
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('./route-access.txt');
  });

  // An AsyncLocalStorage (or any async hook) turned on by a route stays on for the process: on Node 20 every later
  // promise of every request pays for it (about a fifth more CPU for /health; issue 23's fifty-seventh pass). With
  // no hook on, a promise's continuation runs with no async id of its own.
  it('leaves no async hooks on once every route has run', async () => {
    const continuationId = async () => {
      await null;
      return executionAsyncId();
    };
    expect(await continuationId()).toBe(0);
  });
});
