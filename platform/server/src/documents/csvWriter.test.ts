import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeCsv } from './csvWriter';
import type { SheetColumn, SheetRow } from './sheet';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

const columns: SheetColumn[] = [
  { header: 'Claim, id', key: 'id', format: 'text' },
  { header: 'Paid', key: 'cents', format: 'money' },
  { header: 'Day', key: 'day', format: 'date' },
  { header: 'Note', key: 'note' },
];

describe('writeCsv', () => {
  it('writes a BOM, a quoted header, CRLF lines and values by column format', async () => {
    const rows: (SheetRow | SheetRow[])[] = [
      [
        { id: '00042', cents: 123456, day: '2024-02-29', note: 'say "hi", then go' },
        { id: 43, cents: -5, day: new Date(Date.UTC(2023, 11, 31)), note: null },
      ],
      { id: '-1', cents: 0, day: 'soon', note: '=SUM(A1)' },
    ];
    expect(await text(writeCsv({ sheetName: 'x', columns, rows }))).toBe(
      '\uFEFF"Claim, id",Paid,Day,Note\r\n' +
        '00042,1234.56,2024-02-29,"say ""hi"", then go"\r\n' +
        '43,-0.05,2023-12-31,\r\n' +
        // Text that a spreadsheet would run as a formula gets a leading quote mark; amounts stay numeric.
        "'-1,0.00,soon,'=SUM(A1)\r\n",
    );
  });

  it('leaves the BOM out on request and reads rows from an async source', async () => {
    async function* rows(): AsyncGenerator<SheetRow> {
      yield { id: 'a', cents: 100, day: null, note: 'x' };
      yield { id: 'b', cents: 250, day: null, note: 'y' };
    }
    expect(await text(writeCsv({ sheetName: 'x', columns, rows: rows() }, { bom: false }))).toBe('"Claim, id",Paid,Day,Note\r\na,1.00,,x\r\nb,2.50,,y\r\n');
  });
});
