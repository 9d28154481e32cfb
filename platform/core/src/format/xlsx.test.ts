import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32';
import { toCsv } from './csv';
import { columnName, writeXlsx, xmlEscape } from './xlsx';
import { zip } from './zip';

interface Unzipped {
  name: string;
  data: Uint8Array;
}

/** Reads a stored zip through its central directory, checking each entry's CRC and local header. */
function unzip(bytes: Uint8Array): Unzipped[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = bytes.length - 22;
  expect(view.getUint32(eocd, true)).toBe(0x06054b50);
  const count = view.getUint16(eocd + 10, true);
  const centralSize = view.getUint32(eocd + 12, true);
  let at = view.getUint32(eocd + 16, true);
  expect(at + centralSize).toBe(eocd);
  const decoder = new TextDecoder();
  const out: Unzipped[] = [];
  for (let i = 0; i < count; i++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    expect(view.getUint16(at + 10, true)).toBe(0);
    const crc = view.getUint32(at + 16, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    expect(view.getUint32(local, true)).toBe(0x04034b50);
    expect(view.getUint32(local + 14, true)).toBe(crc);
    const localName = view.getUint16(local + 26, true);
    const localExtra = view.getUint16(local + 28, true);
    const start = local + 30 + localName + localExtra;
    const data = bytes.subarray(start, start + size);
    expect(crc32(data)).toBe(crc);
    out.push({ name, data });
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

describe('crc32', () => {
  it('matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
    const a = new TextEncoder().encode('1234');
    const b = new TextEncoder().encode('56789');
    expect(crc32(b, crc32(a))).toBe(0xcbf43926);
  });
});

describe('zip', () => {
  it('round-trips entries', () => {
    const files = unzip(
      zip([
        { name: 'a.txt', data: 'hello' },
        { name: 'dir/é.bin', data: new Uint8Array([0, 1, 2, 255]) },
      ]),
    );
    expect(files.map((f) => f.name)).toEqual(['a.txt', 'dir/é.bin']);
    expect(new TextDecoder().decode(files[0]?.data)).toBe('hello');
    expect([...(files[1]?.data ?? [])]).toEqual([0, 1, 2, 255]);
  });
});

describe('xlsx', () => {
  it('names columns', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
    expect(xmlEscape('<a & "b">\u0001')).toBe('&lt;a &amp; &quot;b&quot;&gt;');
  });

  it('writes a workbook whose sheet holds the rows', () => {
    const bytes = writeXlsx({
      name: 'Claims [2024]',
      header: ['Id', 'Name', 'Paid'],
      rows: [
        [1, 'A & B <x>', true],
        [2.5, null, false],
      ],
    });
    const files = unzip(bytes);
    expect(files.map((f) => f.name)).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/worksheets/sheet1.xml',
    ]);
    const text = (name: string) => new TextDecoder().decode(files.find((f) => f.name === name)?.data);
    expect(text('xl/workbook.xml')).toContain('<sheet name="Claims  2024" sheetId="1" r:id="rId1"/>');
    const sheet = text('xl/worksheets/sheet1.xml');
    expect(sheet).toContain('<row r="1"><c r="A1" t="inlineStr"><is><t xml:space="preserve">Id</t></is></c>');
    expect(sheet).toContain(
      '<c r="A2"><v>1</v></c><c r="B2" t="inlineStr"><is><t xml:space="preserve">A &amp; B &lt;x&gt;</t></is></c><c r="C2" t="b"><v>1</v></c>',
    );
    expect(sheet).toContain('<row r="3"><c r="A3"><v>2.5</v></c><c r="C3" t="b"><v>0</v></c></row>');
    expect(sheet.endsWith('</sheetData></worksheet>')).toBe(true);
  });
});

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
});
