import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIdempotencyKey, messageIdFor, SmtpMailTransport } from './mail';

/** A minimal SMTP server (no extensions, no TLS) that keeps the DATA of every message it accepts. */
function smtpServer(received: string[]): Server {
  return createServer((socket) => {
    let buffer = '';
    let data: string | null = null;
    socket.setEncoding('utf8');
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.push(data + buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = null;
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol).toUpperCase();
        buffer = buffer.slice(eol + 2);
        if (line.startsWith('DATA')) {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
}

const received: string[] = [];
const server = smtpServer(received);
let smtpUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const messageIdOf = (raw: string) => /^Message-ID: (.*)\r?$/im.exec(raw)?.[1];

describe('idempotency keys for mail', () => {
  it("a queued delivery's key is the job's kind and id", () => {
    expect(jobIdempotencyKey({ name: 'mail.send', id: '0b5c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4' })).toBe('mail.send.0b5c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4');
  });

  it("a keyed mail's Message-ID is the key at the From address's domain, base64url when the key is no dot-atom", () => {
    expect(messageIdFor('mail.send.0b5c9d1e', 'support@finance.example.com')).toBe('<mail.send.0b5c9d1e@finance.example.com>');
    expect(messageIdFor('mail.send.0b5c9d1e', '"CareGuard Finance" <support@Finance.Example.com>')).toBe('<mail.send.0b5c9d1e@finance.example.com>');
    expect(messageIdFor('a key:with (specials)', 'support@finance.example.com')).toBe(
      `<${Buffer.from('a key:with (specials)').toString('base64url')}@finance.example.com>`,
    );
    expect(messageIdFor('..dots', 'support@finance.example.com')).toBe(`<${Buffer.from('..dots').toString('base64url')}@finance.example.com>`);
    expect(messageIdFor('k1', 'no domain')).toBe('<k1@portal.invalid>');
  });

  it('SMTP sends every attempt with one key under the same Message-ID (SMTP cannot refuse the copy; clients can tell it)', async () => {
    const transport = new SmtpMailTransport(smtpUrl);
    const mail = { from: 'support@finance.example.com', to: 'ann@example.com', subject: 'Activate', text: 'Hello Ann' };
    received.length = 0;
    await transport.send(mail, { idempotencyKey: 'mail.send.0b5c9d1e' });
    await transport.send(mail, { idempotencyKey: 'mail.send.0b5c9d1e' });
    await transport.send(mail);
    await transport.send(mail);
    expect(received).toHaveLength(4);
    const ids = received.map(messageIdOf);
    expect(ids[0]).toBe('<mail.send.0b5c9d1e@finance.example.com>');
    expect(ids[1]).toBe(ids[0]);
    // Without a key, each send gets a Message-ID of its own.
    expect(ids[2]).toMatch(/^<.+@.+>$/);
    expect(new Set(ids).size).toBe(3);
  });
});
