import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pdfService, sheetService } from './services';
import type { SheetRow } from './sheet';

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
});
