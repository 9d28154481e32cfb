import { toCsv, writeXlsx, XLSX_MIME } from '@portal/core';
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

export const defaultFetcher: ExportFetcher = (url, body) =>
  fetch(url, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Remote export: the server streams the file; the name comes from x-filename. */
export async function exportRemote(url: string, body: ExportRequest, fetcher: ExportFetcher = defaultFetcher): Promise<void> {
  const response = await fetcher(url, body);
  if (!response.ok) throw new Error(`Export failed with status ${response.status}`);
  saveBlob(await response.blob(), exportFileName(response.headers.get('x-filename'), body.format));
}

/** Local export of already loaded rows (all filtered and sorted rows, not only the page). */
export function exportLocal<T>(columns: readonly GridColumn<T>[], rows: readonly T[], format: ExportFormat, baseName = 'export'): void {
  const { header, cells } = exportTable(columns, rows);
  const blob =
    format === 'csv'
      ? new Blob([toCsv(header, cells)], { type: 'text/csv;charset=utf-8' })
      : new Blob([writeXlsx({ name: baseName, header, rows: cells }) as BlobPart], { type: XLSX_MIME });
  saveBlob(blob, exportFileName(baseName, format));
}
