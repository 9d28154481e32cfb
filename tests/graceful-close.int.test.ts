/**
 * Closing the API while it answers (a rolling restart, WORKERS=N stopping; platform/server/src/http/drain.ts): a route
 * handler still running finishes its writes before the database closes, and a keep-alive connection busy when the
 * close began ends after its answer instead of holding the close for its keep-alive timeout.
 * On the database of the run: PGlite in a data directory of its own (reopened afterwards), or a fresh PostgreSQL
 * database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, type StartedServer } from '@portal/app-server/server';
import { openDatabase, passwordChecksInFlight } from '@portal/server/kernel';
import { freshDatabaseUrl, makeUser, startTestServer, TEST_PASSWORD } from '@portal/testing/server';
import { describe, expect, it } from 'vitest';

interface Opened {
  server: StartedServer;
  port: number;
  reopen(): Promise<Awaited<ReturnType<typeof openDatabase>>>;
  cleanup(): Promise<void>;
}

function portOf(server: StartedServer): number {
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no port');
  return address.port;
}

/** A server on its own database, kept on disk (PGlite) or on the server, so it can be read after the close. */
async function openServer(): Promise<Opened> {
  const { databaseUrl, drop } = await freshDatabaseUrl();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-close-'));
  const config = { databaseUrl, dataDir, fileStore: { kind: 'memory' as const }, tokenSecret: 'close-test-secret' };
  const server = await createServer(config, { logger: false, workJobs: false });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    server,
    port: portOf(server),
    reopen: () => openDatabase({ databaseUrl, dataDir }),
    cleanup: async () => {
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A sign-in written on a raw socket (HTTP/1.1, kept alive), so the test decides when the client goes. */
function sendSignIn(port: number, userName: string): { socket: Socket; answer: Promise<string> } {
  const body = new URLSearchParams({ grant_type: 'password', UserName: userName, Password: TEST_PASSWORD }).toString();
  const socket = connect(port, '127.0.0.1');
  socket.write(
    `POST /token HTTP/1.1\r\nHost: staff.localhost\r\nConnection: keep-alive\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    text += d;
  });
  socket.on('error', () => {});
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  return { socket, answer };
}

/** Until the sign-in's password check runs: the handler has the request and has not written the session yet. */
async function passwordCheckStarted(): Promise<void> {
  for (let i = 0; i < 500 && passwordChecksInFlight() === 0; i++) await sleep(2);
  if (passwordChecksInFlight() === 0) throw new Error('the sign-in never reached its password check');
}

describe('closing the API while it answers', () => {
  it('waits for a sign-in whose client has gone: its session is written before the database closes', async () => {
    const o = await openServer();
    try {
      const { userId } = await makeUser(o.server, { userName: 'close.gone', roles: ['CareGuardSupport'], brand: 'staff' });
      const { socket } = sendSignIn(o.port, 'close.gone');
      await passwordCheckStarted();
      socket.destroy();
      await o.server.close();

      const db = await o.reopen();
      try {
        const sessions = await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [userId]);
        expect(sessions[0]?.n).toBe(1);
      } finally {
        await db.close();
      }
    } finally {
      await o.cleanup();
    }
  });

  it('ends a keep-alive connection busy when the close began after its answer, without waiting for its keep-alive timeout', async () => {
    const server = await startTestServer();
    await makeUser(server, { userName: 'close.kept', roles: ['CareGuardSupport'], brand: 'staff' });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { answer } = sendSignIn(portOf(server), 'close.kept');
    await passwordCheckStarted();
    const started = Date.now();
    await server.close();
    const closedAfter = Date.now() - started;

    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(text).toContain('"access_token"');
    // Fastify's keep-alive timeout is 72 s; the answer itself takes a password check.
    expect(closedAfter).toBeLessThan(5_000);
  });
});
