import { interpolate, msg, placeholders } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { createTranslator } from './translator';

const translator = createTranslator([
  { source: 'kernel', catalogues: { es: { 'Not found.': 'No se encontró.', 'a PDF document': 'un documento PDF' } } },
  {
    source: 'bills',
    catalogues: {
      es: {
        'Bill {{id}} was paid on {{day}}.': 'El {{day}} se pagó la factura {{id}}.',
        "The content of '{{fileName}}' is not {{label}}.": "El contenido de '{{fileName}}' no es {{label}}.",
      },
    },
  },
]);

describe('server messages in the user language', () => {
  it('English is the message itself, values put in', () => {
    expect(translator.t('Not found.', 'en')).toBe('Not found.');
    expect(translator.t(msg('Bill {{id}} was paid on {{day}}.', { id: 7, day: '01/02/2026' }), 'en')).toBe('Bill 7 was paid on 01/02/2026.');
  });

  it('Spanish comes from the catalogues, and a translation may move the values', () => {
    expect(translator.t('Not found.', 'es')).toBe('No se encontró.');
    expect(translator.t(msg('Bill {{id}} was paid on {{day}}.', { id: 7, day: '01/02/2026' }), 'es')).toBe('El 01/02/2026 se pagó la factura 7.');
  });

  it('a value that is a message is translated with it; other values are left as they are', () => {
    const m = msg("The content of '{{fileName}}' is not {{label}}.", { fileName: 'Not found.', label: msg('a PDF document') });
    expect(translator.t(m, 'es')).toBe("El contenido de 'Not found.' no es un documento PDF.");
    expect(translator.t(m, 'en')).toBe("The content of 'Not found.' is not a PDF document.");
  });

  it('a message without a translation goes out in English, with its values, never as a key', () => {
    expect(translator.t('Something new.', 'es')).toBe('Something new.');
    expect(translator.t(msg('{{n}} rows were read.', { n: 3 }), 'es')).toBe('3 rows were read.');
    expect(translator.has('Something new.', 'es')).toBe(false);
    expect(translator.has('Not found.', 'es')).toBe(true);
  });

  it('values are not HTML-escaped (answers are JSON) and are not read as templates', () => {
    expect(translator.t(msg('Bill {{id}} was paid on {{day}}.', { id: '<b>&', day: '{{id}}' }), 'es')).toBe('El {{id}} se pagó la factura <b>&.');
  });

  it('refuses at start-up a translation that drops or invents a placeholder', () => {
    expect(() => createTranslator([{ source: 'x', catalogues: { es: { 'Paid {{n}}.': 'Pagado.' } } }])).toThrow(/x: the es text of "Paid \{\{n\}\}\."/);
    expect(() => createTranslator([{ source: 'x', catalogues: { es: { 'Paid.': 'Pagado {{n}}.' } } }])).toThrow(/placeholders/);
  });

  it('refuses two sources translating the same English differently, and accepts the same translation twice', () => {
    const a = { source: 'a', catalogues: { es: { 'Saved.': 'Guardado.' } } };
    expect(() => createTranslator([a, { source: 'b', catalogues: { es: { 'Saved.': 'Se guardó.' } } }])).toThrow(/b and a translate "Saved\." differently/);
    expect(createTranslator([a, { source: 'c', catalogues: { es: { 'Saved.': 'Guardado.' } } }]).t('Saved.', 'es')).toBe('Guardado.');
  });

  it('interpolate and placeholders', () => {
    expect(interpolate('{{a}} and {{ b }} and {{c}}', { a: 1, b: 'two' })).toBe('1 and two and {{c}}');
    expect(placeholders('{{a}} {{b}} {{a}}')).toEqual(['a', 'b']);
  });
});
