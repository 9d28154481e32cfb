import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_FILE_NAME, uploadFileName } from './fileName';

const length = (s: string) => [...s].length;

describe('uploadFileName', () => {
  it('keeps an ordinary name as given, accents and other scripts included', () => {
    for (const name of ['receipt.pdf', 'Dr. Smith, visit.PDF', 'Recibo médico ñ.pdf', '陈伟 发票.png', 'O’Brien 😀.jpg', 'no extension'])
      expect(uploadFileName(name)).toBe(name);
  });

  it('writes the name in NFC (a decomposed é from macOS is one character)', () => {
    expect(uploadFileName('Re\u0301sume\u0301.pdf')).toBe('Résumé.pdf');
  });

  it('drops control and bidirectional-override characters, and makes any run of whitespace one space', () => {
    expect(uploadFileName('a\u0001b.pdf')).toBe('ab.pdf');
    expect(uploadFileName('line\nbreak.pdf')).toBe('line break.pdf');
    expect(uploadFileName('  tab\t\tand\r\n  spaces \u00a0.pdf  ')).toBe('tab and spaces .pdf');
    expect(uploadFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(uploadFileName('\u2066x\u2069\u200e\u200f\ufeff\u0080\u009f.pdf')).toBe('x.pdf');
    expect(uploadFileName('a \u0001 b.pdf')).toBe('a b.pdf');
    expect(uploadFileName('next\u0085line\u2028.pdf')).toBe('next line .pdf');
  });

  it('makes slashes hyphens and writes half a surrogate pair as U+FFFD', () => {
    expect(uploadFileName('C:\\fakepath/receipt.pdf')).toBe('C:-fakepath-receipt.pdf');
    expect(uploadFileName('bad\uD800.pdf')).toBe('bad\uFFFD.pdf');
  });

  it('gives a name that is only an extension a base, and drops any other leading dot', () => {
    expect(uploadFileName('.png')).toBe('file.png');
    expect(uploadFileName('..pdf')).toBe('file.pdf');
    expect(uploadFileName(' .pdf')).toBe('file.pdf');
    expect(uploadFileName('.hidden.pdf')).toBe('hidden.pdf');
    expect(uploadFileName('...')).toBe('file');
    expect(uploadFileName('')).toBe('file');
    expect(uploadFileName('\u0001\u202e ')).toBe('file');
  });

  it('cuts a long name to 200 characters, keeping the extension, never inside a character', () => {
    const chinese = uploadFileName(`${'陈'.repeat(300)}.pdf`);
    expect(length(chinese)).toBe(MAX_UPLOAD_FILE_NAME);
    expect(chinese).toBe(`${'陈'.repeat(196)}.pdf`);
    const accents = uploadFileName(`${'é'.repeat(250)}.docx`);
    expect(accents).toBe(`${'é'.repeat(195)}.docx`);
    // An emoji is two UTF-16 units but one character; a flag is two characters shown as one, kept whole or dropped.
    const emoji = uploadFileName(`${'😀'.repeat(250)}.png`);
    expect(emoji).toBe(`${'😀'.repeat(196)}.png`);
    const flags = uploadFileName(`x${'🇪🇸'.repeat(120)}.png`);
    expect(flags).toBe(`x${'🇪🇸'.repeat(97)}.png`);
    // No extension: the name is cut; a space left at the cut is dropped.
    expect(uploadFileName(`${'a'.repeat(199)} tail`)).toBe('a'.repeat(199));
    expect(uploadFileName('a'.repeat(300))).toBe('a'.repeat(200));
    expect(uploadFileName(`${'x'.repeat(10)}.pdf`, 8)).toBe('xxxx.pdf');
    // Exactly 200 stays.
    expect(uploadFileName(`${'b'.repeat(196)}.pdf`)).toBe(`${'b'.repeat(196)}.pdf`);
  });
});
