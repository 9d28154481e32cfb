import { type CellValue, toCsv } from '@portal/core';
import { exportFileName, exportTable } from './cellValues';
import type { ExportFetcher, ExportFormat, ExportRequest, GridColumn } from './types';

/** Saves a blob through a temporary link; the object URL is released after the click. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Remote export: the server streams the file (through the plugin's file endpoint); the name comes from x-filename. */
export async function exportRemote(body: ExportRequest, exportFile: ExportFetcher): Promise<void> {
  const { blob, fileName } = await exportFile(body);
  saveBlob(blob, exportFileName(fileName, body.format));
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A one-sheet workbook through exceljs, the server's spreadsheet library too. It loads on the first export only: it is large and no page needs it. */
async function xlsxBlob(sheetName: string, header: readonly string[], cells: readonly (readonly CellValue[])[]): Promise<Blob> {
  const { Workbook } = await import('exceljs');
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet(
    sheetName
      .replace(/[:\\/?*[\]]/g, ' ')
      .trim()
      .slice(0, 31) || 'Sheet1',
  );
  sheet.addRow([...header]).font = { bold: true };
  for (const row of cells) sheet.addRow(row.map((v) => v ?? null));
  return new Blob([await workbook.xlsx.writeBuffer()], { type: XLSX_MIME });
}

/** Local export of already loaded rows (all filtered and sorted rows, not only the page). */
export async function exportLocal<T>(columns: readonly GridColumn<T>[], rows: readonly T[], format: ExportFormat, baseName = 'export'): Promise<void> {
  const { header, cells } = exportTable(columns, rows);
  const blob = format === 'csv' ? new Blob([toCsv(header, cells)], { type: 'text/csv;charset=utf-8' }) : await xlsxBlob(baseName, header, cells);
  saveBlob(blob, exportFileName(baseName, format));
}
