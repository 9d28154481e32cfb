/** Test harness for the profile plugin: the shared sandbox test server (SMS inbox, carrier lookup over HTTP) and signed-in users. */
import { type SandboxTestEnv, startSandboxTestEnv } from '@portal/testing/sandbox';
import { authHeaders, makeUser, type Session, signIn, TEST_PASSWORD } from '@portal/testing/server';

export type ProfileTestEnv = SandboxTestEnv;
export const startProfileTestEnv = (): Promise<ProfileTestEnv> => startSandboxTestEnv();

export interface TestUser {
  userId: string;
  memberId: number | null;
  session: Session;
  brand: string;
  headers(extra?: Record<string, string>): Record<string, string>;
}

let counter = 0;
/** A signed-in user of one role on one brand (a member record for member roles). */
export async function userOf(env: ProfileTestEnv, role: string, brand: string, member = true): Promise<TestUser> {
  counter++;
  const userName = `profile-${role.toLowerCase()}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
  const { userId, memberId } = await makeUser(env.server, { userName, roles: [role], brand, member });
  // Members start with a distinct mobile number the sandbox's carrier lookup knows.
  if (memberId !== null)
    await env.server.database.sql.query('UPDATE members SET mobile_phone = $2 WHERE member_id = $1', [memberId, `646555${1000 + counter}`]);
  const session = await signIn(env.server, userName, TEST_PASSWORD, `10.1.${Math.floor(counter / 200)}.${counter % 200}`, brand);
  return { userId, memberId, session, brand, headers: (extra = {}) => authHeaders(session, brand, extra) };
}
