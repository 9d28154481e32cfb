import type { AddressInfo } from 'node:net';
import { loadBrands } from '@portal/brands';
import { installedPluginIds } from '@portal/brands/plugins';
import { SmtpMailTransport } from '@portal/server/kernel';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activationMail } from './mail-templates';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}
const received: Received[] = [];
let smtp: SMTPServer;
let port = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

/** The decoded text of a quoted-printable MIME part (soft line breaks joined, =XX bytes decoded). */
function decodeQuotedPrintable(s: string): string {
  const joined = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const m = /^=([0-9A-F]{2})/.exec(joined.slice(i, i + 3));
    if (m?.[1]) {
      bytes.push(Number.parseInt(m[1], 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i] ?? ''));
  }
  return Buffer.from(bytes).toString('utf8');
}

function textPart(raw: string): string {
  const part = /Content-Type: text\/plain[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*?\r?\n([\s\S]*?)\r?\n--/i.exec(raw);
  if (!part?.[1]) throw new Error(`no text part in:\n${raw}`);
  const header = /Content-Type: text\/plain[\s\S]*?\r?\n\r?\n/i.exec(raw)?.[0] ?? '';
  if (/Content-Transfer-Encoding: quoted-printable/i.test(header)) return decodeQuotedPrintable(part[1]);
  if (/Content-Transfer-Encoding: base64/i.test(header)) return Buffer.from(part[1], 'base64').toString('utf8');
  return part[1];
}

// No database (a real SMTP server and the brands' files): the PostgreSQL run skips it rather than repeat it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('SMTP mail transport', () => {
  it('delivers an activation mail with its subject and body to a real SMTP server', async () => {
    const brand = loadBrands(installedPluginIds()).find((b) => b.id === 'finance');
    if (!brand) throw new Error('no finance brand');
    const mail = activationMail({ brand, site: 'http://finance.localhost:8080', to: 'smtp-ann@example.com', firstName: 'Ann', urlId: 'abcDEF_123-xyz' });
    const transport = new SmtpMailTransport(`smtp://127.0.0.1:${port}`);
    expect(transport.kind).toBe('smtp');
    await transport.send(mail);

    expect(received).toHaveLength(1);
    const got = received[0];
    if (!got) throw new Error('nothing received');
    expect(got.from).toBe('support@finance.example.com');
    expect(got.to).toEqual(['smtp-ann@example.com']);
    expect(got.raw).toMatch(/^Subject: Activate your CareGuard Finance account\r?$/m);
    expect(got.raw).toMatch(/^From: "?CareGuard Finance"? <support@finance\.example\.com>\r?$/m);
    const text = textPart(got.raw);
    expect(text).toContain('Hello Ann,');
    expect(text).toContain('http://finance.localhost:8080/login/activate/abcDEF_123-xyz');
    expect(text).toContain('support@finance.example.com');
    expect(got.raw).toMatch(/Content-Type: text\/html/i);
  });

  it('reports a refused delivery as an error', async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(_address, _session, cb) {
        cb(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', () => resolve()));
    try {
      const p = (refusing.server.address() as AddressInfo).port;
      const transport = new SmtpMailTransport(`smtp://127.0.0.1:${p}`);
      await expect(transport.send({ from: 'a@example.com', to: 'b@example.com', subject: 's', text: 't' })).rejects.toThrow(/mailbox unavailable|550/);
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});
