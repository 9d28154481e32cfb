import { describe, expect, it } from 'vitest';
import { acceptedLanguages, cookieValue, detectLanguage } from './format/locale';
import { PRERENDERED_PAGES, prerenderedFile, prerenderedPageNames, requestLanguage } from './prerender';

describe('acceptedLanguages', () => {
  it('orders an Accept-Language header by q, then by position, without * and q=0', () => {
    expect(acceptedLanguages('es-MX,es;q=0.9,en;q=0.8')).toEqual(['es-MX', 'es', 'en']);
    expect(acceptedLanguages('en;q=0.5, es;q=0.9, fr')).toEqual(['fr', 'es', 'en']);
    expect(acceptedLanguages('*, de;q=0, it;q=0.1')).toEqual(['it']);
    expect(acceptedLanguages('')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('en;q=abc')).toEqual([]);
  });
});

describe('cookieValue', () => {
  it('finds one cookie by exact name and decodes it', () => {
    expect(cookieValue('a=1; cq.lang=es; b=2', 'cq.lang')).toBe('es');
    expect(cookieValue('xcq.lang=es', 'cq.lang')).toBeNull();
    expect(cookieValue('name=J%C3%BCrgen', 'name')).toBe('Jürgen');
    expect(cookieValue(undefined, 'cq.lang')).toBeNull();
  });
});

describe('requestLanguage', () => {
  it('decides as the browser will (detectLanguage): the remembered choice, else the first preferred language', () => {
    expect(requestLanguage({})).toBe('en');
    expect(requestLanguage({ 'accept-language': 'es-US,en;q=0.5' })).toBe('es');
    expect(requestLanguage({ 'accept-language': 'fr,es;q=0.9' })).toBe(detectLanguage(null, ['fr', 'es']));
    expect(requestLanguage({ 'accept-language': 'es', cookie: 'cq.lang=en' })).toBe('en');
    expect(requestLanguage({ 'accept-language': 'en', cookie: ['x=1', 'cq.lang=es'] })).toBe('es');
    expect(requestLanguage({ 'accept-language': 'es', cookie: 'cq.lang=de' })).toBe('es');
  });
});

describe('prerendered pages', () => {
  it('name the sign-in page for /login and /register, one file per language', () => {
    expect(PRERENDERED_PAGES['/login']).toBe('sign-in');
    expect(PRERENDERED_PAGES['/register']).toBe('sign-in');
    expect(prerenderedPageNames()).toEqual(['sign-in']);
    expect(prerenderedFile('sign-in', 'es')).toBe('prerendered/sign-in.es.html');
  });
});
