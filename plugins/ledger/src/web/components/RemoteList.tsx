import { type GridResult, parseIsoDay } from '@portal/core';
import { DataGrid, type GridColumn, type PageRequest, useUrlFilters } from '@portal/web/kit';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PAGE_SIZES } from '../../rules';
import { type DateRange, DateRangeFields } from './DateRangeFields';
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

const rangeKey = (r: DateRange) => `${r.From}|${r.To}`;
/** A day from the address, or the default when it is not one ('YYYY-MM-DD'). */
const dayOr = (value: string, fallback: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) && parseIsoDay(value) ? value : fallback);

/**
 * A read-only view of the ledger: a date range and a remote grid (server-side sort and paging, 20 per page). The range
 * is kept in the address beside the grid's state, under the same key (?ledger-card.from=2026-01-01), so a reload or a
 * shared link shows the same rows; a change replaces the history entry and takes the grid back to its first page.
 */
export function RemoteList<T>({ label, stateKey, columns, defaultRange, defaultSort, getRowId, fetch }: Props<T>) {
  const [address, setAddress] = useUrlFilters({ from: defaultRange.From, to: defaultRange.To }, stateKey);
  const range = useMemo(
    () => ({ From: dayOr(address.from, defaultRange.From), To: dayOr(address.to, defaultRange.To) }),
    [address, defaultRange.From, defaultRange.To],
  );
  // The fields show a draft set at once: the address changes after the input event (a router transition), and a date
  // field put back to an older value meanwhile loses the segment being typed (01/01/2025 typed became 10/12/0025). So
  // the address's range is put back in the fields only when it is not one of our own writes arriving (Back, a link).
  const [shown, setShown] = useState(range);
  const inFlight = useRef<string[]>([]);
  useEffect(() => {
    const arrived = inFlight.current.indexOf(rangeKey(range));
    if (arrived >= 0) {
      inFlight.current = inFlight.current.slice(arrived + 1);
      return;
    }
    inFlight.current = [];
    setShown((current) => (rangeKey(current) === rangeKey(range) ? current : range));
  }, [range]);
  const setRange = useCallback(
    (next: DateRange) => {
      setShown(next);
      inFlight.current.push(rangeKey(next));
      setAddress({ from: next.From, to: next.To });
    },
    [setAddress],
  );
  const fetchPage = useCallback((req: PageRequest) => fetch(req, range), [fetch, range]);
  return (
    <>
      <div className={css.header}>
        <DateRangeFields range={shown} onChange={setRange} />
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
