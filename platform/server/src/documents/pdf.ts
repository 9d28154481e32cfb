import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { type Language, LOCALES, type Message, msg } from '@portal/core';
import { PALETTES } from '@portal/themes/palettes';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import { drawTable, FONT, FONT_BOLD, type PdfTableColumn } from './pdfTable';
import { woffToSfnt } from './woff';

export type { PdfTableColumn } from './pdfTable';

/**
 * A document's content. Its words (title, headings, paragraphs, labels, column headers) are messages, written in
 * the document's language by the kernel's catalogues; values (names, amounts, dates) are data, written as given.
 */
export type PdfBlock =
  | { type: 'heading'; text: Message }
  | { type: 'paragraph'; text: Message }
  /** Label and value pairs, e.g. a claim's details. */
  | { type: 'keyValue'; rows: readonly { label: Message; value: string }[] }
  /** A table with a header row, repeated at the top of every page the table continues on. */
  | { type: 'table'; columns: readonly PdfTableColumn[]; rows: readonly (readonly string[])[] }
  /**
   * A wallet-size card to cut out and fold: its faces side by side at ID-1 size (3.375 x 2.125 in), the first face's
   * band in the brand's colour, a dashed cut line around both and a dotted fold line between them (see drawCard).
   */
  | { type: 'card'; faces: readonly [PdfCardFace, PdfCardFace] };

/** One face of a `card` block: an optional band (the program's name, data) and label/value rows, as keyValue's. */
export interface PdfCardFace {
  band?: string;
  rows: readonly { label: Message; value: string }[];
}

/** The brand a document is printed for: its name heads every page, its contacts are in every footer. */
export interface PdfBrand {
  displayName: string;
  /** The brand's theme id: its accent colour draws the name and the header rule (themes/src/palettes.ts). */
  theme?: string;
  contacts?: { phone?: string; fax?: string; supportEmail?: string; infoEmail?: string };
}

export interface PdfDocumentSpec {
  title: Message;
  /** The language of the document's words and of its page footers ('en' unless given): the reader's, `ctx.language`. */
  language?: Language;
  brand?: PdfBrand;
  blocks: readonly PdfBlock[];
}

const TEXT = '#1a1a1a';
const MUTED = '#5a5a5a';
const RULE = '#b4b4b4';

/** The brand's accent colour (its theme's), for its name and the header rule; grey without a brand. */
export function brandAccent(brand: Pick<PdfBrand, 'theme'> | undefined): string {
  return (brand?.theme && PALETTES[brand.theme]?.brandAccent) || RULE;
}
// US Letter with 3/4-inch sides; the top and bottom leave room for the running header and the footer.
const MARGINS = { top: 78, bottom: 64, left: 54, right: 54 };

type Doc = PDFKit.PDFDocument;

const require = createRequire(import.meta.url);
let typeface: { regular: FontSource; bold: FontSource } | undefined;
/** pdfkit takes a font fontkit has read already (its `layout` tells it apart); its typings know only files and bytes. */
type FontSource = PDFKit.Mixins.PDFFontSource;
const readFont = (file: string): FontSource => {
  const font = fontkit.create(woffToSfnt(readFileSync(require.resolve(`@fontsource/dejavu-sans/files/${file}`))));
  if (!('layout' in font)) throw new Error(`pdf: ${file} is a font collection`);
  return font as unknown as FontSource;
};
/**
 * DejaVu Sans, regular and bold, read once a process: it has every Latin letter (Polish, Czech, Romanian, Turkish,
 * Vietnamese), Greek and Cyrillic, so a member's name prints as written. pdfkit embeds only the glyphs a document uses.
 * The standard Helvetica it replaces had Windows-1252 only: "Łukasz Wałęsa" printed as garbage. The package ships WOFF,
 * which fontkit inflates on every glyph read (a second a page); unwrapped once to TrueType and parsed once, a one-page
 * document takes a few milliseconds.
 */
function fonts(): { regular: FontSource; bold: FontSource } {
  typeface ??= { regular: readFont('dejavu-sans-latin-400-normal.woff'), bold: readFont('dejavu-sans-latin-700-normal.woff') };
  return typeface;
}

const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottomLimit = (doc: Doc) => doc.page.height - doc.page.margins.bottom;

