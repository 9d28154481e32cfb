import { setFormatLocale } from '@portal/core';
import { afterEach, describe, expect, it } from 'vitest';
import { attachmentSize } from './size';

afterEach(() => setFormatLocale('en-US'));

describe("an attachment's size, written in the page's locale", () => {
  it('bytes, whole KB, MB with one decimal', () => {
    expect(attachmentSize(512, 'en-US')).toBe('512 B');
    expect(attachmentSize(20_480, 'en-US')).toBe('20 KB');
    expect(attachmentSize(1.5 * 1024 * 1024, 'en-US')).toBe('1.5 MB');
    expect(attachmentSize(2 * 1024 * 1024, 'en-US')).toBe('2.0 MB');
  });
  it('groups thousands as the locale does (not "1234.6 MB"), and follows the UI locale when none is given', () => {
    const big = 1234.56 * 1024 * 1024;
    expect(attachmentSize(big, 'en-US')).toBe('1,234.6 MB');
    setFormatLocale('es-US');
    expect(attachmentSize(big)).toBe(`${new Intl.NumberFormat('es-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(1234.56)} MB`);
    expect(attachmentSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});
