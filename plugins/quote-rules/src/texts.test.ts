import { interpolate, placeholders, Text } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { CHECK_TEXTS, type CheckText, english, TERM_MESSAGES, textOf } from './engine/index';
import serverEs from './server/i18n/es.json';
import { checkWords } from './web/components/format';
import webEn from './web/i18n/en.json';
import webEs from './web/i18n/es.json';

/*
 * The checks' words are said alike by the server (its catalogue, by English text) and the browser (its own, by key).
 * The server's translator itself is exercised by quote.int.test.ts; here its Spanish is the catalogue's text with the
 * values (and the words in them) put in, as the translator does.
 */
const catalogue: Record<string, string> = serverEs;
/** The server's Spanish of a message. */
const spanish = (message: Text | string): string => {
  if (!(message instanceof Text)) return catalogue[message] ?? message;
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(message.params)) params[name] = value instanceof Text ? spanish(value) : value;
  return interpolate(catalogue[message.template] ?? message.template, params);
};
/** The browser's t over its catalogue: a dotted key, {{name}} values (the web's i18next does the same with these texts). */
const webT =
  (lng: 'en' | 'es') =>
  (key: string, options: Record<string, unknown> = {}): string => {
    const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], lng === 'en' ? webEn : webEs);
    if (typeof found !== 'string') throw new Error(`no ${lng} text for ${key}`);
    return interpolate(found, options as Record<string, string | number>);
  };

const deferral: CheckText = { key: 'minDeferral', params: { date: '03/01/2024', period: { key: 'days', params: { number: 30 } } } };
const types: CheckText = { key: 'termTypesRefused', params: { types: { key: 'list', params: { list: { key: 'semiAnnual' }, next: { key: 'weekly' } } } } };

describe('check texts', () => {
  it('says the words in the English of the spec, values and nested words in', () => {
    expect(english(deferral)).toBe('Benefits must start on or after 03/01/2024 (purchase date plus 30 days)');
    expect(english(types)).toBe('Semi-annual, Weekly term(s) not accepted');
  });

  it('the browser has every text, in English word for word, and the server and the browser say it alike in Spanish', () => {
    expect(webEn.checkText).toEqual(CHECK_TEXTS);
    expect(Object.keys(webEs.checkText)).toEqual(Object.keys(CHECK_TEXTS));
    for (const [key, template] of Object.entries(CHECK_TEXTS)) {
      const browser = webEs.checkText[key as keyof typeof webEs.checkText];
      expect(placeholders(browser).sort(), key).toEqual(placeholders(template).sort());
      // A template of values alone (the list) says itself in every language.
      if (key !== 'list') expect(catalogue[template], template).toBe(browser);
    }
    for (const words of [deferral, types]) {
      expect(checkWords(words, webT('en'))).toBe(english(words));
      expect(checkWords(words, webT('es'))).toBe(spanish(textOf(words)));
    }
    expect(spanish(textOf(deferral))).toBe('Los beneficios deben comenzar el 03/01/2024 o después (fecha de compra más 30 días)');
    expect(spanish(textOf(types))).toBe('Plazo(s) no aceptado(s): Semestral, Semanal');
  });

  it('the server translates every term message as the browser does', () => {
    for (const [key, message] of Object.entries(TERM_MESSAGES)) expect(spanish(message)).toBe(webEs.termMessage[key as keyof typeof TERM_MESSAGES]);
  });
});
