import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EICAR, findsEicar } from './scanner';

const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p, 'latin1')));

describe('the sandbox scanner finds the EICAR test file as it streams', () => {
  it('finds the signature whole, and split across chunk boundaries', async () => {
    expect(await findsEicar(chunks('head ', EICAR, ' tail'))).toBe(true);
    for (const at of [1, 10, 34, EICAR.length - 1]) expect(await findsEicar(chunks('x'.repeat(5), EICAR.slice(0, at), EICAR.slice(at), 'y'))).toBe(true);
    expect(await findsEicar(chunks(...EICAR.split('')))).toBe(true);
  });
  it('reports other bytes as clean, including most of the signature', async () => {
    expect(await findsEicar(chunks('%PDF-1.7 a clean file'))).toBe(false);
    expect(await findsEicar(chunks(EICAR.slice(0, -1)))).toBe(false);
    expect(await findsEicar(chunks())).toBe(false);
  });
});
