import type { GridResult } from '@portal/core';
import { DataGrid, type GridColumn, type PageRequest } from '@portal/web/kit';
import { useCallback, useState } from 'react';
import { PAGE_SIZES } from '../../rules';
import { DateRangeFields } from './DateRangeFields';
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
  const [range, setRange] = useState(defaultRange);
  const fetchPage = useCallback((req: PageRequest) => fetch(req, range), [fetch, range]);
  return (
    <>
      <div className={css.header}>
        <DateRangeFields range={range} onChange={setRange} />
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
