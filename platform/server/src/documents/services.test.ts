import type { Readable } from 'node:stream';
import { type Language, type Message, msg } from '@portal/core';
import ExcelJS from 'exceljs';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { pdfService, sheetService, type Translate, translatedDocuments } from './services';
import type { SheetRow } from './sheet';

const pdfText = async (raw: Buffer) => (await extractText(await getDocumentProxy(new Uint8Array(raw)), { mergePages: true })).text;

/** A stand-in for the kernel's catalogues: Spanish for the texts it knows, English (with values) for the rest. */
const SPANISH: Record<string, string> = {
  'Monthly statement': 'Estado de cuenta mensual',
  'Opening balance': 'Saldo inicial',
  Transactions: 'Transacciones',
  Amount: 'Importe',
  'Dear {{name}},': 'Estimado/a {{name}}:',
  'Page {{page}} of {{count}}': 'Página {{page}} de {{count}}',
  'Phone {{phone}}': 'Teléfono {{phone}}',
  Ledger: 'Libro',
};
const translate: Translate = (m: Message, language: Language) => {
  if (language === 'en') return String(m);
  const template = typeof m === 'string' ? m : m.template;
  const words = SPANISH[template] ?? template;
  return typeof m === 'string' ? words : words.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(m.params[name]));
};

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

describe('the pdf and sheets services', () => {
  it('hand back a stream at once and fill it once the library has loaded', async () => {
    const pdf = await bytes(pdfService.render({ title: 'Statement', blocks: [{ type: 'paragraph', text: 'Hello' }] }));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
    const xlsx = await bytes(sheetService.xlsx({ sheetName: 'S', columns: [{ header: 'A', key: 'a' }], rows: [{ a: 1 }] }));
    // A zip archive: the local file header signature.
    expect(xlsx.readUInt32LE(0)).toBe(0x04034b50);
    const csv = await bytes(sheetService.csv({ sheetName: 'S', columns: [{ header: 'A', key: 'a' }], rows: [{ a: 1 }] }, { bom: false }));
    expect(csv.toString()).toBe('A\r\n1\r\n');
  });

  it('pass a failure of the rows on to the stream', async () => {
    async function* broken(): AsyncGenerator<SheetRow> {
      yield { a: 1 };
      throw new Error('query cancelled');
    }
    await expect(bytes(sheetService.xlsx({ sheetName: 'S', columns: [{ header: 'A', key: 'a' }], rows: broken() }))).rejects.toThrow('query cancelled');
  });

  it("write a document's words in its language through the kernel's translation, and its values as given", async () => {
    const { pdf } = translatedDocuments(pdfService, sheetService, translate);
    const spec = {
      title: 'Monthly statement',
      brand: { displayName: 'CareGuard', contacts: { phone: '(800) 555-0100' } },
      blocks: [
        { type: 'paragraph' as const, text: msg('Dear {{name}},', { name: 'Ana Núñez' }) },
        { type: 'keyValue' as const, rows: [{ label: 'Opening balance', value: 'Transactions' }] },
        { type: 'heading' as const, text: 'Transactions' },
        { type: 'table' as const, columns: [{ header: 'Amount' }], rows: [['$1.00']] },
      ],
    };
    const spanish = await pdfText(await bytes(pdf.render({ ...spec, language: 'es' })));
    for (const words of [
      'Estado de cuenta mensual',
      'Estimado/a Ana Núñez:',
      'Saldo inicial',
      'Transacciones',
      'Importe',
      'Página 1 de 1',
      'Teléfono (800) 555-0100',
    ])
      expect(spanish).toContain(words);
    // A value is data: the word "Transactions" as a value stays as it was given.
    expect(spanish).toMatch(/Saldo inicial\s*Transactions/);
    const english = await pdfText(await bytes(pdf.render(spec)));
    for (const words of ['Monthly statement', 'Dear Ana Núñez,', 'Opening balance', 'Page 1 of 1', 'Phone (800) 555-0100']) expect(english).toContain(words);
    expect(english).not.toContain('Saldo');
  });

  it("write a sheet's tab name and column headers in its language, the cells as given", async () => {
    const { sheets } = translatedDocuments(pdfService, sheetService, translate);
    const spec = { sheetName: 'Ledger', language: 'es' as const, columns: [{ header: 'Amount', key: 'a' }], rows: [{ a: 'Amount' }] };
    const csv = await bytes(sheets.csv(spec, { bom: false }));
    expect(csv.toString()).toBe('Importe\r\nAmount\r\n');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await bytes(sheets.xlsx(spec))) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe('Libro');
    expect(sheet?.getRow(1).getCell(1).value).toBe('Importe');
    expect(sheet?.getRow(2).getCell(1).value).toBe('Amount');
  });

  it('write English without a translation, whatever the language', async () => {
    const csv = await bytes(
      sheetService.csv(
        { sheetName: 'Ledger', language: 'es', columns: [{ header: msg('Amount in {{unit}}', { unit: 'USD' }), key: 'a' }], rows: [] },
        { bom: false },
      ),
    );
    expect(csv.toString()).toBe('Amount in USD\r\n');
  });
});
