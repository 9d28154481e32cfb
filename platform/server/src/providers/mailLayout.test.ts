import type { BrandManifest, Message } from '@portal/core';
import { PALETTES } from '@portal/themes/palettes';
import { describe, expect, it } from 'vitest';
import { brandedMail, brandSender } from './mailLayout';

const card = {
  id: 'card',
  displayName: 'Amethyst "Card"',
  theme: 'card',
  contacts: { phone: '(800) 555-0170', fax: '(800) 555-0171', supportEmail: 'support@card.example.com', infoEmail: 'info@card.example.com' },
} as unknown as BrandManifest;
/** English, as a translator without a Spanish catalogue answers. */
const t = (m: Message) => String(m);

const base = {
  brand: card,
  site: 'http://card.localhost:8080',
  to: 'ann@example.com',
  subject: 'Reset your <Amethyst> password',
  greeting: 'Hello <Ann>,',
  paragraphs: ['We received a request & more.'],
  action: { label: 'Choose a new password', url: 'http://card.localhost:8080/login/reset/abc?x=1&y=2' },
  notes: ['The link can be used once and expires in 1 hour.'],
  t,
};

describe('brandedMail', () => {
  it("draws the brand's band, button and footer in its palette, and sends from its support address", () => {
    const mail = brandedMail(base);
    const palette = PALETTES.card;
    expect(palette).toBeDefined();
    expect(mail.from).toBe('"Amethyst Card" <support@card.example.com>');
    expect(mail.brand).toBe('card');
    expect(mail.html).toContain(`background:${palette?.brandAccent};color:#ffffff;padding:16px 24px`);
    expect(mail.html).toMatch(
      new RegExp(
        `<a href="http://card.localhost:8080/login/reset/abc\\?x=1&amp;y=2" style="[^"]*background:${palette?.brandAccent}[^"]*">Choose a new password</a>`,
      ),
    );
    expect(mail.html).toContain('If the button does not work, copy this address into your browser:');
    expect(mail.html).toContain('Questions? Contact us at support@card.example.com or (800) 555-0170.');
    expect(mail.html).toContain(`<a href="http://card.localhost:8080/" style="color:${palette?.link}">Amethyst &quot;Card&quot;</a>`);
  });

  it('escapes every text it is given: a name or a description cannot add markup', () => {
    const mail = brandedMail({ ...base, details: [{ label: '<b>What</b>', value: '"x" & <y>' }] });
    expect(mail.html).toContain('<title>Reset your &lt;Amethyst&gt; password</title>');
    expect(mail.html).toContain('Hello &lt;Ann&gt;,');
    expect(mail.html).toContain('We received a request &amp; more.');
    expect(mail.html).toContain('>&lt;b&gt;What&lt;/b&gt;</th>');
    expect(mail.html).toContain('>&quot;x&quot; &amp; &lt;y&gt;</td>');
    expect(mail.html).not.toContain('<Ann>');
    expect(mail.html).not.toContain('<b>What</b>');
  });

  it('says the same in the plain-text part: the action as "label: address", the facts as "label: value" lines', () => {
    const mail = brandedMail({ ...base, details: [{ label: 'Card', value: 'XXXX1111' }] });
    expect(mail.text.split('\n')).toEqual([
      'Hello <Ann>,',
      '',
      'We received a request & more.',
      '',
      'Choose a new password: http://card.localhost:8080/login/reset/abc?x=1&y=2',
      '',
      'Card: XXXX1111',
      '',
      'The link can be used once and expires in 1 hour.',
      '',
      'Questions? Contact us at support@card.example.com or (800) 555-0170.',
      'Amethyst "Card" - http://card.localhost:8080',
    ]);
  });

  it("words the layout's own lines with t and writes the HTML's language", () => {
    const spanish = (m: Message) => (m === 'If the button does not work, copy this address into your browser:' ? 'Si el botón no funciona:' : t(m));
    const mail = brandedMail({ ...base, t: spanish, language: 'es' });
    expect(mail.html).toContain('<html lang="es">');
    expect(mail.html).toContain('Si el botón no funciona:');
  });

  it('without a brand: no band, no footer, the neutral colours and the no-reply sender', () => {
    const mail = brandedMail({ ...base, brand: null, site: null, action: undefined });
    expect(brandSender(null)).toBe('no-reply@portal.example.com');
    expect(mail.from).toBe('no-reply@portal.example.com');
    expect(mail.brand).toBeUndefined();
    expect(mail.html).not.toContain('border-radius:8px 8px 0 0');
    expect(mail.html).not.toContain('Questions?');
    expect(mail.html).not.toContain('If the button does not work');
    expect(mail.text.split('\n').at(-1)).toBe('The link can be used once and expires in 1 hour.');
  });
});
