import type { Readable } from 'node:stream';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { brandAccent, CARD_SIZE, type PdfDocumentSpec, renderPdf } from './pdf';

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The text of each page, through pdf.js (no poppler needed). */
async function pagesOf(spec: PdfDocumentSpec): Promise<{ raw: Buffer; pages: string[] }> {
  const raw = await bytes(renderPdf(spec));
  const pdf = await getDocumentProxy(new Uint8Array(raw));
  const { text } = await extractText(pdf, { mergePages: false });
  return { raw, pages: text };
}

const brand = { displayName: 'CareGuard Finance', contacts: { phone: '1-800-555-0100', fax: '1-800-555-0101', supportEmail: 'support@example.com' } };
const pad = (n: number) => String(n).padStart(3, '0');

describe('renderPdf', () => {
  it('writes a one-page PDF with the title, headings, paragraphs and label/value pairs', async () => {
    const { raw, pages } = await pagesOf({
      title: 'Claim statement',
      brand,
      blocks: [
        { type: 'heading', text: 'Your claim' },
        { type: 'paragraph', text: 'Café visit – balance due €12.50, thank you.' },
        {
          type: 'keyValue',
          rows: [
            { label: 'Claim number', value: 'CLM-2024-0042' },
            { label: 'Patient', value: 'Pat Doe' },
          ],
        },
      ],
    });
    expect(raw.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pages).toHaveLength(1);
    const [page] = pages;
    expect(page).toContain('Claim statement');
    expect(page).toContain('Your claim');
    expect(page).toContain('Café visit – balance due €12.50, thank you.');
    expect(page).toMatch(/Claim number\s+CLM-2024-0042/);
    expect(page).toMatch(/Patient\s+Pat Doe/);
    expect(page).toContain('Page 1 of 1');
    expect(page).toContain('CareGuard Finance');
    expect(page).toContain('Phone 1-800-555-0100');
    expect(page).toContain('support@example.com');
  });

  it('continues a long table across pages with its header repeated, every row once and in order', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => [`Row ${pad(i + 1)}`, `2024-03-${String((i % 28) + 1).padStart(2, '0')}`, `$${(i * 7.25).toFixed(2)}`]);
    const { pages } = await pagesOf({
      title: 'Payment history',
      brand,
      blocks: [
        { type: 'paragraph', text: 'Every payment on the account.' },
        {
          type: 'table',
          columns: [{ header: 'Reference' }, { header: 'Service date' }, { header: 'Amount paid', align: 'right' }],
          rows,
        },
      ],
    });
    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((page, i) => {
      expect(page, `page ${i + 1}`).toMatch(/Reference\s+Service date\s+Amount paid/);
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(page).toContain('CareGuard Finance');
      expect(page).toContain('Payment history');
    });
    const seen = pages.flatMap((page) => [...page.matchAll(/Row (\d{3})/g)].map((m) => Number(m[1])));
    expect(seen).toEqual(rows.map((_, i) => i + 1));
    expect(pages.join('\n')).toMatch(/Row 150\s+2024-03-10\s+\$1080\.25/);
  });

  it('flows a long paragraph onto the next page and keeps a table cell taller than a page to one page', async () => {
    const sentence = 'This sentence fills the page so the paragraph must continue on the next one. ';
    const { pages } = await pagesOf({
      title: 'Terms',
      blocks: [
        { type: 'paragraph', text: `${sentence.repeat(80)}The end of the terms.` },
        { type: 'table', columns: [{ header: 'Note' }], rows: [['word '.repeat(4000)], ['After the tall row']] },
      ],
    });
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.join('\n')).toContain('The end of the terms.');
    expect(pages.at(-1)).toContain('After the tall row');
    // No brand given: no contact line, still numbered.
    expect(pages[0]).not.toContain('Phone');
    expect(pages[0]).toContain(`Page 1 of ${pages.length}`);
  });

  it('prints names in every Latin, Greek and Cyrillic letter as written, in one embedded font and nothing else', async () => {
    const names = ['Łukasz Wałęsa', 'Nguyễn Thị Hồng', 'Ştefan Pătraşcu', 'Dvořák Šťastný', 'Çağla Yılmaz', 'Μαρία Παππά', 'Мария Иванова'];
    const { raw, pages } = await pagesOf({
      title: 'Member card',
      brand,
      blocks: [
        { type: 'heading', text: names[0] as string },
        { type: 'keyValue', rows: names.map((value) => ({ label: 'Member', value })) },
        { type: 'table', columns: [{ header: 'Name' }], rows: names.map((n) => [n]) },
      ],
    });
    for (const name of names) expect(pages[0]).toContain(name);
    // Only the embedded typeface (a subset of it, regular and bold): no standard font whose encoding lacks the letters.
    const fonts = [...raw.toString('latin1').matchAll(/\/BaseFont \/([^\s/>]+)/g)].map((m) => m[1]);
    expect(new Set(fonts.map((f) => f?.replace(/^[A-Z]{6}\+/, '')))).toEqual(new Set(['DejaVuSans', 'DejaVuSans-Bold']));
  });

  it('draws a card block as two ID-1 faces side by side: the back starts one card width right of the front, on one page', async () => {
    const spec: PdfDocumentSpec = {
      title: 'Prescription card',
      brand,
      blocks: [
        {
          type: 'card',
          faces: [
            {
              band: 'Amethyst Card',
              rows: [
                { label: 'Member', value: 'Pat Doe' },
                { label: 'BIN', value: '004336' },
              ],
            },
            { rows: [{ label: 'Payer number', value: '12345' }] },
          ],
        },
        { type: 'paragraph', text: 'After the card.' },
      ],
    };
    const raw = await bytes(renderPdf(spec));
    const pdf = await getDocumentProxy(new Uint8Array(raw));
    expect(pdf.numPages).toBe(1);
    const items = (await (await pdf.getPage(1)).getTextContent()).items.filter((i) => 'str' in i) as { str: string; transform: number[] }[];
    const at = (text: string) => {
      const item = items.find((i) => i.str === text);
      if (!item) throw new Error(`no "${text}" on the page`);
      return { x: item.transform[4] ?? 0, y: item.transform[5] ?? 0 };
    };
    for (const text of ['Amethyst Card', 'Pat Doe', '004336', '12345']) at(text);
    // Each face's rows start at the same padding inside it: the back's first label is one card width to the right,
    // level with the front's first row under the band or lower.
    expect(at('Payer number').x - at('Member').x).toBeCloseTo(CARD_SIZE.width, 1);
    expect(CARD_SIZE).toEqual({ width: 3.375 * 72, height: 2.125 * 72 });
    // What follows the card is below it, not over it.
    expect(at('Member').y - at('After the card.').y).toBeGreaterThan(CARD_SIZE.height - 40);
  });

  it('keeps a card face its size: a long value is cut to two lines with an ellipsis, rows past the edge are left out', async () => {
    const long = 'Maximiliana Alejandra Concepción de la Santísima Trinidad Fernández-Villaverde y Montenegro';
    const rows = Array.from({ length: 20 }, (_, i) => ({ label: `Row ${pad(i + 1)}`, value: `value ${i + 1}` }));
    const { pages } = await pagesOf({
      title: 'Card',
      blocks: [{ type: 'card', faces: [{ band: 'Program', rows: [{ label: 'Member', value: long }, ...rows] }, { rows: [] }] }],
    });
    expect(pages).toHaveLength(1);
    const [page = ''] = pages;
    expect(page).toContain('Maximiliana');
    expect(page).not.toContain('Montenegro');
    expect(page).toContain('…');
    expect(page).toContain('Row 001');
    expect(page).not.toContain('Row 020');
  });

  it('is the same bytes for the same content, apart from its creation date and file ID', async () => {
    const spec: PdfDocumentSpec = { title: 'Letter', blocks: [{ type: 'paragraph', text: 'Łukasz Wałęsa' }] };
    const strip = (b: Buffer) =>
      b
        .toString('latin1')
        .replace(/\(D:\d{14}Z\)/, '')
        .replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/, '');
    expect(strip(await bytes(renderPdf(spec)))).toBe(strip(await bytes(renderPdf(spec))));
  });
});

describe("brandAccent: the brand's colour in its PDFs", () => {
  it("is the brand theme's accent colour, and grey without a brand or for an unknown theme", () => {
    expect(brandAccent({ theme: 'card' })).toBe('#5b2a86');
    expect(brandAccent({ theme: 'assist' })).toBe('#1e7b45');
    expect(brandAccent(undefined)).toBe('#b4b4b4');
    expect(brandAccent({ theme: 'nope' })).toBe('#b4b4b4');
  });
});
