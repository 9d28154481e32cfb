import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';

describe('csv', () => {
  it('quotes, escapes and neutralises formulas', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['=SUM(A1)', -3],
          [null, new Date('2024-01-02T00:00:00Z')],
        ],
        { bom: false },
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n\'=SUM(A1),-3\r\n,2024-01-02T00:00:00.000Z\r\n');
    expect(toCsv(['a'], []).startsWith('\uFEFF')).toBe(true);
  });

  it('guards every formula lead-in of text but leaves negative numbers numeric', () => {
    expect(['+1', '-1', '@x', '\tx', '\rx'].map(csvField)).toEqual(["'+1", "'-1", "'@x", "'\tx", '"\'\rx"']);
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(undefined)).toBe('');
    expect(csvField(new Date('invalid'))).toBe('');
  });
});
