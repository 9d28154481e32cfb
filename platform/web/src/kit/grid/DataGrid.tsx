import type { GridResult } from '@portal/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useId, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInRouterContext } from 'react-router-dom';
import { failureWords } from '../../api/failures';
import { Button } from '../components/Button';
import * as formStyles from '../form/form.css';
import { useKit } from '../KitProvider';
import { loadAcross } from './across';
import { ColumnMenu } from './ColumnMenu';
import { DebouncedInput } from './DebouncedInput';
import * as styles from './dataGrid.css';
import { exportLocal, exportRemote } from './download';
import { GridPager } from './GridPager';
import { GridTable } from './GridTable';
import { clampPage, type GridState, type GridStateDefaults, gridStateDefaults, nextSort, stateForCallerKey, withResetPage } from './gridState';
import { filterAndSortRows, filtersKey } from './localRows';
import { DEFAULT_MAX_SELECT_ACROSS_PAGES, pageSelectionState, type Selection, type SelectionAction, selectionReducer } from './selection';
import type { ExportFetcher, ExportFormat, FetchPage, GridColumn, PageRequest, SelectionMode, SortOrder } from './types';
import { type GridStateStore, useMemoryGridState, useUrlGridState } from './useGridStateStore';

/** Lists longer than this are windowed when not paged (only visible rows in the DOM). */
export const VIRTUALIZE_AFTER = 200;

/** The search box's length by default: the searches' schemas take at most 100 characters (a longer one is a 400). */
export const SEARCH_MAX_LENGTH = 100;

export interface DataGridProps<T> {
  /** Accessible name of the grid (translated). */
  label: string;
  columns: readonly GridColumn<T>[];
  getRowId: (row: T) => string;
  /** Read out by screen readers in row checkboxes and expanders; defaults to the row id. */
  getRowLabel?: (row: T) => string;
  /** Local mode: every row in memory. Keep its identity (and the columns') stable for long lists: they are filtered
   * and sorted again only when they, the filters, the search or the sort change. */
  data?: readonly T[];
  /**
   * Remote mode: the server sorts, filters and pages. A failed page is said in the grid, in the API's words, with a Try
   * again: the call passes `notify: false`, so no toast says the same failure a second time.
   */
  fetchPage?: FetchPage<T>;
  /** Remote cache key; defaults to ['kit-grid', stateKey ?? label]. */
  queryKey?: readonly unknown[];
  /** Local mode: loading/error of whatever fetched `data`. */
  isLoading?: boolean;
  isError?: boolean;
  onRetry?: () => void;
  sortable?: boolean;
  filterable?: boolean;
  searchable?: boolean;
  /** The most characters the search box takes: SEARCH_MAX_LENGTH (100, what the servers' searches accept) by default. */
  searchMaxLength?: number;
  /** Default true; local grids with paging off are windowed past VIRTUALIZE_AFTER rows. */
  pageable?: boolean;
  pageSizes?: readonly number[];
  defaultPageSize?: number;
  defaultSort?: { column: string; order: SortOrder };
  selectionMode?: SelectionMode;
  maxSelectAcrossPages?: number;
  onSelectionChange?: (ids: string[]) => void;
  renderExpanded?: (row: T) => ReactNode;
  /** URL prefix for page, size, sort, filters and search; without it (or a router) state stays in memory. */
  stateKey?: string;
  /** Shows CSV and Excel buttons; remote grids also need exportFile. */
  exportable?: boolean;
  /** Remote grids: fetches the export file from the server. */
  exportFile?: ExportFetcher;
  /** Local export file name without extension. */
  exportName?: string;
  /** Fixed row height (px) used for windowing. */
  rowHeight?: number;
  /** Height (px) of the scroll area when windowed. */
  maxHeight?: number;
  /** Extra toolbar content (app actions). */
  actions?: ReactNode;
}

interface Resolved<T> extends DataGridProps<T> {
  defaults: GridStateDefaults;
  store: GridStateStore;
}

