import type { Message } from '@portal/core';
export interface PdfTableColumn {
  /** Written in the document's language. */
  header: Message;
  /** Share of the table's width relative to the other columns (default 1). */
  width?: number;
  align?: 'left' | 'right';
  bold?: boolean;
}

type Doc = PDFKit.PDFDocument;

/** The names renderPdf registers its embedded typeface under (pdf.ts). */
export const FONT = 'Text';
export const FONT_BOLD = 'Text-Bold';

const FONT_SIZE = 9;
const PAD = 4;
const TEXT = '#1a1a1a';
const RULE = '#c8c8c8';
const HEADER_FILL = '#e6eaef';
const STRIPE_FILL = '#f5f6f8';

/**
 * Draws a table row by row. A row never splits: one that does not fit starts a new page, which begins with the
 * header row again. A cell taller than a whole page is cut with an ellipsis.
 */
export function drawTable(
  doc: Doc,
  table: { columns: readonly (PdfTableColumn & { header: string })[]; rows: readonly (readonly string[])[]; header: boolean },
): void {
  const { margins } = doc.page;
  const left = margins.left;
  const width = doc.page.width - margins.left - margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const total = table.columns.reduce((n, c) => n + (c.width ?? 1), 0);
  const widths = table.columns.map((c) => ((c.width ?? 1) / total) * width);
  const headers = table.columns.map((c) => c.header);

  const fontOf = (column: number, isHeader: boolean) => (isHeader || table.columns[column]?.bold ? FONT_BOLD : FONT);
  const pageRoom = doc.page.height - margins.top - margins.bottom;
  const headerHeight = table.header ? measure(headers, true, Number.POSITIVE_INFINITY) : 0;

  function measure(cells: readonly string[], isHeader: boolean, limit: number): number {
    let tallest = 0;
    cells.forEach((text, i) => {
      doc.font(fontOf(i, isHeader)).fontSize(FONT_SIZE);
      tallest = Math.max(tallest, doc.heightOfString(text || ' ', { width: (widths[i] ?? 0) - 2 * PAD }));
    });
    return Math.min(tallest + 2 * PAD, limit);
  }

  function drawRow(cells: readonly string[], y: number, height: number, isHeader: boolean, fill: string | null): void {
    if (fill) doc.rect(left, y, width, height).fill(fill);
    let x = left;
    cells.forEach((text, i) => {
      const w = widths[i] ?? 0;
      if (text) {
        doc
          .font(fontOf(i, isHeader))
          .fontSize(FONT_SIZE)
          .fillColor(TEXT)
          .text(text, x + PAD, y + PAD, { width: w - 2 * PAD, height: height - 2 * PAD, ellipsis: true, align: table.columns[i]?.align ?? 'left' });
      }
      x += w;
    });
    doc
      .moveTo(left, y + height)
      .lineTo(left + width, y + height)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
  }

  let y = doc.y;
  const startPage = () => {
    doc.addPage();
    y = doc.y;
  };
  const drawHeader = () => {
    if (!table.header) return;
    drawRow(headers, y, headerHeight, true, HEADER_FILL);
    y += headerHeight;
  };

  const rowLimit = pageRoom - headerHeight;
  // The header goes with at least the first row.
  const first = table.rows[0];
  if (y + headerHeight + (first ? measure(first, false, rowLimit) : 0) > bottom()) startPage();
  drawHeader();
  table.rows.forEach((row, index) => {
    const height = measure(row, false, rowLimit);
    if (y + height > bottom()) {
      startPage();
      drawHeader();
    }
    drawRow(row, y, height, false, index % 2 === 1 ? STRIPE_FILL : null);
    y += height;
  });
  doc.x = left;
  doc.y = y + 10;
}
