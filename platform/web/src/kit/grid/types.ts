import type { GridResult } from '@portal/core';
import type { ReactNode } from 'react';

export type SortOrder = 'asc' | 'desc';
export type SelectionMode = 'none' | 'single' | 'multiple';
export type ExportFormat = 'csv' | 'xlsx';

/** One column. Headers arrive translated from the caller. */
export interface GridColumn<T> {
  /** Stable id; also the sortColumn and filter key sent to the server. */
  id: string;
  header: string;
  /** Raw value used for local sort, filter and export. */
  accessor?: (row: T) => unknown;
  /** Rendered cell; defaults to the accessor value as text. */
  cell?: (row: T) => ReactNode;
  sortable?: boolean;
  filterable?: boolean;
  /** False keeps the column out of the visibility menu. */
  hideable?: boolean;
  defaultHidden?: boolean;
  /** Value written to CSV/XLSX; defaults to the accessor. */
  exportValue?: (row: T) => string | number | boolean | Date | null | undefined;
  /** Number of characters or a CSS width. */
  width?: string;
  align?: 'start' | 'end' | 'center';
}

/** What a remote grid asks the server for (spec 02: server-side sort, page and filter). */
export interface PageRequest {
  pageIndex: number;
  pageSize: number;
  sortColumn: string | undefined;
  sortOrder: SortOrder;
  filters: Record<string, string>;
  search: string;
}

export type FetchPage<T> = (request: PageRequest) => Promise<GridResult<T>>;

/** Injected so the app can add auth; must resolve with the streamed export response. */
/** Calls the plugin's file endpoint for a remote export: `(body) => api.call(Api.export, { body })`. */
export type ExportFetcher = (body: ExportRequest) => Promise<{ blob: Blob; fileName: string }>;

export interface ExportRequest extends Omit<PageRequest, 'pageIndex' | 'pageSize'> {
  format: ExportFormat;
  columns: { id: string; header: string }[];
}
