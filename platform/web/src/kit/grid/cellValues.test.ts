import { describe, expect, it } from 'vitest';
import { compareValues, exportFileName, exportTable, matchesText } from './cellValues';
import type { GridColumn } from './types';

interface Row {
  id: number;
  name: string;
  paid: boolean;
  amount: number | null;
}

const columns: GridColumn<Row>[] = [
  { id: 'name', header: 'Name', accessor: (r) => r.name },
  { id: 'amount', header: 'Amount', accessor: (r) => r.amount, exportValue: (r) => (r.amount === null ? null : r.amount.toFixed(2)) },
  { id: 'paid', header: 'Paid', accessor: (r) => r.paid },
];

describe('cell values', () => {
  it('filters case-insensitively', () => {
    expect(matchesText('Smith, John', 'smith')).toBe(true);
    expect(matchesText(42, '4')).toBe(true);
    expect(matchesText(null, 'x')).toBe(false);
    expect(matchesText(null, '  ')).toBe(true);
  });

  it('sorts numbers, text and empties', () => {
    const values = ['b10', 'b2', null, 'A1', ''];
    expect([...values].sort(compareValues)).toEqual(['A1', 'b2', 'b10', null, '']);
    expect([3, 1, 2].sort(compareValues)).toEqual([1, 2, 3]);
    expect(compareValues(new Date(2020, 0, 1), new Date(2021, 0, 1))).toBeLessThan(0);
  });

  it('builds export rows from visible columns', () => {
    const rows: Row[] = [
      { id: 1, name: 'A', paid: true, amount: 12.5 },
      { id: 2, name: 'B', paid: false, amount: null },
    ];
    expect(exportTable(columns, rows)).toEqual({
      header: ['Name', 'Amount', 'Paid'],
      cells: [
        ['A', '12.50', true],
        ['B', null, false],
      ],
    });
  });

  it('names downloads from the header', () => {
    expect(exportFileName('claims-2024.xlsx', 'xlsx')).toBe('claims-2024.xlsx');
    expect(exportFileName('claims', 'csv')).toBe('claims.csv');
    expect(exportFileName(null, 'csv')).toBe('export.csv');
    expect(exportFileName('../../etc/passwd', 'csv')).toBe('passwd.csv');
    expect(exportFileName('  ', 'xlsx', 'grid')).toBe('grid.xlsx');
  });
});
