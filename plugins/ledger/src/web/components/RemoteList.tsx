import type { GridResult } from '@portal/core';
import { DataGrid, type GridColumn, type PageRequest } from '@portal/web/kit';
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '../../rules';
import * as css from './ledger.css';

interface Props<T> {
  label: string;
  stateKey: string;
  columns: GridColumn<T>[];
  defaultRange: { From: string; To: string };
  defaultSort: { column: string; order: 'asc' | 'desc' };
  getRowId: (row: T) => string;
  fetch: (req: PageRequest, range: { From: string; To: string }) => Promise<GridResult<T>>;
}

/** A read-only view of the ledger: a date range and a remote grid (server-side sort and paging, 20 per page). */
export function RemoteList<T>({ label, stateKey, columns, defaultRange, defaultSort, getRowId, fetch }: Props<T>) {
  const { t } = useTranslation('ledger');
  const [range, setRange] = useState(defaultRange);
  const ids = { from: useId(), to: useId() };
  const fetchPage = useCallback((req: PageRequest) => fetch(req, range), [fetch, range]);
  return (
    <>
      <div className={css.header}>
        <div className={css.field}>
          <label htmlFor={ids.from}>{t('filter.from')}</label>
          <input
            id={ids.from}
            type="date"
            className={css.input}
            value={range.From}
            max={range.To}
            onChange={(e) => e.target.value && setRange((r) => ({ ...r, From: e.target.value }))}
          />
        </div>
        <div className={css.field}>
          <label htmlFor={ids.to}>{t('filter.to')}</label>
          <input
            id={ids.to}
            type="date"
            className={css.input}
            value={range.To}
            min={range.From}
            onChange={(e) => e.target.value && setRange((r) => ({ ...r, To: e.target.value }))}
          />
        </div>
      </div>
      <DataGrid<T>
        label={label}
        columns={columns}
        getRowId={getRowId}
        fetchPage={fetchPage}
        queryKey={['ledger', stateKey, range]}
        sortable
        pageSizes={PAGE_SIZES}
        defaultPageSize={20}
        defaultSort={defaultSort}
        stateKey={stateKey}
      />
    </>
  );
}
