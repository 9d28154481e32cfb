import { Roles } from '@portal/core';
import { authHeaders, makeUser, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HelpApi } from '../contract';

/** The help topics call through the whole kernel guard: the topics of the user's roles, the right brand's contacts. */
let server: Awaited<ReturnType<typeof startTestServer>>;

const topics = async (headers: Record<string, string>) => {
  const res = await server.app.inject({ method: 'GET', url: HelpApi.topics.path, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data as { Topics: { Id: string }[]; SupportPhone: string | null; SupportEmail: string | null };
};

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('GET /api/help/topics', () => {
  it("gives a member the contacts of the member's own brand, also on another brand's site", async () => {
    await makeUser(server, { userName: 'help-guard', roles: [Roles.CareGuard], brand: 'card', member: true });
    const guard = await signIn(server, 'help-guard', undefined, '10.0.0.1', 'assist');
    // Signed in on the CareAssist site, a member of the card brand: the card brand's phone and e-mail, as their card
    // and letters give them.
    const help = await topics(authHeaders(guard, 'assist'));
    expect(help.SupportPhone).toBe('(800) 555-0170');
    expect(help.SupportEmail).toBe('support@card.example.com');
  });

  it("gives a login that acts for no member the site's contacts", async () => {
    await makeUser(server, { userName: 'help-support', roles: [Roles.CareSupport], brand: 'staff' });
    const support = await signIn(server, 'help-support');
    const help = await topics(authHeaders(support, 'staff'));
    expect(help.SupportPhone).toBe('(800) 555-0100');
    expect(help.SupportEmail).toBe('support@portal.example.com');
  });

  it("gives SuperUser the prepaid-card and assistance-program topics, as the header's guides do", async () => {
    await makeUser(server, { userName: 'help-super', roles: [Roles.SuperUser], brand: 'staff' });
    const superUser = await signIn(server, 'help-super');
    const ids = (await topics(authHeaders(superUser, 'staff'))).Topics.map((t) => t.Id);
    expect(ids).toContain('prepaid-card');
    expect(ids).toContain('assistance-program');
  });

  it('keeps each program topic to its own members', async () => {
    await makeUser(server, { userName: 'help-assist', roles: [Roles.CareAssist], brand: 'assist', member: true });
    const assist = await signIn(server, 'help-assist', undefined, '10.0.0.1', 'assist');
    const ids = (await topics(authHeaders(assist, 'assist'))).Topics.map((t) => t.Id);
    expect(ids).toContain('assistance-program');
    expect(ids).not.toContain('prepaid-card');
  });
});
