import type { Readable } from 'node:stream';
import { documentServices } from '@portal/testing/services';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { SampleRow } from '../contract';
import { rowsExport } from './export';
import es from './i18n/es.json';

const ROWS: SampleRow[] = [
  { Id: 7, Name: 'Pat Doe', City: 'Austin', State: 'TX', Amount: 1234.5, Date: '2024-02-29', Status: 'Settled', Category: 'Medical' },
  { Id: 8, Name: '=cmd()', City: 'Reno', State: 'NV', Amount: 0.07, Date: '2023-12-31', Status: 'Declined', Category: 'Dental' },
];
const COLUMNS = [
  { id: 'Id', header: 'Id' },
  { id: 'Name', header: 'Payee, "name"' },
  { id: 'Amount', header: 'Amount' },
  { id: 'Date', header: 'Date' },
] as const;

async function* batches(): AsyncGenerator<SampleRow[]> {
  yield ROWS;
}

async function bytes(body: Readable | Uint8Array): Promise<Buffer> {
  if (body instanceof Uint8Array) return Buffer.from(body);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const today = new Date('2024-05-06T12:00:00Z');
const { sheets } = documentServices();

describe('rowsExport', () => {
  it('writes the chosen columns as CSV: amounts with 2 decimals, formulas neutralised, named for the day', async () => {
    const file = rowsExport(sheets, 'csv', COLUMNS, batches(), today);
    expect(file.fileName).toBe('transactions-2024-05-06.csv');
    expect(file.contentType).toBe('text/csv; charset=utf-8');
    expect((await bytes(file.body)).toString('utf8')).toBe(
      '\uFEFFId,"Payee, ""name""",Amount,Date\r\n7,Pat Doe,1234.50,2024-02-29\r\n8,\'=cmd(),0.07,2023-12-31\r\n',
    );
  });

  it('writes an .xlsx whose amounts are money cells and dates are date cells', async () => {
    const file = rowsExport(sheets, 'xlsx', COLUMNS, batches(), today);
    expect(file.fileName).toBe('transactions-2024-05-06.xlsx');
    expect(file.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(await bytes(file.body)).buffer);
    const sheet = workbook.getWorksheet('Transactions');
    expect(sheet?.getRow(1).values).toEqual([undefined, 'Id', 'Payee, "name"', 'Amount', 'Date']);
    expect(sheet?.getCell('A2').value).toBe(7);
    expect(sheet?.getCell('B3').value).toBe('=cmd()');
    expect(sheet?.getCell('C2').value).toBe(1234.5);
    expect(sheet?.getCell('C2').numFmt).toBe('#,##0.00');
    expect(sheet?.getCell('C3').value).toBe(0.07);
    expect(sheet?.getCell('D2').value).toEqual(new Date(Date.UTC(2024, 1, 29)));
  });

  it("names the tab in the reader's language from the plugin's catalogue, and keeps the grid's headers as sent", async () => {
    const catalogue: Record<string, string> = es;
    const { sheets: translated } = documentServices((m, language) => (language === 'es' ? (catalogue[String(m)] ?? String(m)) : String(m)));
    const load = async (language: 'en' | 'es') => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(new Uint8Array(await bytes(rowsExport(translated, 'xlsx', COLUMNS, batches(), today, language).body)).buffer);
      return workbook.worksheets[0];
    };
    const spanish = await load('es');
    expect(spanish?.name).toBe('Transacciones');
    expect(spanish?.getRow(1).values).toEqual([undefined, 'Id', 'Payee, "name"', 'Amount', 'Date']);
    expect((await load('en'))?.name).toBe('Transactions');
  });
});