function heading(doc: Doc, text: string): void {
  const width = contentWidth(doc);
  doc.font(FONT_BOLD).fontSize(13);
  // Keep a heading with at least three lines of what follows it.
  if (doc.y + doc.heightOfString(text, { width }) + 12 + 3 * 14 > bottomLimit(doc)) doc.addPage();
  else doc.y += 8;
  doc.fillColor(TEXT).text(text, doc.page.margins.left, doc.y, { width });
  doc.y += 4;
}

function paragraph(doc: Doc, text: string): void {
  // pdfkit flows a long paragraph onto new pages by itself.
  doc
    .font(FONT)
    .fontSize(10)
    .fillColor(TEXT)
    .text(text, doc.page.margins.left, doc.y, { width: contentWidth(doc), lineGap: 2 });
  doc.y += 6;
}

/** ID-1, the size of a bank or insurance card: 3.375 x 2.125 inches, in points. */
export const CARD_SIZE = { width: 243, height: 153 } as const;
const CARD_PAD = 9;
const CARD_BAND = 22;
const CARD_FONT_SIZE = 8.5;

/**
 * A card's two faces at ID-1 size, side by side and centred, to print at 100 %, cut out along the dashed line and fold
 * along the dotted one (front outside, back behind it). Each face has rounded corners and a thin border; the first
 * face's band is the brand's colour with its text in white. Rows are label (bold, muted) and value; a value is cut to
 * two lines with an ellipsis and rows that would run past the face's edge are left out (a face keeps its size: a card
 * that grew would no longer fit a wallet). A block that does not fit below starts a new page.
 */
function drawCard(doc: Doc, faces: readonly [PdfCardFace, PdfCardFace], accent: string, tr: InLanguage): void {
  const { width: w, height: h } = CARD_SIZE;
  const total = w * 2;
  if (doc.y + h + 24 > bottomLimit(doc)) doc.addPage();
  const top = doc.y + 8;
  const left = doc.page.margins.left + (contentWidth(doc) - total) / 2;
  // The cut line around both faces, and the fold between them.
  doc
    .save()
    .lineWidth(0.6)
    .strokeColor(MUTED)
    .dash(4, { space: 3 })
    .rect(left - 6, top - 6, total + 12, h + 12)
    .stroke()
    .restore();
  doc
    .save()
    .lineWidth(0.6)
    .strokeColor(MUTED)
    .dash(1, { space: 2 })
    .moveTo(left + w, top - 6)
    .lineTo(left + w, top + h + 6)
    .stroke()
    .restore();
  faces.forEach((face, i) => {
    const x = left + i * w;
    doc
      .save()
      .lineWidth(0.75)
      .strokeColor(RULE)
      .roundedRect(x + 1, top, w - 2, h, 8)
      .stroke()
      .restore();
    let y = top + CARD_PAD;
    if (face.band !== undefined) {
      doc
        .save()
        .roundedRect(x + 1, top, w - 2, CARD_BAND + 4, 8)
        .clip()
        .rect(x + 1, top, w - 2, CARD_BAND)
        .fill(i === 0 ? accent : MUTED)
        .restore();
      doc
        .font(FONT_BOLD)
        .fontSize(10)
        .fillColor('#ffffff')
        .text(face.band, x + CARD_PAD, top + 6, { width: w - 2 * CARD_PAD, height: 12, ellipsis: true, lineBreak: false });
      y = top + CARD_BAND + 6;
    }
    const labelWidth = (w - 2 * CARD_PAD) * 0.42;
    const valueWidth = w - 2 * CARD_PAD - labelWidth - 4;
    const lineHeight = CARD_FONT_SIZE * 1.25;
    for (const row of face.rows) {
      const label = tr(row.label);
      doc.font(FONT).fontSize(CARD_FONT_SIZE);
      const valueLines = Math.min(2, Math.max(1, Math.ceil(doc.heightOfString(row.value || ' ', { width: valueWidth }) / lineHeight)));
      doc.font(FONT_BOLD);
      const labelLines = Math.min(2, Math.max(1, Math.ceil(doc.heightOfString(label, { width: labelWidth }) / lineHeight)));
      const rowHeight = Math.max(valueLines, labelLines) * lineHeight + 2;
      if (y + rowHeight > top + h - CARD_PAD / 2) break;
      doc.fillColor(MUTED).text(label, x + CARD_PAD, y, { width: labelWidth, height: labelLines * lineHeight, ellipsis: true });
      doc
        .font(FONT)
        .fillColor(TEXT)
        .text(row.value, x + CARD_PAD + labelWidth + 4, y, { width: valueWidth, height: valueLines * lineHeight, ellipsis: true });
      y += rowHeight;
    }
  });
  doc.x = doc.page.margins.left;
  doc.y = top + h + 16;
}

