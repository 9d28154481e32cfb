import { validationMessages as m, zipSchema } from '@portal/core';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import kitEn from '../i18n/en.json';
import kitEs from '../i18n/es.json';
import { shouldShowError, stickyDirty, visibleError } from './errorVisibility';

describe('error visibility', () => {
  it('hides until dirty or submitted', () => {
    expect(shouldShowError({ isDirty: false, submitCount: 0 })).toBe(false);
    expect(shouldShowError({ isDirty: true, submitCount: 0 })).toBe(true);
    expect(shouldShowError({ isDirty: false, submitCount: 1 })).toBe(true);
  });

  it('keeps a field dirty once changed, also when its value is put back, until the form is reset', () => {
    // Typed in: dirty.
    expect(stickyDirty(false, { isDirty: true, isTouched: false, hasError: false })).toBe(true);
    // Cleared back to the empty default, still focused, now required: still dirty, so its error shows.
    expect(stickyDirty(true, { isDirty: false, isTouched: false, hasError: true })).toBe(true);
    // Put back to a valid default and left: still dirty.
    expect(stickyDirty(true, { isDirty: false, isTouched: true, hasError: false })).toBe(true);
    // The form was reset: untouched, unchanged and valid.
    expect(stickyDirty(true, { isDirty: false, isTouched: false, hasError: false })).toBe(false);
    // Never changed: not dirty, whatever its error.
    expect(stickyDirty(false, { isDirty: false, isTouched: true, hasError: true })).toBe(false);
  });

  it('translates the visible message', () => {
    const t = (key: string) => (key === 'validation.phone' ? 'Enter a 10-digit phone number.' : key);
    expect(visibleError('validation.phone', { isDirty: false, submitCount: 0 }, t)).toBeUndefined();
    expect(visibleError('validation.phone', { isDirty: true, submitCount: 0 }, t)).toBe('Enter a 10-digit phone number.');
    expect(visibleError('Plain text', { isDirty: false, submitCount: 2 }, t)).toBe('Plain text');
    expect(visibleError(undefined, { isDirty: true, submitCount: 2 }, t)).toBeUndefined();
  });

  it("shows the one ZIP message of every form with a ZIP (registration, addresses, contacts) in the page's language", () => {
    const i18n = i18next.createInstance();
    void i18n.init({ lng: 'en', fallbackLng: false, resources: { en: { kit: kitEn }, es: { kit: kitEs } }, initAsync: false, showSupportNotice: false });
    // As useKitField translates: the kit namespace, the message itself when it is no key.
    const shown = (language: 'en' | 'es', message: string | undefined) =>
      visibleError(message, { isDirty: true, submitCount: 1 }, (key) => i18n.getFixedT(language, 'kit')(key, { defaultValue: key }));
    const message = zipSchema.safeParse('123').error?.issues[0]?.message;
    expect(message).toBe(m.zip);
    expect(shown('en', message)).toBe('Enter a 5-digit ZIP code (or ZIP+4).');
    expect(shown('es', message)).toBe('Escriba un código postal de 5 dígitos (o ZIP+4).');
  });
});
