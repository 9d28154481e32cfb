import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { deterministicPdf } from './deterministic';

/** The parts of a pdfkit file deterministicPdf replaces: the creation date (an object of its own) and the file ID. */
const bytes = (date = '(D:20260115093012Z)') =>
  Buffer.from(
    `%PDF-1.3\n1 0 obj\n<< /CreationDate 2 0 R >>\nendobj\n2 0 obj\n${date}\nendobj\ntrailer\n<< /ID [<${'a'.repeat(32)}> <${'a'.repeat(32)}>] >>\n%%EOF\n`,
    'latin1',
  );
const pdf = (date?: string) => Readable.from([bytes(date)]);

describe('deterministicPdf', () => {
  it("replaces the creation date by the document's day and the ID by a hash, keeping the file's length (its offsets stay right)", async () => {
    const source = await deterministicPdf(pdf(), '2025-05-10');
    const text = source.toString('latin1');
    expect(text).toContain('(D:20250510000000Z)');
    expect(text).not.toContain('a'.repeat(32));
    expect(source.length).toBe(bytes().length);
    expect((await deterministicPdf(pdf('(D:20990101000000Z)'), '2025-05-10')).equals(source)).toBe(true);
  });

  it('refuses a day that is not YYYY-MM-DD (it would change the length and break the cross-reference table)', async () => {
    for (const day of ['May 10, 2025', '10 de mayo de 2025', '2025-5-10', '20250510']) await expect(deterministicPdf(pdf(), day)).rejects.toThrow(/day/);
  });

  it('refuses a PDF without a creation date or file ID', async () => {
    await expect(deterministicPdf(Readable.from([Buffer.from('%PDF-1.3\n%%EOF\n')]), '2025-05-10')).rejects.toThrow();
  });
});