/** The running header (brand, title) and footer (contacts, page n of m) on every page, drawn once all pages exist. */
function decoratePages(doc: Doc, spec: PdfDocumentSpec, title: string, tr: InLanguage): void {
  const { start, count } = doc.bufferedPageRange();
  const contacts = spec.brand?.contacts;
  const contactLine = [
    contacts?.phone && tr(msg('Phone {{phone}}', { phone: contacts.phone })),
    contacts?.fax && tr(msg('Fax {{fax}}', { fax: contacts.fax })),
    contacts?.supportEmail,
  ]
    .filter(Boolean)
    .join('   |   ');
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const { page } = doc;
    const left = page.margins.left;
    const width = contentWidth(doc);
    const bottom = page.margins.bottom;
    // Writing below the bottom margin would start a new page; lift the margin while drawing the footer.
    page.margins.bottom = 0;
    const accent = brandAccent(spec.brand);
    doc.fontSize(8);
    if (spec.brand)
      doc
        .font(FONT_BOLD)
        .fillColor(accent)
        .text(spec.brand.displayName, left, 40, { width: width / 2, height: 10, ellipsis: true, lineBreak: false });
    doc
      .fillColor(MUTED)
      .font(FONT)
      .text(title, left + width / 2, 40, { width: width / 2, height: 10, ellipsis: true, lineBreak: false, align: 'right' });
    // The brand's colour under the header, then the plain rule above the footer.
    doc
      .moveTo(left, 54)
      .lineTo(left + width, 54)
      .lineWidth(spec.brand ? 1.5 : 0.5)
      .strokeColor(accent)
      .stroke();
    doc.lineWidth(0.5).strokeColor(RULE);
    const footerY = page.height - 44;
    doc
      .moveTo(left, footerY - 8)
      .lineTo(left + width, footerY - 8)
      .stroke();
    if (contactLine) doc.text(contactLine, left, footerY, { width: width * 0.75, height: 10, ellipsis: true, lineBreak: false });
    doc.text(tr(msg('Page {{page}} of {{count}}', { page: i - start + 1, count })), left, footerY, { width, align: 'right', lineBreak: false });
    page.margins.bottom = bottom;
  }
}

/** A message as text in the document's language. */
export type InLanguage = (message: Message) => string;

/**
 * A paginated PDF (US Letter) of a title and blocks, as a stream to send or store. Text is set in the embedded DejaVu
 * Sans (`fonts`): Latin, Greek and Cyrillic; a character it lacks (Chinese, Arabic) prints as an empty box, never as
 * another letter. `tr` writes the document's messages in its language (English without it).
 */
export function renderPdf(spec: PdfDocumentSpec, tr: InLanguage = String): Readable {
  const title = tr(spec.title);
  const doc: Doc = new PDFDocument({
    size: 'LETTER',
    margins: MARGINS,
    // Pages stay in memory until the end so every footer can say "of m".
    bufferPages: true,
    displayTitle: true,
    lang: LOCALES[spec.language ?? 'en'],
    info: { Title: title, ...(spec.brand ? { Author: spec.brand.displayName } : {}) },
  });
  const { regular, bold } = fonts();
  doc.registerFont(FONT, regular);
  doc.registerFont(FONT_BOLD, bold);
  doc
    .font(FONT_BOLD)
    .fontSize(18)
    .fillColor(TEXT)
    .text(title, MARGINS.left, MARGINS.top, { width: contentWidth(doc) });
  doc.y += 6;
  for (const block of spec.blocks) {
    switch (block.type) {
      case 'heading':
        heading(doc, tr(block.text));
        break;
      case 'paragraph':
        paragraph(doc, tr(block.text));
        break;
      case 'keyValue':
        drawTable(doc, {
          columns: [
            { header: '', width: 1, bold: true },
            { header: '', width: 2 },
          ],
          rows: block.rows.map((r) => [tr(r.label), r.value]),
          header: false,
        });
        break;
      case 'table':
        drawTable(doc, { columns: block.columns.map((c) => ({ ...c, header: tr(c.header) })), rows: block.rows, header: true });
        break;
      case 'card':
        drawCard(doc, block.faces, brandAccent(spec.brand), tr);
        break;
    }
  }
  decoratePages(doc, spec, title, tr);
  doc.end();
  return doc;
}
