import { MAX_AMOUNT as CLAIMS_MAX_AMOUNT } from '@portal/plugin-claims/contract';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, checkDateAndAmount, checkFiles, ReimbursementMessages as M, MAX_AMOUNT, MAX_FILE_BYTES, sanitizeFileName } from './rules';

describe('sanitizeFileName: dots, spaces, commas, colons and hyphens become a hyphen', () => {
  it('cleans the name and keeps the extension, lower case', () => {
    expect(sanitizeFileName('Dr. Smith, 3:30 - visit.PDF')).toBe('Dr--Smith--3-30---visit.pdf');
    expect(sanitizeFileName('receipt.jpg')).toBe('receipt.jpg');
    expect(sanitizeFileName('a.b.c.png')).toBe('a-b-c.png');
    expect(sanitizeFileName('no extension')).toBe('no-extension');
  });

  it('makes no folders of a name with slashes or backslashes', () => {
    expect(sanitizeFileName('a//b.pdf')).toBe('a--b.pdf');
    expect(sanitizeFileName('..\\..\\x.png')).toBe('------x.png');
  });
});

describe('checkFiles', () => {
  const f = (name: string, size = 10) => ({ name, size });
  it('needs at least one file and at most 10', () => {
    expect(checkFiles([])).toBe(M.noFile);
    expect(checkFiles(Array.from({ length: 10 }, (_, i) => f(`r${i}.pdf`)))).toBeNull();
    expect(checkFiles(Array.from({ length: 11 }, (_, i) => f(`r${i}.pdf`)))).toBe(M.tooMany);
  });
  it('takes an empty file (0 bytes) for no copy of a receipt', () => {
    expect(checkFiles([f('receipt.pdf', 0)])).toBe(M.noFile);
    expect(checkFiles([f('receipt.pdf'), f('blank.png', 0)])).toBe(M.noFile);
    expect(checkFiles([f('receipt.pdf', 1)])).toBeNull();
  });
  it('allows the listed extensions only, in any case', () => {
    for (const ext of ['pdf', 'gif', 'jpeg', 'jpg', 'png', 'doc', 'docx', 'xls', 'XLSX']) expect(checkFiles([f(`x.${ext}`)])).toBeNull();
    for (const name of ['run.exe', 'notes.txt', 'pdf', 'archive.zip']) expect(checkFiles([f(name)])).toBe(M.extension);
  });
  it('allows 1 GB per file, not a byte more', () => {
    expect(checkFiles([f('big.pdf', MAX_FILE_BYTES)])).toBeNull();
    expect(checkFiles([f('big.pdf', MAX_FILE_BYTES + 1)])).toBe(M.tooLarge);
    expect(MAX_FILE_BYTES % CHUNK_BYTES).toBe(0);
  });
});

describe('checkDateAndAmount', () => {
  const today = '2026-11-22';
  it('needs both, a positive amount, and a date not in the future', () => {
    expect(checkDateAndAmount('', '10', today)).toBe(M.dateAndAmount);
    expect(checkDateAndAmount('2026-11-01', '', today)).toBe(M.dateAndAmount);
    expect(checkDateAndAmount('2026-11-01', 'ten', today)).toBe(M.dateAndAmount);
    expect(checkDateAndAmount('2026-11-01', '0', today)).toBe(M.dateAndAmount);
    expect(checkDateAndAmount('2026-11-23', '10', today)).toBe(M.futureDate);
    expect(checkDateAndAmount('2026-11-22', '$1,234.50', today)).toBeNull();
    expect(checkDateAndAmount('2025-01-31', 12.5, today)).toBeNull();
  });
});

describe('MAX_AMOUNT', () => {
  it("is the claims plugin's cap: each request becomes a bill there", () => {
    expect(MAX_AMOUNT).toBe(CLAIMS_MAX_AMOUNT);
  });
});
