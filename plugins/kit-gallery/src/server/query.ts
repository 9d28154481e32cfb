import { parseIsoDay, parseMoney } from '@portal/core';
import { containsPattern } from '@portal/server';
import { ROW_CATEGORIES, ROW_STATUSES, type RowColumn, type SampleRow } from '../contract';

/** Whitelisted column → SQL expression and parameter type (for keyset comparisons). */
const COLUMNS: Record<RowColumn, { sql: string; type: string }> = {
  Id: { sql: 'id', type: 'integer' },
  Name: { sql: 'name', type: 'text' },
  City: { sql: 'city', type: 'text' },
  State: { sql: 'state', type: 'char(2)' },
  Amount: { sql: 'amount_cents', type: 'integer' },
  Date: { sql: 'txn_date', type: 'date' },
  Status: { sql: 'status', type: 'text' },
  Category: { sql: 'category', type: 'text' },
};

export const SELECT_ROW = `id AS "Id", name AS "Name", city AS "City", state AS "State", amount_cents AS "AmountCents",
  to_char(txn_date, 'YYYY-MM-DD') AS "Date", status AS "Status", category AS "Category"`;

export interface DbRow extends Omit<SampleRow, 'Amount'> {
  AmountCents: number;
}
export const toRow = ({ AmountCents, ...rest }: DbRow): SampleRow => ({ ...rest, Amount: AmountCents / 100 });

export interface RowQuery {
  sortColumn: RowColumn | null | undefined;
  sortOrder: 'asc' | 'desc';
  search: string;
  filters: Partial<Record<RowColumn, string>>;
}

/** LIKE pattern matching the text anywhere, with the wildcards in it taken literally. */
const oneOf = (list: readonly string[], value: string) => list.find((v) => v.toLowerCase() === value.toLowerCase());

/** Builds the WHERE clause; parameters are appended to `params`. A filter value that cannot match gives FALSE. */
export function whereClause(q: Pick<RowQuery, 'search' | 'filters'>, params: unknown[]): string {
  const parts: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  for (const [column, raw] of Object.entries(q.filters) as [RowColumn, string | undefined][]) {
    const value = raw?.trim() ?? '';
    if (!value) continue;
    switch (column) {
      case 'Name':
      case 'City':
        parts.push(`${COLUMNS[column].sql} ILIKE ${p(containsPattern(value))}`);
        break;
      case 'State':
        parts.push(`state = ${p(value.toUpperCase().slice(0, 2))}`);
        break;
      case 'Status':
      case 'Category': {
        const match = oneOf(column === 'Status' ? ROW_STATUSES : ROW_CATEGORIES, value);
        parts.push(match ? `${COLUMNS[column].sql} = ${p(match)}` : 'FALSE');
        break;
      }
      case 'Id':
        parts.push(/^\d{1,9}$/.test(value) ? `id = ${p(Number(value))}` : 'FALSE');
        break;
      case 'Amount': {
        const dollars = parseMoney(value);
        parts.push(dollars === null ? 'FALSE' : `amount_cents >= ${p(Math.round(dollars * 100))}`);
        break;
      }
      case 'Date': {
        const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
        if (!m) parts.push('FALSE');
        else {
          const unit = m[3] ? 'day' : m[2] ? 'month' : 'year';
          const start = `${m[1]}-${m[2] ?? '01'}-${m[3] ?? '01'}`;
          // A day that does not exist (2024-02-31) would make the cast fail: it matches nothing instead.
          if (!parseIsoDay(start)) parts.push('FALSE');
          else {
            const from = p(start);
            parts.push(`txn_date >= ${from}::date AND txn_date < ${from}::date + interval '1 ${unit}'`);
          }
        }
        break;
      }
    }
  }
  const search = q.search.trim();
  if (search) {
    const s = p(containsPattern(search));
    const idMatch = /^\d{1,9}$/.test(search) ? ` OR id = ${p(Number(search))}` : '';
    parts.push(`(name ILIKE ${s} OR city ILIKE ${s} OR state ILIKE ${s} OR status ILIKE ${s} OR category ILIKE ${s}${idMatch})`);
  }
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}

export function sortOf(q: Pick<RowQuery, 'sortColumn' | 'sortOrder'>): { column: { sql: string; type: string }; dir: 'ASC' | 'DESC' } {
  return { column: COLUMNS[q.sortColumn ?? 'Id'], dir: q.sortOrder === 'desc' ? 'DESC' : 'ASC' };
}

/** ORDER BY the sort column, then the id in the same direction: a total order, so pages and keysets are stable. */
export function orderClause(q: Pick<RowQuery, 'sortColumn' | 'sortOrder'>): string {
  const { column, dir } = sortOf(q);
  return column.sql === 'id' ? `ORDER BY id ${dir}` : `ORDER BY ${column.sql} ${dir}, id ${dir}`;
}
