import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDay, formatMomentDay } from './calendarDay';
import { formatLocale, isLanguage, LANGUAGES, languageOf, localeOf, setFormatLocale } from './locale';

describe('languages', () => {
  it('maps browser tags to the portal languages', () => {
    expect(LANGUAGES).toEqual(['en', 'es']);
    expect(languageOf('es-MX')).toBe('es');
    expect(languageOf('ES_us')).toBe('es');
    expect(languageOf('en-GB')).toBe('en');
    expect(languageOf('fr-FR')).toBeNull();
    expect(languageOf('')).toBeNull();
    expect(languageOf(undefined)).toBeNull();
    expect(isLanguage('es')).toBe(true);
    expect(isLanguage('es-US')).toBe(false);
    expect(localeOf('en')).toBe('en-US');
    expect(localeOf('es')).toBe('es-US');
  });
});

// ICU separates the time from AM/PM with a narrow no-break space; compare with plain spaces.
const plain = (s: string) => s.replace(/\s/g, ' ');

describe('formatDay', () => {
  const day = { year: 2024, month: 1, day: 31 };
  it('writes numeric days month first in both languages', () => {
    expect(formatDay(day, 'numeric', 'en-US')).toBe('01/31/2024');
    expect(formatDay(day, 'numeric', 'es-US')).toBe('01/31/2024');
    expect(formatDay({ year: 50, month: 6, day: 1 }, 'numeric', 'en-US')).toBe('06/01/0050');
  });
  it('names months in the language', () => {
    expect(formatDay(day, 'medium', 'en-US')).toBe('Jan 31, 2024');
    expect(formatDay(day, 'medium', 'es-US')).toBe('31 ene 2024');
    expect(formatDay(day, 'long', 'en-US')).toBe('January 31, 2024');
    expect(formatDay(day, 'long', 'es-US')).toBe('31 de enero de 2024');
  });
  it('keeps the day whatever the zone: no offset moves a calendar day', () => {
    expect(formatDay({ year: 2024, month: 12, day: 31 }, 'long', 'es-US')).toBe('31 de diciembre de 2024');
    expect(formatDay({ year: 2024, month: 1, day: 1 }, 'medium', 'en-US')).toBe('Jan 1, 2024');
  });
  it('follows the current locale when none is given', () => {
    const before = formatLocale();
    try {
      setFormatLocale('es-US');
      expect(formatDay(day, 'medium')).toBe('31 ene 2024');
      setFormatLocale('en-US');
      expect(formatDay(day, 'medium')).toBe('Jan 31, 2024');
    } finally {
      setFormatLocale(before);
    }
  });
});

describe('formatDateTime', () => {
  it('shows the local day and time in the language', () => {
    const at = new Date(2024, 0, 31, 14, 5);
    expect(plain(formatDateTime(at, 'en-US'))).toBe('01/31/2024 2:05 PM');
    expect(plain(formatDateTime(at, 'es-US'))).toBe('01/31/2024 2:05 p.m.');
    expect(plain(formatDateTime(at.toISOString(), 'es-US'))).toBe('01/31/2024 2:05 p.m.');
  });
  it('is empty for nothing or an invalid moment', () => {
    expect(formatDateTime(null, 'en-US')).toBe('');
    expect(formatDateTime('', 'en-US')).toBe('');
    expect(formatDateTime('not a date', 'es-US')).toBe('');
  });
});

describe('formatMomentDay', () => {
  it("shows a moment's local day alone, in the language", () => {
    const at = new Date(2024, 0, 31, 23, 55);
    expect(formatMomentDay(at, 'medium', 'en-US')).toBe('Jan 31, 2024');
    expect(formatMomentDay(at.toISOString(), 'medium', 'es-US')).toBe(formatDay({ year: 2024, month: 1, day: 31 }, 'medium', 'es-US'));
    expect(formatMomentDay(null, 'medium', 'en-US')).toBe('');
    expect(formatMomentDay('not a date', 'medium', 'en-US')).toBe('');
  });
});