export function DataGrid<T>(props: DataGridProps<T>) {
  const inRouter = useInRouterContext();
  const defaults = useMemo<GridStateDefaults>(
    () =>
      gridStateDefaults({
        pageSizes: props.pageSizes,
        defaultPageSize: props.defaultPageSize,
        sortColumn: props.defaultSort?.column,
        sortOrder: props.defaultSort?.order,
      }),
    [props.pageSizes, props.defaultPageSize, props.defaultSort?.column, props.defaultSort?.order],
  );
  // Hooks differ by mode, so each mode is its own component rather than a conditional hook call.
  if (props.stateKey && inRouter) return <UrlStateGrid {...props} stateKey={props.stateKey} defaults={defaults} />;
  return <MemoryStateGrid {...props} defaults={defaults} />;
}

function UrlStateGrid<T>(props: DataGridProps<T> & { stateKey: string; defaults: GridStateDefaults }) {
  const store = useUrlGridState(props.stateKey, props.defaults);
  return props.fetchPage ? <RemoteGrid {...props} fetchPage={props.fetchPage} store={store} /> : <LocalGrid {...props} store={store} />;
}

function MemoryStateGrid<T>(props: DataGridProps<T> & { defaults: GridStateDefaults }) {
  const store = useMemoryGridState(props.defaults);
  return props.fetchPage ? <RemoteGrid {...props} fetchPage={props.fetchPage} store={store} /> : <LocalGrid {...props} store={store} />;
}

const toRequest = (state: GridState): PageRequest => ({
  pageIndex: state.pageIndex,
  pageSize: state.pageSize,
  sortColumn: state.sortColumn,
  sortOrder: state.sortOrder,
  filters: state.filters,
  search: state.search,
});

const EMPTY: never[] = [];
const NO_COLUMNS: ReadonlySet<string> = new Set();

function RemoteGrid<T>(props: Resolved<T> & { fetchPage: FetchPage<T> }) {
  const [state, setState] = props.store;
  // A filter kept outside the grid (a status, a date range, a search form: part of the caller's queryKey) changes the
  // result set as the grid's own filters do: the list starts again at its first page, asked for at once (not page 3
  // of the new results first). A page in the address on arrival is kept: only a change after that resets it.
  const callerKey = JSON.stringify(props.queryKey ?? null);
  const [seenKey, setSeenKey] = useState(callerKey);
  const asked = stateForCallerKey(state, seenKey, callerKey);
  const request = toRequest(asked);
  useEffect(() => {
    if (seenKey === callerKey) return;
    setSeenKey(callerKey);
    if (asked !== state) setState(asked);
  }, [seenKey, callerKey, asked, state, setState]);
  const query = useQuery<GridResult<T>>({
    queryKey: [...(props.queryKey ?? ['kit-grid', props.stateKey ?? props.label]), request],
    queryFn: () => props.fetchPage(request),
    // Keep the last page on screen while the next loads, so paging does not flash empty.
    placeholderData: keepPreviousData,
  });
  const total = query.data?.ItemCount ?? 0;
  return (
    <GridShell
      {...props}
      data={query.data?.Items ?? EMPTY}
      total={total}
      remote
      loading={query.isFetching}
      error={query.isError}
      failure={query.error}
      onRetry={() => void query.refetch()}
      loadAcross={(max) => loadAcross(props.fetchPage, request, Math.min(total, max), props.defaults.pageSizes, props.getRowId)}
      runExport={async (format, columns) => {
        if (!props.exportFile) return;
        const { pageIndex: _p, pageSize: _s, ...rest } = request;
        await exportRemote({ ...rest, format, columns: columns.map((c) => ({ id: c.id, header: c.header })) }, props.exportFile);
      }}
    />
  );
}

function LocalGrid<T>(props: Resolved<T>) {
  return (
    <GridShell
      {...props}
      data={props.data ?? EMPTY}
      total={undefined}
      remote={false}
      loading={props.isLoading ?? false}
      error={props.isError ?? false}
      failure={null}
      onRetry={props.onRetry}
      loadAcross={undefined}
      runExport={undefined}
    />
  );
}

