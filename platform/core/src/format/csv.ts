export type CellValue = string | number | boolean | Date | null | undefined;

/** Text of a cell for export: dates as ISO, empty for null. */
export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return String(value);
}

/**
 * RFC 4180 field. A leading = + - @ tab or CR is prefixed with a quote mark so spreadsheet apps do not run
 * it as a formula (CSV injection); numbers are left alone so negatives stay numeric.
 */
export function csvField(value: CellValue): string {
  let text = cellText(value);
  if (typeof value !== 'number' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV document with a header row, CRLF line ends and a BOM so Excel reads UTF-8. */
export function toCsv(header: readonly string[], rows: readonly (readonly CellValue[])[], { bom = true } = {}): string {
  const lines = [header, ...rows].map((row) => row.map(csvField).join(','));
  return `${bom ? '\uFEFF' : ''}${lines.join('\r\n')}\r\n`;
}
