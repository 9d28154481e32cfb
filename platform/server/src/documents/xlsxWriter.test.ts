import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { SheetRow } from './sheet';
import { writeXlsx } from './xlsxWriter';

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function readBack(stream: Readable): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  // exceljs types its input as an ArrayBuffer; a copy gives one.
  await workbook.xlsx.load(new Uint8Array(await bytes(stream)).buffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  return sheet;
}

describe('writeXlsx', () => {
  it('writes a header row and typed cells by column format', async () => {
    const sheet = await readBack(
      writeXlsx({
        sheetName: 'Claims [2024]: paid?',
        columns: [
          { header: 'Claim', key: 'id', format: 'text' },
          { header: 'Paid', key: 'cents', format: 'money', width: 16 },
          { header: 'Service date', key: 'day', format: 'date' },
          { header: 'Units', key: 'units', format: 'number' },
          { header: 'Note', key: 'note' },
          { header: 'Closed', key: 'closed' },
        ],
        rows: [
          [
            { id: '00042', cents: 123456, day: '2024-02-29', units: 3, note: 'A & B <x>', closed: true },
            { id: 43, cents: -5, day: new Date(Date.UTC(2023, 11, 31)), units: 2.5, note: '=HYPERLINK("http://x")', closed: false },
          ],
          { id: '00044', cents: null, day: 'not a day', units: null, note: 'bell\u0007 gone', closed: null },
        ],
      }),
    );
    expect(sheet.name).toBe('Claims  2024   paid');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Claim', 'Paid', 'Service date', 'Units', 'Note', 'Closed']);
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.getColumn(2).width).toBe(16);
    expect(sheet.rowCount).toBe(4);

    const row2 = sheet.getRow(2);
    expect(row2.getCell(1).value).toBe('00042');
    expect(row2.getCell(1).numFmt).toBe('@');
    expect(row2.getCell(2).value).toBe(1234.56);
    expect(row2.getCell(2).numFmt).toBe('#,##0.00');
    expect(row2.getCell(3).value).toEqual(new Date(Date.UTC(2024, 1, 29)));
    expect(row2.getCell(3).numFmt).toBe('yyyy-mm-dd');
    expect(row2.getCell(4).value).toBe(3);
    expect(row2.getCell(5).value).toBe('A & B <x>');
    expect(row2.getCell(6).value).toBe(true);

    const row3 = sheet.getRow(3);
    expect(row3.getCell(1).value).toBe('43');
    expect(row3.getCell(2).value).toBe(-0.05);
    expect(row3.getCell(3).value).toEqual(new Date(Date.UTC(2023, 11, 31)));
    // Text that looks like a formula stays text: the writer never makes formulas.
    expect(row3.getCell(5).value).toBe('=HYPERLINK("http://x")');
    expect(row3.getCell(5).formula).toBeUndefined();

    const row4 = sheet.getRow(4);
    expect(row4.getCell(2).value).toBeNull();
    expect(row4.getCell(3).value).toBe('not a day');
    expect(row4.getCell(5).value).toBe('bell gone');
  });

  it('streams rows from an async source batch by batch, every row once and in order', async () => {
    async function* batches(): AsyncGenerator<SheetRow[]> {
      for (let b = 0; b < 5; b++) {
        await new Promise((resolve) => setImmediate(resolve));
        yield Array.from({ length: 1000 }, (_, i) => ({ n: b * 1000 + i + 1, when: new Date(Date.UTC(2024, 0, 1, 12, 30)) }));
      }
    }
    const sheet = await readBack(
      writeXlsx({
        sheetName: 'Big',
        columns: [
          { header: 'N', key: 'n' },
          { header: 'When', key: 'when' },
        ],
        rows: batches(),
      }),
    );
    expect(sheet.rowCount).toBe(5001);
    const numbers: unknown[] = [];
    sheet.eachRow((row, i) => {
      if (i > 1) numbers.push(row.getCell(1).value);
    });
    expect(numbers).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    // An unformatted Date keeps its time.
    expect(sheet.getCell('B2').value).toEqual(new Date(Date.UTC(2024, 0, 1, 12, 30)));
    expect(sheet.getCell('B2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  });

  it('stops pulling rows while nobody reads the file, and goes on when read', async () => {
    let pulled = 0;
    async function* rows(): AsyncGenerator<SheetRow[]> {
      for (let b = 0; b < 60; b++) {
        pulled++;
        yield Array.from({ length: 500 }, () => ({ a: randomBytes(24).toString('hex') }));
      }
    }
    const stream = writeXlsx({ sheetName: 'x', columns: [{ header: 'A', key: 'a' }], rows: rows() });
    // Wait until the writer stands still (or would have pulled everything).
    let last = -1;
    for (let i = 0; i < 40 && pulled !== last; i++) {
      last = pulled;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(pulled).toBeLessThan(30);
    expect((await bytes(stream)).length).toBeGreaterThan(500_000);
    expect(pulled).toBe(60);
  });

  it('fails the stream when the row source fails', async () => {
    async function* broken(): AsyncGenerator<SheetRow> {
      yield { a: 1 };
      throw new Error('database went away');
    }
    await expect(bytes(writeXlsx({ sheetName: 'x', columns: [{ header: 'A', key: 'a' }], rows: broken() }))).rejects.toThrow('database went away');
  });
});
