import { randomBytes, scryptSync } from 'node:crypto';
import type { StartedServer } from '@portal/app-server/server';
import { ACCESS_TOKEN_TYPE, Roles, TOKEN_EXCHANGE_GRANT } from '@portal/core';
import { CONTACT_PAGE_SIZES } from '@portal/plugin-contacts/contract';
import {
  BUSY_RETRY_SECONDS,
  DatabaseBusyError,
  enterPasswordCheck,
  identityService,
  MAX_PASSWORD_CHECKS,
  passwordChecksInFlight,
  verifyPassword,
} from '@portal/server/kernel';
import { authHeaders, makeUser, type Session, signIn, startTestServer, TEST_PASSWORD } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

let server: StartedServer;
let member: { userId: string; memberId: number | null };
let otherStaffMember: { userId: string; memberId: number | null };

beforeAll(async () => {
  server = await startTestServer();
  member = await makeUser(server, { userName: 'alice', roles: [Roles.CareGuard], member: true, brand: 'card' });
  await makeUser(server, { userName: 'support', roles: [Roles.CareSupport] });
  await makeUser(server, { userName: 'root', roles: [Roles.SuperUser] });
  await makeUser(server, { userName: 'bob', roles: [Roles.CareGuardFinance], member: true });
  otherStaffMember = await makeUser(server, { userName: 'admin', roles: [Roles.CareGuardAdmin], member: true });
  await makeUser(server, { userName: 'pending', roles: [Roles.CareGuard], member: true, isActive: false });
});
afterAll(() => server?.close());

const form = (body: Record<string, string>, ip = '10.1.1.1') => ({
  method: 'POST' as const,
  url: '/token',
  remoteAddress: ip,
  headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'card.localhost' },
  payload: new URLSearchParams(body).toString(),
});
/** The audit rows of an action, the batched ones (reads, impersonated reads) included. */
const auditRows = async (action: string) => {
  await server.flushAudit();
  return server.database.sql.query<{ action: string; actor_name: string | null; member_id: number | null; outcome: string; detail: unknown }>(
    'SELECT * FROM audit_log WHERE action = $1 ORDER BY id',
    [action],
  );
};

