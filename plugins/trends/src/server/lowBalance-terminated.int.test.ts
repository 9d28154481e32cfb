import type { StartedServer } from '@portal/app-server/server';
import { Roles } from '@portal/core';
import { createSandbox, mailTo } from '@portal/sandbox';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOW_BALANCE_SUBJECT, TrendsApi } from '../contract';

/** The low-balance e-mail and a terminated membership: the reading is recorded, no mail is sent; reactivated, it is. */
let sandbox: Awaited<ReturnType<typeof createSandbox>>;
let sandboxUrl: string;
let server: StartedServer & { dropDatabase(): Promise<void> };

beforeAll(async () => {
  sandbox = await createSandbox({ dataDir: null });
  sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  server = await startTestServer({ sandboxUrl, smtpUrl: null });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

const post = (session: Session, path: string, body: object) =>
  server.app.inject({ method: 'POST', url: path, headers: authHeaders(session, 'card'), payload: body });
const inbox = async (to: string) => {
  await server.jobs.drain();
  return (await mailTo(sandboxUrl, to)).filter((m) => m.subject === LOW_BALANCE_SUBJECT);
};
const stored = async (memberId: number) =>
  (
    await server.database.sql.query<{ below: boolean; balance_cents: number; notified: boolean }>(
      'SELECT below, balance_cents::int AS balance_cents, notified_at IS NOT NULL AS notified FROM trends_low_balance WHERE member_id = $1',
      [memberId],
    )
  )[0];

describe('low-balance e-mail and a terminated membership', () => {
  it('records a terminated member’s reading under the threshold but sends no mail; after reactivation the next crossing mails', async () => {
    const memberId = (await makeUser(server, { userName: 'lowbal-ended', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId ?? 0;
    const session = await signIn(server, 'lowbal-ended', undefined, undefined, 'card');
    expect((await post(session, '/api/members/terminate', {})).statusCode).toBe(200);
    await server.jobs.drain();

    const low = await post(session, TrendsApi.lowBalance.path, { Balance: 5, AccountType: 'Checking' });
    expect(low.statusCode, low.body).toBe(200);
    expect(low.json().Data).toEqual({ Sent: false, Below: true });
    expect(await stored(memberId)).toEqual({ below: true, balance_cents: 500, notified: false });
    expect(await inbox('lowbal-ended@example.com')).toHaveLength(0);

    // Reactivated: back over the threshold, then under it again, the crossing mails as for any member.
    expect((await post(session, '/api/members/reactivate', {})).statusCode).toBe(200);
    await server.jobs.drain();
    expect((await post(session, TrendsApi.lowBalance.path, { Balance: 250, AccountType: 'Checking' })).json().Data).toEqual({ Sent: false, Below: false });
    expect((await post(session, TrendsApi.lowBalance.path, { Balance: 7, AccountType: 'Checking' })).json().Data).toEqual({ Sent: true, Below: true });
    const mails = await inbox('lowbal-ended@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('$7.00');
  });
});
