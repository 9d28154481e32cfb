import { type CellValue, cellText } from './csv';
import { concatBytes, zipParts } from './zip';

export interface XlsxSheet {
  /** Sheet tab name; Excel allows 31 characters and no : \ / ? * [ ]. */
  name?: string;
  header: readonly string[];
  rows: Iterable<readonly CellValue[]>;
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Escapes XML text and drops characters XML 1.0 forbids (control chars would corrupt the file). */
export function xmlEscape(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping XML-illegal control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/** Column letters for a zero-based index: 0 is A, 26 is AA. */
export function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

function cellXml(value: CellValue, ref: string): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"><v>${value}</v></c>`;
  if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  // Inline strings avoid a shared-strings table, so rows can be written in one pass.
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlEscape(cellText(value))}</t></is></c>`;
}

function rowXml(cells: readonly CellValue[], rowNumber: number): string {
  return `<row r="${rowNumber}">${cells.map((v, i) => cellXml(v, `${columnName(i)}${rowNumber}`)).join('')}</row>`;
}

/** Sheet XML, yielded row by row. */
export function* sheetXmlParts(sheet: XlsxSheet): Generator<string> {
  yield `${XML_HEAD}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
  yield rowXml(sheet.header, 1);
  let n = 2;
  for (const row of sheet.rows) yield rowXml(row, n++);
  yield '</sheetData></worksheet>';
}

export function safeSheetName(name: string | undefined): string {
  const clean = (name ?? '')
    .replace(/[:\\/?*[\]]/g, ' ')
    .trim()
    .slice(0, 31);
  return clean || 'Sheet1';
}

const CONTENT_TYPES = `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
const workbookXml = (name: string) =>
  `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${xmlEscape(name)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/**
 * A one-sheet .xlsx as byte chunks (stored zip). The sheet XML is built in memory because a stored zip
 * entry needs its CRC and size before its data; the chunks still let a server pipe the result out.
 */
export function* xlsxParts(sheet: XlsxSheet): Generator<Uint8Array> {
  yield* zipParts([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: '_rels/.rels', data: ROOT_RELS },
    { name: 'xl/workbook.xml', data: workbookXml(safeSheetName(sheet.name)) },
    { name: 'xl/_rels/workbook.xml.rels', data: WORKBOOK_RELS },
    { name: 'xl/worksheets/sheet1.xml', data: [...sheetXmlParts(sheet)].join('') },
  ]);
}

export function writeXlsx(sheet: XlsxSheet): Uint8Array {
  return concatBytes(xlsxParts(sheet));
}