describe('POST /token', () => {
  it('signs in with the password grant and answers the tokens', async () => {
    const res = await server.app.inject(form({ grant_type: 'password', UserName: 'Alice', Password: TEST_PASSWORD }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 900 });
    expect(body.access_token.split('.')).toHaveLength(3);
    expect(body.refresh_token).toMatch(/^[\w-]{40,}$/);
    expect(body.form_token).toBeTruthy();
    const rows = await server.database.sql.query<{ token_hash: string }>('SELECT token_hash FROM refresh_tokens');
    expect(rows.map((r) => r.token_hash)).not.toContain(body.refresh_token); // stored hashed
  });

  it('answers the same error for an unknown user and a wrong password', async () => {
    const unknown = await server.app.inject(form({ grant_type: 'password', UserName: 'nobody', Password: 'x' }, '10.1.1.2'));
    const wrong = await server.app.inject(form({ grant_type: 'password', UserName: 'alice', Password: 'wrong' }, '10.1.1.2'));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toEqual({ error: 'invalid_grant', error_description: 'The user name or password is incorrect.' });
    const failures = await auditRows('signin');
    expect(failures.some((r) => r.outcome === 'failure')).toBe(true);
  });

  it('answers 503 with Retry-After at once when every password check is taken, without counting a failed attempt', async () => {
    const taken = Array.from({ length: MAX_PASSWORD_CHECKS }, () => enterPasswordCheck());
    try {
      expect(taken.every((leave) => leave !== null)).toBe(true);
      // More busy answers than the per-name failure limit (10): none may count towards it.
      for (let i = 0; i < 12; i++) {
        const busy = await server.app.inject(form({ grant_type: 'password', UserName: 'alice', Password: TEST_PASSWORD }, '10.1.1.9'));
        expect(busy.statusCode).toBe(503);
        expect(busy.headers['retry-after']).toBe(String(BUSY_RETRY_SECONDS));
        expect(busy.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'Sign-in is busy right now. Please try again in a moment.' });
      }
    } finally {
      for (const leave of taken) leave?.();
    }
    expect(passwordChecksInFlight()).toBe(0);
    const ok = await server.app.inject(form({ grant_type: 'password', UserName: 'alice', Password: TEST_PASSWORD }, '10.1.1.9'));
    expect(ok.statusCode).toBe(200);
  });

  it('signs in over a real connection (the request stream is done once its body is read; the caller is still there)', async () => {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', UserName: 'alice', Password: TEST_PASSWORD }).toString(),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { access_token: string }).access_token.split('.')).toHaveLength(3);
  });

  it('upgrades an older scrypt hash to Argon2id at a right sign-in, not at a wrong one, and audits it once', async () => {
    const { userId } = await makeUser(server, { userName: 'legacy', roles: [Roles.CareGuard], member: true, brand: 'card' });
    const salt = randomBytes(16);
    const key = scryptSync(TEST_PASSWORD, salt, 32, { N: 1024, r: 8, p: 1 });
    const legacy = `scrypt$1024$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    const sql = server.database.sql;
    await sql.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, legacy]);
    const stored = async () =>
      (await sql.query<{ password_hash: string; version: number }>('SELECT password_hash, version FROM users WHERE id = $1', [userId]))[0];
    const before = await stored();

    const wrong = await server.app.inject(form({ grant_type: 'password', UserName: 'legacy', Password: 'Wrong-pass-1' }, '10.1.1.20'));
    expect(wrong.statusCode).toBe(400);
    expect((await stored())?.password_hash).toBe(legacy);

    const ok = await server.app.inject(form({ grant_type: 'password', UserName: 'legacy', Password: TEST_PASSWORD }, '10.1.1.20'));
    expect(ok.statusCode).toBe(200);
    const after = await stored();
    expect(after?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(after?.version).toBe(before?.version); // not a change of the user's data
    expect(await verifyPassword(TEST_PASSWORD, after?.password_hash ?? '')).toBe(true);

    const again = await server.app.inject(form({ grant_type: 'password', UserName: 'legacy', Password: TEST_PASSWORD }, '10.1.1.20'));
    expect(again.statusCode).toBe(200);
    expect((await stored())?.password_hash).toBe(after?.password_hash);
    const successes = (await auditRows('signin')).filter((r) => r.outcome === 'success' && r.actor_name === 'legacy');
    expect(successes.map((r) => (r.detail as { passwordRehashed?: boolean }).passwordRehashed ?? false)).toEqual([true, false]);
  });

  it('refuses an account that is not activated yet', async () => {
    const res = await server.app.inject(form({ grant_type: 'password', UserName: 'pending', Password: TEST_PASSWORD }, '10.1.1.3'));
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toMatch(/not been activated/);
  });

  it('rotates the refresh token on every use, and a reused one revokes the whole chain', async () => {
    const s = await signIn(server, 'alice', undefined, '10.1.2.1', 'card');
    const first = await server.app.inject(form({ grant_type: 'refresh_token', refresh_token: s.refresh_token }, '10.1.2.1'));
    expect(first.statusCode).toBe(200);
    const rotated = first.json();
    expect(rotated.refresh_token).not.toBe(s.refresh_token);
    expect(rotated.form_token).toBe(s.form_token);
    // Reuse of the spent token: refused, and the newest token of the chain dies with it.
    const reuse = await server.app.inject(form({ grant_type: 'refresh_token', refresh_token: s.refresh_token }, '10.1.2.1'));
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error).toBe('invalid_grant');
    const after = await server.app.inject(form({ grant_type: 'refresh_token', refresh_token: rotated.refresh_token }, '10.1.2.1'));
    expect(after.statusCode).toBe(400);
    const identity = await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(rotated, 'card') });
    expect(identity.statusCode).toBe(401);
    expect((await auditRows('refresh.reuse')).length).toBeGreaterThan(0);
  });

  it('keeps the refresh token live when issuing the new pair fails (503 busy): trying again with it works and is no reuse', async () => {
    const s = await signIn(server, 'alice', undefined, '10.1.2.9', 'card');
    const reusesBefore = (await auditRows('refresh.reuse')).length;
    const sql = server.database.sql;
    const realTransaction = sql.transaction.bind(sql);
    let failed = 0;
    // The database is busy once, as the new refresh token is stored: after the old one was spent in the same request.
    const spy = vi.spyOn(sql, 'transaction').mockImplementation((fn) =>
      realTransaction((tx) =>
        fn({
          ...tx,
          query: (text: string, params?: unknown[], opts?: object) => {
            if (failed === 0 && text.startsWith('INSERT INTO refresh_tokens')) {
              failed++;
              return Promise.reject(new DatabaseBusyError(new Error('no free connection')));
            }
            return tx.query(text, params, opts);
          },
        } as typeof tx),
      ),
    );
    try {
      const busy = await server.app.inject(form({ grant_type: 'refresh_token', refresh_token: s.refresh_token }, '10.1.2.9'));
      expect(failed).toBe(1);
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe(String(BUSY_RETRY_SECONDS));
    } finally {
      spy.mockRestore();
    }
    const again = await server.app.inject(form({ grant_type: 'refresh_token', refresh_token: s.refresh_token }, '10.1.2.9'));
    expect(again.statusCode, again.body).toBe(200);
    const identity = await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(again.json(), 'card') });
    expect(identity.statusCode).toBe(200);
    // The session goes on, and no theft was recorded.
    const sessions = await sql.query<{ revoked_at: Date | null }>("SELECT revoked_at FROM sessions WHERE ip = '10.1.2.9'");
    expect(sessions).toEqual([{ revoked_at: null }]);
    expect((await auditRows('refresh.reuse')).length).toBe(reusesBefore);
  });

  it('throttles a name from an address after 10 failures in 15 minutes with 429 and Retry-After, known or unknown', async () => {
    for (const name of ['bob', 'ghost-user']) {
      for (let i = 0; i < 10; i++) {
        const r = await server.app.inject(form({ grant_type: 'password', UserName: name, Password: 'bad' }, `10.2.0.${name.length}`));
        expect(r.statusCode).toBe(400);
      }
      const blocked = await server.app.inject(form({ grant_type: 'password', UserName: name, Password: TEST_PASSWORD }, `10.2.0.${name.length}`));
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json().error_description).toMatch(/Too many failed sign-in attempts/);
    }
  });

  it('throttles an address after 60 token requests a minute', async () => {
    let last = 0;
    for (let i = 0; i < 61; i++) {
      const r = await server.app.inject(form({ grant_type: 'refresh_token', refresh_token: `junk-${i}` }, '10.9.9.9'));
      last = r.statusCode;
      if (i < 60) expect(r.statusCode).toBe(400);
    }
    expect(last).toBe(429);
  });
});

describe('requests the server cannot read', () => {
  it("are refused in the reader's language: broken JSON (400), an unaccepted content type (415)", async () => {
    const send = (payload: string, contentType: string, lang: 'en' | 'es') =>
      server.app.inject({
        method: 'POST',
        url: '/api/account/reset/sendemail',
        headers: { host: 'card.localhost', 'content-type': contentType, cookie: `cq.lang=${lang}` },
        payload,
      });
    const broken = await send('{"UserName": ', 'application/json', 'es');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().MsgText).toBe('El cuerpo de la solicitud no es un JSON válido.');
    expect((await send('{"UserName": ', 'application/json', 'en')).json().MsgText).toBe('The request body is not valid JSON.');
    const xml = await send('<UserName>ann</UserName>', 'application/xml', 'es');
    expect(xml.statusCode).toBe(415);
    expect(xml.json().MsgText).toBe('Aquí no se acepta este tipo de contenido.');
  });
});

describe('sessions', () => {
  it('returns the identity and signs out, revoking the refresh chain', async () => {
    const s = await signIn(server, 'alice');
    const me = await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(s, 'card') });
    expect(me.json().Data).toMatchObject({ Name: 'alice', Roles: [{ Id: 'CareGuard', Name: 'CareGuard' }], MemberID: member.memberId });
    const out = await server.app.inject({ method: 'POST', url: '/api/account/user/signout', headers: authHeaders(s, 'card') });
    expect(out.statusCode).toBe(200);
    const again = await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(s, 'card') });
    expect(again.statusCode).toBe(401);
    const refresh = await server.app.inject(form({ grant_type: 'refresh_token', refresh_token: s.refresh_token }, '10.4.0.1'));
    expect(refresh.statusCode).toBe(400);
    expect((await auditRows('signout')).length).toBe(1);
  });

  it("names the member as their profile has them now for display (the login's name without a member, else the user name)", async () => {
    const displayName = async (userName: string) => {
      const me = await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(await signIn(server, userName), 'card') });
      return me.json().Data as { Name: string; DisplayName: string };
    };
    const ann = await makeUser(server, { userName: 'ann-display', roles: [Roles.CareGuard], member: true, brand: 'card' });
    await server.database.sql.query(`UPDATE members SET first_name = 'Ana', last_name = 'Ortega' WHERE member_id = $1`, [ann.memberId]);
    expect(await displayName('ann-display')).toMatchObject({ Name: 'ann-display', DisplayName: 'Ana Ortega' });
    const staffer = await makeUser(server, { userName: 'nameless', roles: [Roles.CareSupport] });
    expect(await displayName('nameless')).toMatchObject({ DisplayName: 'Test nameless' });
    await server.database.sql.query(`UPDATE users SET first_name = '', last_name = ' ' WHERE id = $1`, [staffer.userId]);
    expect(await displayName('nameless')).toMatchObject({ Name: 'nameless', DisplayName: 'nameless' });
  });

  it("answers a staff user's identity with every role, sorted, and no member", async () => {
    const lead = await makeUser(server, { userName: 'lead', roles: [Roles.SuperUser, Roles.CareSupport] });
    const s = await signIn(server, 'lead');
    const me = await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(s, 'card') });
    expect(me.statusCode).toBe(200);
    expect(me.json().Data).toEqual({
      Id: lead.userId,
      Name: 'lead',
      DisplayName: 'Test lead',
      Roles: [
        { Id: Roles.CareSupport, Name: Roles.CareSupport },
        { Id: Roles.SuperUser, Name: Roles.SuperUser },
      ],
      MemberID: null,
      CompanyId: null,
    });
  });

  it('ends a session idle for 30 minutes', async () => {
    const s = await signIn(server, 'alice');
    await server.database.sql.query("UPDATE sessions SET last_seen_at = now() - interval '31 minutes'");
    const res = await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(s, 'card') });
    expect(res.statusCode).toBe(401);
    const refresh = await server.app.inject(form({ grant_type: 'refresh_token', refresh_token: s.refresh_token }, '10.4.0.2'));
    expect(refresh.statusCode).toBe(400);
  });

  it('ends a session past its 12-hour lifetime even when active', async () => {
    const s = await signIn(server, 'alice');
    await server.database.sql.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE revoked_at IS NULL");
    const refresh = await server.app.inject(form({ grant_type: 'refresh_token', refresh_token: s.refresh_token }, '10.4.0.3'));
    expect(refresh.statusCode).toBe(400);
  });

  it('refuses a state-changing request without the anti-forgery token', async () => {
    const s = await signIn(server, 'alice');
    const { 'x-form-token': _drop, ...noForm } = authHeaders(s, 'card');
    const answers = [
      { Id: 1, AnswerText: 'Rex' },
      { Id: 2, AnswerText: 'Boston' },
    ];
    const saved = async () =>
      (
        await server.database.sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM account_security_answers a JOIN users u ON u.id = a.user_id WHERE u.user_name = $1',
          ['alice'],
        )
      )[0]?.n;
    const before = await saved();
    const res = await server.app.inject({ method: 'POST', url: '/api/account/update/questions', headers: noForm, payload: answers });
    expect(res.statusCode).toBe(403);
    expect(res.json().MsgText).toMatch(/anti-forgery/);
    const forged = await server.app.inject({
      method: 'POST',
      url: '/api/account/update/questions',
      headers: { ...noForm, 'x-form-token': 'forged' },
      payload: answers,
    });
    expect(forged.statusCode).toBe(403);
    expect(await saved()).toBe(before); // nothing was saved
  });

  it('lets a token end its own session without the anti-forgery token (a handed-over token has none)', async () => {
    const s = await signIn(server, 'alice');
    const { 'x-form-token': _drop, ...noForm } = authHeaders(s, 'card');
    expect((await server.app.inject({ method: 'POST', url: '/api/account/user/signout', headers: noForm })).statusCode).toBe(200);
    const after = await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(s, 'card') });
    expect(after.statusCode).toBe(401);
  });

  it('exchanges a token handed over in an address once, for a session of its own that can change data; the handed token then opens nothing', async () => {
    const asking = await signIn(server, 'alice', TEST_PASSWORD, '10.5.0.1', 'card');
    const issued = await server.app.inject({ method: 'POST', url: '/api/account/user/handover', headers: authHeaders(asking) });
    expect(issued.statusCode).toBe(200);
    const { Token, ExpiresIn } = issued.json().Data as { Token: string; ExpiresIn: number };
    expect(ExpiresIn).toBe(120);
    const handed = { access_token: Token };
    const exchange = (token: string, host = 'card.localhost') =>
      server.app.inject({
        ...form({ grant_type: TOKEN_EXCHANGE_GRANT, subject_token: token, subject_token_type: ACCESS_TOKEN_TYPE }, '10.5.0.2'),
        headers: { 'content-type': 'application/x-www-form-urlencoded', host },
      });
    const identity = (token: string) =>
      server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: { authorization: `Bearer ${token}`, host: 'card.localhost' } });
    // Another site's token is refused, and the handed session goes on.
    expect((await exchange(handed.access_token, 'finance.localhost')).statusCode).toBe(400);
    expect((await identity(handed.access_token)).statusCode).toBe(200);

    const res = await exchange(handed.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const own = { ...(res.json() as Session), brand: 'card' };
    expect(own.refresh_token).toBeTruthy();
    expect(own.form_token).toBeTruthy();
    // The tab's own session changes data (the handed token alone had no anti-forgery token to do so).
    const answers = [
      { Id: 1, AnswerText: 'Rex' },
      { Id: 2, AnswerText: 'Boston' },
    ];
    const saved = await server.app.inject({ method: 'POST', url: '/api/account/update/questions', headers: authHeaders(own), payload: answers });
    expect(saved.statusCode).toBe(200);
    // The handed token, left in the address, opens nothing now and cannot be exchanged again.
    expect((await identity(handed.access_token)).statusCode).toBe(401);
    const again = await exchange(handed.access_token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'invalid_grant', error_description: 'Your session has ended. Please sign in again.' });
    expect((await identity(own.access_token)).statusCode).toBe(200);
    const rows = await auditRows('signin.handover');
    expect(rows.map((r) => r.outcome)).toEqual(['success']);
    expect(rows[0]?.actor_name).toBe('alice');
    // A grant without the access-token type is an incomplete request.
    const untyped = await server.app.inject(form({ grant_type: TOKEN_EXCHANGE_GRANT, subject_token: own.access_token }, '10.5.0.3'));
    expect(untyped.statusCode).toBe(400);
    expect((await identity(own.access_token)).statusCode).toBe(200);
  });

  it("refuses to exchange a session's own access token (lifted from a log or a proxy): that session goes on, unchanged", async () => {
    const s = await signIn(server, 'alice', TEST_PASSWORD, '10.5.0.1', 'card');
    const res = await server.app.inject({
      ...form({ grant_type: TOKEN_EXCHANGE_GRANT, subject_token: s.access_token, subject_token_type: ACCESS_TOKEN_TYPE }, '10.5.0.4'),
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'card.localhost' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_grant' });
    const identity = await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: authHeaders(s) });
    expect(identity.statusCode).toBe(200);
    // Its refresh token still works: the session was not ended by the refused exchange.
    const refreshed = await server.app.inject({
      ...form({ grant_type: 'refresh_token', refresh_token: s.refresh_token }, '10.5.0.4'),
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'card.localhost' },
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it('gives a hand-over token only to a session that shows its anti-forgery token: an access token alone cannot ask for one', async () => {
    const s = await signIn(server, 'alice', TEST_PASSWORD, '10.5.0.1', 'card');
    const { 'x-form-token': _drop, ...noForm } = authHeaders(s, 'card');
    const refused = await server.app.inject({ method: 'POST', url: '/api/account/user/handover', headers: noForm });
    expect(refused.statusCode).toBe(403);
    const rows = await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE handover');
    const before = rows[0]?.n ?? 0;
    const again = await server.app.inject({ method: 'POST', url: '/api/account/user/handover', headers: noForm });
    expect(again.statusCode).toBe(403);
    const after = await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE handover');
    expect(after[0]?.n).toBe(before);
  });

  it('answers 401 for a tampered or missing token', async () => {
    const s = await signIn(server, 'alice');
    const tampered = `${s.access_token.slice(0, -2)}xx`;
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/account/user/identity',
      headers: { authorization: `Bearer ${tampered}`, host: 'card.localhost' },
    });
    expect(res.statusCode).toBe(401);
    const none = await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: { host: 'card.localhost' } });
    expect(none.statusCode).toBe(401);
  });
});

describe('brand binding (security issue 11, item 9)', () => {
  it('refuses a token signed in on one brand on another brand, and its refresh token there too', async () => {
    const quote = await signIn(server, 'root', undefined, '10.5.0.1', 'quote');
    const bearer = (host: string) => ({ authorization: `Bearer ${quote.access_token}`, host });
    expect((await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: bearer('quote.localhost') })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: bearer('finance.localhost') })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: bearer('localhost') })).statusCode).toBe(401);
    const refreshOn = (host: string) =>
      server.app.inject({
        method: 'POST',
        url: '/token',
        remoteAddress: '10.5.0.1',
        headers: { 'content-type': 'application/x-www-form-urlencoded', host },
        payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: quote.refresh_token }).toString(),
      });
    const elsewhere = await refreshOn('finance.localhost');
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error).toBe('invalid_grant');
    // Refused elsewhere, the refresh token stays good on its own site.
    const home = await refreshOn('quote.localhost');
    expect(home.statusCode).toBe(200);
  });
});

describe('impersonation', () => {
  it('is honoured for CareSupport and SuperUser on member accounts, and audited naming both', async () => {
    for (const staff of ['support', 'root']) {
      const s = await signIn(server, staff);
      const res = await server.app.inject({
        method: 'GET',
        url: '/api/account/user/termination',
        headers: authHeaders(s, 'staff', { 'x-member-id': String(member.memberId) }),
      });
      expect(res.statusCode).toBe(200);
    }
    const rows = await auditRows('impersonation.request');
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]).toMatchObject({ actor_name: 'support', member_id: member.memberId });
  });

  it('is refused with 403 for anyone else', async () => {
    const s = await signIn(server, 'alice');
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/account/user/termination',
      headers: authHeaders(s, 'card', { 'x-member-id': String(member.memberId) }),
    });
    expect(res.statusCode).toBe(403);
  });

  it('is refused for an account that is not a member account', async () => {
    const s = await signIn(server, 'support');
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/account/user/termination',
      headers: authHeaders(s, 'staff', { 'x-member-id': String(otherStaffMember.memberId) }),
    });
    expect(res.statusCode).toBe(403);
    const missing = await server.app.inject({
      method: 'GET',
      url: '/api/account/user/termination',
      headers: authHeaders(s, 'staff', { 'x-member-id': '999999' }),
    });
    expect(missing.statusCode).toBe(403);
  });
});

describe('a member by member number (the act-for box)', () => {
  const byNumber = (s: Session, number: string) =>
    server.app.inject({ method: 'GET', url: `/api/account/members/byNumber/${encodeURIComponent(number)}`, headers: authHeaders(s, 'staff') });
  const numberOf = async (memberId: number) =>
    (await server.database.sql.query<{ member_number: string }>('SELECT member_number FROM members WHERE member_id = $1', [memberId]))[0]?.member_number ?? '';

  it('answers the member ID of a member account to CareSupport and SuperUser, the number typed in any case, audited', async () => {
    const number = await numberOf(member.memberId as number);
    for (const [staff, typed] of [
      ['support', number],
      ['root', number.toLowerCase()],
    ] as const) {
      const res = await byNumber(await signIn(server, staff), typed);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().Data).toEqual({ MemberID: member.memberId });
    }
    const rows = await auditRows('member.lookup.number');
    expect(rows.at(-1)).toMatchObject({ actor_name: 'root', member_id: member.memberId });
  });

  it("refuses an unknown number and a staff login's member record alike (404), and anyone who may not act for members (403)", async () => {
    const support = await signIn(server, 'support');
    for (const number of ['Z0000000', await numberOf(otherStaffMember.memberId as number)]) {
      const res = await byNumber(support, number);
      expect(res.statusCode).toBe(404);
      expect(res.json().MsgText).toBe('No member account has that member number.');
    }
    expect((await byNumber(await signIn(server, 'alice'), await numberOf(member.memberId as number))).statusCode).toBe(403);
    expect((await byNumber(support, 'x'.repeat(31))).statusCode).toBe(400);
  });
});

describe('site endpoints', () => {
  it('serves /config per brand and /health', async () => {
    const card = await server.app.inject({ method: 'GET', url: '/config', headers: { host: 'card.localhost:8080' } });
    expect(card.json().Data).toMatchObject({ Brand: 'card', SupportEmail: 'support@card.example.com', RegisterLink: expect.stringMatching(/^https:/) });
    const finance = await server.app.inject({ method: 'GET', url: '/config', headers: { host: 'finance.localhost:8080' } });
    expect(finance.json().Data).toMatchObject({ Brand: 'finance', RegisterLink: null, FinanceUrl: '/api/finance/' });
    const health = await server.app.inject({ method: 'GET', url: '/health' });
    expect(health.json().Data).toMatchObject({ status: 'ok' });
  });

  it('answers /health 503 "degraded" while the database cannot be reached, from a ping at most 2 s old, then ok again', async () => {
    const sql = server.database.sql;
    const query = sql.query;
    const health = async () => {
      const res = await server.app.inject({ method: 'GET', url: '/health' });
      return [res.statusCode, (res.json().Data as { status: string }).status] as const;
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(await health()).toEqual([200, 'ok']);
      sql.query = async () => {
        throw new Error('connect ECONNREFUSED');
      };
      // Within 2 s of the last ping the cached answer stands: the database is not asked on every poll.
      expect(await health()).toEqual([200, 'ok']);
      vi.setSystemTime(Date.now() + 2500);
      expect(await health()).toEqual([503, 'degraded']);
      sql.query = query;
      vi.setSystemTime(Date.now() + 2500);
      expect(await health()).toEqual([200, 'ok']);
    } finally {
      sql.query = query;
      vi.useRealTimers();
    }
  });

  it('serves every lookup category of spec 02 section 3', async () => {
    const s = await signIn(server, 'alice');
    const res = await server.app.inject({ method: 'GET', url: '/api/lookup/get', headers: authHeaders(s, 'card') });
    const categories = new Set((res.json().Data as { Category: string }[]).map((i) => i.Category));
    for (const c of [
      'Claim Type',
      'Claim Status',
      'Bill Entry Type',
      'Transaction Type',
      'Document Type',
      'Note Type',
      'Email Status',
      'PBM Vendor',
      'DME Vendor',
      'Account Status',
      'Customer Type',
      'Address Type',
      'State Code',
      'Phone Type',
    ]) {
      expect(categories).toContain(c);
    }
  });

  it('answers a plugin route with 404 on a brand that does not enable the plugin', async () => {
    const s = await signIn(server, 'root');
    const staff = await server.app.inject({ method: 'GET', url: '/api/help/topics', headers: authHeaders(s, 'staff') });
    expect(staff.statusCode).toBe(200);
    // The quote brand does not enable help: its host answers 404 for the plugin's routes, signed in or not.
    const quote = await server.app.inject({ method: 'GET', url: '/api/help/topics', headers: authHeaders(s, 'quote') });
    expect(quote.statusCode).toBe(404);
    const anonymous = await server.app.inject({ method: 'GET', url: '/api/help/topics', headers: { host: 'quote.localhost' } });
    expect(anonymous.statusCode).toBe(404);
  });

  it('shows the brand index on unknown hosts and echoes a request id', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/', headers: { host: 'unknown.example.com', 'x-request-id': 'abcdef123456' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('card.localhost');
    expect(res.headers['x-request-id']).toBe('abcdef123456');
  });
});

describe("messages in the user's language", () => {
  const identity = (headers: Record<string, string>) =>
    server.app.inject({ method: 'GET', url: '/api/account/user/identity', headers: { host: 'card.localhost', ...headers } });

  it('answers in Spanish for a browser whose remembered choice is Spanish, whatever its preferred language', async () => {
    const res = await identity({ cookie: 'x=1; cq.lang=es', 'accept-language': 'en-US,en;q=0.9' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ HasError: true, MsgText: 'Inicie sesión para continuar.' });
  });

  it("follows the browser's preferred language without a choice, and a remembered English over a Spanish browser", async () => {
    expect((await identity({ 'accept-language': 'es-MX,es;q=0.9' })).json().MsgText).toBe('Inicie sesión para continuar.');
    expect((await identity({ 'accept-language': 'es', cookie: 'cq.lang=en' })).json().MsgText).toBe('Please sign in to continue.');
    expect((await identity({})).json().MsgText).toBe('Please sign in to continue.');
  });

  it('remembers the language a member signs in with, for the e-mails written to them', async () => {
    const ids = identityService(server.database.sql);
    const signInAs = (cookie: string) =>
      server.app.inject({
        ...form({ grant_type: 'password', UserName: 'alice', Password: TEST_PASSWORD }, '10.7.1.1'),
        headers: { ...form({}).headers, cookie },
      });
    expect((await signInAs('cq.lang=es')).statusCode).toBe(200);
    expect(await ids.languageOfMember(member.memberId as number)).toBe('es');
    expect((await ids.findById(member.userId))?.language).toBe('es');
    expect((await signInAs('cq.lang=en')).statusCode).toBe(200);
    expect(await ids.languageOfMember(member.memberId as number)).toBe('en');
    expect(await ids.languageOfMember(999_999)).toBe('en');
  });

  it('words sign-in errors, with their values, in Spanish', async () => {
    const spanish = (body: Record<string, string>, ip: string) => {
      const f = form(body, ip);
      return server.app.inject({ ...f, headers: { ...f.headers, cookie: 'cq.lang=es' } });
    };
    const wrong = await spanish({ grant_type: 'password', UserName: 'alice', Password: 'wrong' }, '10.7.0.1');
    expect(wrong.json()).toEqual({ error: 'invalid_grant', error_description: 'El nombre de usuario o la contraseña son incorrectos.' });
    for (let i = 0; i < 9; i++) await spanish({ grant_type: 'password', UserName: 'ghost-es', Password: 'bad' }, '10.7.0.2');
    await spanish({ grant_type: 'password', UserName: 'ghost-es', Password: 'bad' }, '10.7.0.2');
    const blocked = await spanish({ grant_type: 'password', UserName: 'ghost-es', Password: 'bad' }, '10.7.0.2');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error_description).toMatch(/^Demasiados intentos fallidos de inicio de sesión\. Inténtelo de nuevo en \d+ minuto\(s\)\.$/);
  });
});

describe('refused input, worded in the user language', () => {
  it("gives zod's own texts in Spanish and keeps the field's path", async () => {
    const s = await signIn(server, 'alice');
    const get = (extra: Record<string, string>) =>
      server.app.inject({ method: 'GET', url: '/api/contacts/getById/not-a-number', headers: authHeaders(s, 'card', extra) });
    const english = await get({});
    expect(english.statusCode).toBe(400);
    expect(english.json().MsgText).toMatch(/^params\.id: /);
    const spanish = await get({ cookie: 'cq.lang=es' });
    expect(spanish.statusCode).toBe(400);
    expect(spanish.json().MsgText).toMatch(/^params\.id: /);
    expect(spanish.json().MsgText).not.toBe(english.json().MsgText);
    expect(spanish.json().MsgText).toBe('params.id: debe ser un identificador escrito solo con dígitos decimales');
  });

  it("gives zod's default texts in Spanish too", async () => {
    const s = await signIn(server, 'alice');
    const post = (extra: Record<string, string>) =>
      server.app.inject({
        method: 'POST',
        url: '/api/contacts/search',
        headers: { ...authHeaders(s, 'card', extra), 'content-type': 'application/json' },
        payload: '[]',
      });
    expect((await post({})).json().MsgText).toMatch(/^body: Invalid input: expected object/);
    expect((await post({ cookie: 'cq.lang=es' })).json().MsgText).toMatch(/^body: Entrada inválida: se esperaba objeto/);
  });

  it("words a shared schema's kit key as the kit does, in either language", async () => {
    const s = await signIn(server, 'alice');
    const create = (extra: Record<string, string>) =>
      server.app.inject({
        method: 'POST',
        url: '/api/contacts/create',
        headers: { ...authHeaders(s, 'card', extra), 'content-type': 'application/json' },
        payload: { FirstName: 'Ana', LastName: 'Ruiz', Email: 'not-an-email' },
      });
    expect((await create({})).json().MsgText).toBe('body.Email: Enter a valid e-mail address.');
    expect((await create({ cookie: 'cq.lang=es' })).json().MsgText).toBe('body.Email: Ingrese un correo electrónico válido.');
  });

  it('words a contract message with values from its template, the values put in after translating', async () => {
    const s = await signIn(server, 'alice');
    const search = (extra: Record<string, string>) =>
      server.app.inject({
        method: 'POST',
        url: '/api/contacts/search',
        headers: { ...authHeaders(s, 'card', extra), 'content-type': 'application/json' },
        payload: { PageSize: 7 },
      });
    const values = CONTACT_PAGE_SIZES.join(', ');
    expect((await search({})).json().MsgText).toBe(`body.PageSize: must be one of ${values}`);
    expect((await search({ cookie: 'cq.lang=es' })).json().MsgText).toBe(`body.PageSize: debe ser uno de estos: ${values}`);
  });

  it('words the kernel refusal of characters that are not allowed in Spanish, with the field in it', async () => {
    const s = await signIn(server, 'alice');
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/contacts/search',
      headers: { ...authHeaders(s, 'card', { cookie: 'cq.lang=es' }), 'content-type': 'application/json' },
      payload: '{"Name":"a\\u0000b"}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toBe('body.Name: contiene caracteres no permitidos (NUL o un sustituto sin pareja).');
  });
});