interface ShellProps<T> extends Resolved<T> {
  data: readonly T[];
  /** Remote total; local grids count their filtered rows. */
  total: number | undefined;
  remote: boolean;
  loading: boolean;
  error: boolean;
  /**
   * A remote grid's failed load: the grid says the API's words (the server's message, or the client's for no answer),
   * else the kit's 'could not be loaded'. The caller's fetchPage passes `notify: false`, so no toast says it again.
   */
  failure: unknown;
  onRetry: (() => void) | undefined;
  loadAcross: ((max: number) => Promise<string[]>) | undefined;
  runExport: ((format: ExportFormat, columns: readonly GridColumn<T>[]) => Promise<void>) | undefined;
}

function GridShell<T>(props: ShellProps<T>) {
  const { t, i18n } = useTranslation('kit');
  const language = i18n.language;
  const { notify } = useKit();
  const [state, setState] = props.store;
  const selectionMode = props.selectionMode ?? 'none';
  const max = props.maxSelectAcrossPages ?? DEFAULT_MAX_SELECT_ACROSS_PAGES;
  const [visible, setVisible] = useState<ReadonlySet<string>>(() => new Set(props.columns.filter((c) => !c.defaultHidden).map((c) => c.id)));
  const [selection, dispatch] = useReducer(
    (s: Selection, a: SelectionAction) => selectionReducer(s, a, { mode: selectionMode, max }),
    new Set<string>() as Selection,
  );
  const [exporting, setExporting] = useState(false);
  const searchId = useId();
  const paged = props.pageable ?? true;
  const { data, columns, remote } = props;
  // The caller's getRowId is often a new function each render; memos read the latest through the ref.
  const getRowId = useRef(props.getRowId);
  getRowId.current = props.getRowId;

  // Local mode: filtered and sorted over the plain rows, again only when the data, columns or query change (not on
  // a scroll or a selection). The search reads the visible columns, so they count only while searching.
  const { search, sortColumn, sortOrder, pageIndex, pageSize } = state;
  const filterKey = filtersKey(state.filters);
  const searchedColumns = search === '' ? NO_COLUMNS : visible;
  const allRows = useMemo(
    () =>
      remote
        ? data
        : filterAndSortRows(data, columns, { filters: Object.fromEntries(JSON.parse(filterKey)), search, sortColumn, sortOrder }, searchedColumns, language),
    [remote, data, columns, filterKey, search, sortColumn, sortOrder, searchedColumns, language],
  );
  const total = props.total ?? allRows.length;
  const virtualize = !remote && !paged && allRows.length > VIRTUALIZE_AFTER;
  // The rows of the body: the server's page, a local page, or every local row (windowed when long).
  const pageRows = useMemo(
    () => (remote || !paged ? allRows : allRows.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize)),
    [remote, paged, allRows, pageIndex, pageSize],
  );
  const firstRowIndex = remote || paged ? pageIndex * pageSize : 0;
  // "The page" for the header checkbox; a windowed list's page is every row.
  const pageIds = useMemo(() => (selectionMode === 'none' ? EMPTY : pageRows.map((row) => getRowId.current(row))), [selectionMode, pageRows]);
  const pageState = useMemo(() => pageSelectionState(selection, pageIds), [selection, pageIds]);

  const { onSelectionChange } = props;
  useEffect(() => onSelectionChange?.([...selection]), [selection, onSelectionChange]);

  // A shrinking result (filter, delete) must not strand the user past the last page.
  useEffect(() => {
    if (!paged || props.loading) return;
    const page = clampPage(state.pageIndex, total, state.pageSize);
    if (page !== state.pageIndex) setState({ ...state, pageIndex: page });
  }, [paged, props.loading, state, total, setState]);

  const update = useCallback((patch: Partial<GridState>) => setState(withResetPage(state, patch)), [state, setState]);
  const visibleColumns = props.columns.filter((c) => visible.has(c.id));
  const pageAllSelected = pageIds.length > 0 && pageState === 'all';
  const acrossCount = Math.min(total, max);

  const selectAcross = async () => {
    try {
      const ids = props.loadAcross ? await props.loadAcross(max) : allRows.slice(0, max).map((row) => getRowId.current(row));
      dispatch({ type: 'replace', ids });
    } catch {
      notify(t('grid.error'), 'error');
    }
  };

  const doExport = async (format: ExportFormat) => {
    setExporting(true);
    try {
      if (props.runExport) await props.runExport(format, visibleColumns);
      else await exportLocal(visibleColumns, allRows, format, props.exportName ?? 'export');
    } catch {
      notify(t('grid.exportFailed'), 'error');
    } finally {
      setExporting(false);
    }
  };

  const canExport = (props.exportable ?? false) && (!props.remote || props.exportFile !== undefined);
  const hideable = props.columns.filter((c) => c.hideable !== false);

  return (
    <div className={styles.root}>
      <div className={styles.toolbar}>
        {props.searchable ? (
          <div className={formStyles.field}>
            <label htmlFor={searchId} className={formStyles.label}>
              {t('grid.search')}
            </label>
            <DebouncedInput
              id={searchId}
              type="search"
              className={formStyles.input}
              placeholder={t('grid.searchPlaceholder')}
              maxLength={props.searchMaxLength ?? SEARCH_MAX_LENGTH}
              value={state.search}
              onCommit={(search) => update({ search })}
            />
          </div>
        ) : null}
        <span className={styles.spacer} />
        {props.actions}
        {hideable.length > 1 ? (
          <ColumnMenu
            columns={hideable}
            visible={new Set(hideable.filter((c) => visible.has(c.id)).map((c) => c.id))}
            onChange={(shown) => setVisible(new Set([...props.columns.filter((c) => c.hideable === false).map((c) => c.id), ...shown]))}
          />
        ) : null}
        {canExport ? (
          <>
            <Button isDisabled={exporting} onPress={() => void doExport('csv')}>
              {exporting ? t('grid.exporting') : t('grid.exportCsv')}
            </Button>
            <Button isDisabled={exporting} onPress={() => void doExport('xlsx')}>
              {exporting ? t('grid.exporting') : t('grid.exportExcel')}
            </Button>
          </>
        ) : null}
      </div>
      {selectionMode !== 'none' && selection.size > 0 ? (
        <div className={styles.selectionBar} aria-live="polite">
          <span>{t('grid.selectedCount', { count: selection.size })}</span>
          {selectionMode === 'multiple' && pageAllSelected && total > pageIds.length && selection.size < acrossCount ? (
            <Button onPress={() => void selectAcross()}>
              {total > max ? t('grid.selectAcrossCapped', { count: acrossCount }) : t('grid.selectAcross', { count: acrossCount })}
            </Button>
          ) : null}
          <Button onPress={() => dispatch({ type: 'clear' })}>{t('grid.clearSelection')}</Button>
        </div>
      ) : null}
      <GridTable
        label={props.label}
        rows={pageRows}
        firstRowIndex={firstRowIndex}
        getRowId={props.getRowId}
        columns={props.columns}
        visible={visible}
        state={state}
        total={total}
        loading={props.loading}
        error={props.error}
        errorMessage={props.error && props.failure != null ? failureWords(props.failure, t('grid.error')) : undefined}
        onRetry={props.onRetry}
        sortable={props.sortable ?? false}
        filterable={props.filterable ?? false}
        onSort={(column) => update(nextSort(state, column, props.defaults))}
        onFilter={(column, value) => {
          const filters = { ...state.filters };
          if (value === '') delete filters[column];
          else filters[column] = value;
          update({ filters });
        }}
        selectionMode={selectionMode}
        selection={selection}
        pageIds={pageIds}
        pageState={pageState}
        onToggleRow={(id) => dispatch({ type: 'toggle', id })}
        onTogglePage={(ids, selected) => dispatch({ type: 'setPage', ids, selected })}
        getRowLabel={props.getRowLabel ?? props.getRowId}
        renderExpanded={props.renderExpanded}
        virtualize={virtualize}
        rowHeight={props.rowHeight ?? 40}
        maxHeight={props.maxHeight ?? 480}
      />
      {paged ? (
        <GridPager
          pageIndex={state.pageIndex}
          pageSize={state.pageSize}
          pageSizes={props.defaults.pageSizes}
          total={total}
          onPage={(pageIndex) => update({ pageIndex })}
          onPageSize={(pageSize) => update({ pageSize })}
        />
      ) : null}
    </div>
  );
}
