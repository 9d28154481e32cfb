import type { ExportFormat, GridColumn } from './types';

type ExportCell = string | number | boolean | Date | null | undefined;

/** Text of a raw cell value for display, filter and search. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  return String(value);
}

/** Case-insensitive "contains": the local filter and search rule. */
export function matchesText(value: unknown, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === '' || valueText(value).toLowerCase().includes(q);
}

const collators = new Map<string, Intl.Collator>();

/**
 * The numeric-aware, case- and accent-blind collator of a language (the page's, so Spanish sorts ñ after n), made once
 * per language. No language: the browser's.
 */
export function collatorFor(language?: string): Intl.Collator {
  const key = language ?? '';
  let collator = collators.get(key);
  if (!collator) {
    collator = new Intl.Collator(language || undefined, { numeric: true, sensitivity: 'base' });
    collators.set(key, collator);
  }
  return collator;
}

/** Local sort order: empty last, numbers and dates by value, text by a numeric-aware collator of the page's language. */
export function compareValues(a: unknown, b: unknown, collator: Intl.Collator = collatorFor()): number {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return collator.compare(valueText(a), valueText(b));
}

/** Header and cells for an export of the given (visible) columns. */
export function exportTable<T>(columns: readonly GridColumn<T>[], rows: readonly T[]): { header: string[]; cells: ExportCell[][] } {
  return {
    header: columns.map((c) => c.header),
    cells: rows.map((row) =>
      columns.map((c) => {
        const value = c.exportValue ? c.exportValue(row) : c.accessor?.(row);
        if (value === null || value === undefined) return null;
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
        return valueText(value);
      }),
    ),
  };
}

/** File name for a download: the server's x-filename header, else 'export'; the extension is ensured. */
export function exportFileName(headerValue: string | null | undefined, format: ExportFormat, fallback = 'export'): string {
  // Strip any path so a header cannot steer the download location.
  const name =
    (headerValue ?? '')
      .trim()
      .split(/[\\/]/)
      .pop()
      ?.replace(/["\r\n]/g, '') || fallback;
  return name.toLowerCase().endsWith(`.${format}`) ? name : `${name}.${format}`;
}
