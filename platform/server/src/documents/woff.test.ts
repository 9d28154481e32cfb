import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { woffToSfnt } from './woff';

const require = createRequire(import.meta.url);
const woff = readFileSync(require.resolve('@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff'));

describe('woffToSfnt', () => {
  it('unwraps a WOFF font into the TrueType file it holds: same tables, each inflated to its stated length', () => {
    const sfnt = woffToSfnt(woff);
    expect(sfnt.readUInt32BE(0)).toBe(woff.readUInt32BE(4)); // the flavor, 0x00010000 for TrueType
    const numTables = woff.readUInt16BE(12);
    expect(sfnt.readUInt16BE(4)).toBe(numTables);
    // WOFF's totalSfntSize: the size of the font it was made from.
    expect(sfnt.length).toBe(woff.readUInt32BE(16));
    const tags = (b: Buffer, first: number, step: number) =>
      Array.from({ length: numTables }, (_, i) => b.toString('latin1', first + i * step, first + i * step + 4));
    expect(tags(sfnt, 12, 16)).toEqual(tags(woff, 44, 20));
    expect(tags(sfnt, 12, 16)).toContain('glyf');
  });

  it('refuses what is not a WOFF 1.0 font', () => {
    expect(() => woffToSfnt(Buffer.from('wOF2 not this one'))).toThrow('not a WOFF 1.0 font');
  });
});
