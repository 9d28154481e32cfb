import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './app';
import { latestMailTo, linksIn } from './client';
import { linkify } from './html';
import type { SandboxMail } from './mail';

let app: FastifyInstance;
beforeAll(async () => {
  app = await createSandbox({ dataDir: null });
});
afterAll(() => app?.close());

const post = (payload: unknown) => app.inject({ method: 'POST', url: '/mail/api/messages', payload: payload as object });
const postKeyed = (payload: unknown, key: string) =>
  app.inject({ method: 'POST', url: '/mail/api/messages', headers: { 'idempotency-key': key }, payload: payload as object });
const mailTo = async (to: string) => (await app.inject(`/mail/api/messages?to=${encodeURIComponent(to)}`)).json() as SandboxMail[];

// The sandbox's own embedded database, whichever engine the run tests: the PostgreSQL run skips it rather than repeat it.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('sandbox mail inbox', () => {
  it('answers health and sends / to the inbox', async () => {
    expect((await app.inject('/health')).json()).toEqual({ status: 'ok', service: 'sandbox' });
    const root = await app.inject('/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/mail');
  });

  it('stores a message and lists mail for an address newest first', async () => {
    const a = await post({ from: 'support@finance.example.com', to: 'ann@example.com', subject: 'First', text: 'one', brand: 'finance' });
    expect(a.statusCode).toBe(201);
    await post({ from: 'x@example.com', to: 'bob@example.com', subject: 'Other', text: 'not for ann' });
    const b = await post({ from: 'support@finance.example.com', to: 'Ann@Example.com', subject: 'Second', text: 'two', html: '<p>two</p>' });
    const list = (await app.inject('/mail/api/messages?to=ann@example.com')).json() as SandboxMail[];
    expect(list.map((m) => m.subject)).toEqual(['Second', 'First']);
    expect(list[0]).toMatchObject({ id: b.json().id, html: '<p>two</p>', brand: null, to: 'Ann@Example.com' });
    expect(list[1]).toMatchObject({ id: a.json().id, from: 'support@finance.example.com', text: 'one', brand: 'finance' });
    const one = await app.inject(`/mail/api/messages/${a.json().id}`);
    expect(one.json()).toMatchObject({ subject: 'First' });
    expect((await app.inject('/mail/api/messages/999999')).statusCode).toBe(404);
    expect((await app.inject('/mail/api/messages/abc')).statusCode).toBe(400);
  });

  it('refuses bad input with a clear message', async () => {
    const noTo = await post({ from: 'a@example.com', subject: 's', text: 't' });
    expect(noTo.statusCode).toBe(400);
    expect(noTo.json().error).toMatch(/^Invalid message: to:/);
    const badTo = await post({ from: 'a@example.com', to: 'not-an-address', subject: 's', text: 't' });
    expect(badTo.json().error).toContain('to must be an e-mail address');
    const noText = await post({ from: 'a@example.com', to: 'a@example.com', subject: 's' });
    expect(noText.json().error).toContain('text');
    expect((await app.inject({ method: 'POST', url: '/mail/api/messages', headers: { 'content-type': 'application/json' }, payload: '{' })).statusCode).toBe(
      400,
    );
    expect((await app.inject('/mail/api/messages?limit=0')).statusCode).toBe(400);
  });

  it('stores a message sent again with its Idempotency-Key once, and answers the first message (200, same id)', async () => {
    const mail = { from: 'support@finance.example.com', to: 'once@example.com', subject: 'Activate', text: 'Hello once', brand: 'finance' };
    const first = await postKeyed(mail, 'mail.send.0b5c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await postKeyed(mail, 'mail.send.0b5c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await mailTo('once@example.com')).map((m) => m.id)).toEqual([first.json().id]);
    // Another key is another message, and so is a send without a key.
    expect((await postKeyed(mail, 'mail.send.other')).statusCode).toBe(201);
    expect((await post(mail)).statusCode).toBe(201);
    expect(await mailTo('once@example.com')).toHaveLength(3);
  });

  it('refuses a key used for a different message with 409, storing nothing', async () => {
    const mail = { from: 'a@example.com', to: 'conflict@example.com', subject: 'First', text: 'one' };
    const first = await postKeyed(mail, 'key-conflict-1');
    expect(first.statusCode).toBe(201);
    const other = await postKeyed({ ...mail, text: 'two' }, 'key-conflict-1');
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe(`The Idempotency-Key key-conflict-1 was already used for a different message (${first.json().id}).`);
    expect((await mailTo('conflict@example.com')).map((m) => m.text)).toEqual(['one']);
  });

  it('stores one message for requests racing with one key', async () => {
    const mail = { from: 'a@example.com', to: 'race@example.com', subject: 'Race', text: 'once' };
    const answers = await Promise.all([1, 2, 3, 4].map(() => postKeyed(mail, 'key-race-1')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 201]);
    const ids = new Set(answers.map((a) => a.json().id));
    expect(ids.size).toBe(1);
    expect((await mailTo('race@example.com')).map((m) => m.id)).toEqual([...ids]);
  });

  it('refuses an empty, overlong or malformed Idempotency-Key with 400, storing nothing', async () => {
    const mail = { from: 'a@example.com', to: 'badkey@example.com', subject: 'Bad key', text: 't' };
    const error = 'The Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces).';
    for (const key of ['', 'k'.repeat(256), 'two words', 'caf\u00e9', 'tab\tkey']) {
      const res = await postKeyed(mail, key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json().error).toBe(error);
    }
    expect(await mailTo('badkey@example.com')).toEqual([]);
    expect((await postKeyed(mail, 'k'.repeat(255))).statusCode).toBe(201);
  });

  it('shows the inbox page and each message with escaped text and clickable links', async () => {
    const text = 'Hello <b>Ann</b> & co.\nActivate: http://finance.localhost:8080/login/activate/abc_DEF-123?x=1&y="2".\nBye';
    const res = await post({ from: 'support@finance.example.com', to: 'page@example.com', subject: 'Activate <now>', text, brand: 'finance' });
    const id = res.json().id as number;
    const inbox = await app.inject('/mail');
    expect(inbox.headers['content-type']).toContain('text/html');
    expect(inbox.headers['content-security-policy']).toContain("default-src 'none'");
    expect(inbox.body).toContain('page@example.com');
    expect(inbox.body).toContain(`<a href="/mail/${id}">Activate &lt;now&gt;</a>`);
    expect(inbox.body).toContain('<span class="brand">finance</span>');
    const filtered = await app.inject('/mail?to=bob@example.com');
    expect(filtered.body).not.toContain('page@example.com');

    const view = await app.inject(`/mail/${id}`);
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain('Hello &lt;b&gt;Ann&lt;/b&gt; &amp; co.');
    expect(view.body).not.toContain('<b>Ann</b>');
    // The quote ends the address; the sentence's full stop is not part of it.
    expect(view.body).toContain(
      '<a href="http://finance.localhost:8080/login/activate/abc_DEF-123?x=1&amp;y=" rel="noopener noreferrer">http://finance.localhost:8080/login/activate/abc_DEF-123?x=1&amp;y=</a>&quot;2&quot;.',
    );
    expect((await app.inject('/mail/424242')).statusCode).toBe(404);
    expect((await app.inject('/mail/nope')).statusCode).toBe(404);
  });

  it("shows a message's HTML part in a sandboxed frame (escaped into srcdoc, its links opening in the whole tab) and the text part under it", async () => {
    const html =
      '<!doctype html><html><head><title>t</title></head><body><p>Hi &amp; "you"</p><a href="http://finance.localhost:8080/login">Sign in</a></body></html>';
    const res = await post({
      from: 'support@finance.example.com',
      to: 'html@example.com',
      subject: 'With HTML',
      text: 'Sign in: http://finance.localhost:8080/login',
      html,
    });
    const view = await app.inject(`/mail/${res.json().id}`);
    const frame = /<iframe class="mail-html" title="The message" sandbox="([^"]*)" srcdoc="([^"]*)"><\/iframe>/.exec(view.body);
    expect(frame?.[1]).toBe('allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation');
    expect(frame?.[1]).not.toContain('allow-scripts');
    expect(frame?.[1]).not.toContain('allow-same-origin');
    // The attribute holds the whole HTML, escaped, with a base that sends its links to the whole tab.
    const srcdoc = (frame?.[2] ?? '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
    expect(srcdoc).toBe(html.replace('<head>', '<head><base target="_top">'));
    expect(view.body).toContain('<details><summary>Plain-text part</summary><pre class="mail-text">Sign in: <a href="http://finance.localhost:8080/login"');
    // Without a <head> (a <header> is not one), the base goes first.
    const headless = await post({ from: 'a@example.com', to: 'html@example.com', subject: 'Headless', text: 't', html: '<header>Hi</header>' });
    expect((await app.inject(`/mail/${headless.json().id}`)).body).toContain('srcdoc="&lt;base target=&quot;_top&quot;&gt;&lt;header&gt;Hi&lt;/header&gt;"');
    // A message without HTML shows its text as before, with no frame.
    const plain = await post({ from: 'a@example.com', to: 'html@example.com', subject: 'Plain', text: 'just text' });
    expect((await app.inject(`/mail/${plain.json().id}`)).body).not.toContain('<iframe');
  });

  it('links only http and https addresses and trims sentence punctuation', () => {
    expect(linkify('go to http://a.example/x. or (https://b.example/y) javascript:alert(1)')).toBe(
      'go to <a href="http://a.example/x" rel="noopener noreferrer">http://a.example/x</a>. or (<a href="https://b.example/y" rel="noopener noreferrer">https://b.example/y</a>) javascript:alert(1)',
    );
    expect(linkify('<script>')).toBe('&lt;script&gt;');
  });

  it('keeps mail on disk across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-'));
    try {
      const first = await createSandbox({ dataDir: join(dir, 'sandbox') });
      await first.inject({ method: 'POST', url: '/mail/api/messages', payload: { from: 'a@example.com', to: 'disk@example.com', subject: 'kept', text: 't' } });
      await first.close();
      const second = await createSandbox({ dataDir: join(dir, 'sandbox') });
      const list = (await second.inject('/mail/api/messages?to=disk@example.com')).json() as SandboxMail[];
      expect(list.map((m) => m.subject)).toEqual(['kept']);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the client helper over a real port', async () => {
    const served = await createSandbox({ dataDir: null });
    const address = await served.listen({ port: 0, host: '127.0.0.1' });
    try {
      const pending = latestMailTo(address, 'later@example.com', { timeoutMs: 5000 });
      setTimeout(() => {
        void fetch(`${address}/mail/api/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ from: 'a@example.com', to: 'later@example.com', subject: 'Reset', text: 'Use https://x.example/login/reset/abc.' }),
        });
      }, 200);
      const mail = await pending;
      expect(mail.subject).toBe('Reset');
      expect(linksIn(mail)).toEqual(['https://x.example/login/reset/abc']);
      await expect(latestMailTo(address, 'later@example.com', { timeoutMs: 200, afterId: mail.id })).rejects.toThrow(/no mail/);
    } finally {
      await served.close();
    }
  });
});
