import type { Row } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, type KeyboardEvent, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { edgeAttributes, useSideways } from '../components/sidewaysScroll';
import * as edgeStyles from '../components/sidewaysScroll.css';
import { visuallyHidden } from '../visuallyHidden.css';
import { DebouncedInput } from './DebouncedInput';
import * as styles from './dataGrid.css';
import type { GridState } from './gridState';
import { CELL_CONTROLS, type CellPosition, cellKeyAction, moveCell } from './keyboardNav';
import type { Selection } from './selection';
import type { GridColumn, SelectionMode } from './types';
import { useKitTable } from './useKitTable';
import { gridVirtualizerOptions, type WindowRange, windowFromItems } from './virtualRows';

export interface GridTableProps<T> {
  label: string;
  /** The body's rows, already sorted and filtered: a page, or every row of a windowed list. */
  rows: readonly T[];
  /** Rows before the first of `rows` (earlier pages), for aria-rowindex. */
  firstRowIndex: number;
  getRowId: (row: T) => string;
  columns: readonly GridColumn<T>[];
  visible: ReadonlySet<string>;
  state: GridState;
  /** Total rows across pages, for aria-rowcount. */
  total: number;
  loading: boolean;
  error: boolean;
  /** What the failed load says (a remote grid's: the API's words); the kit's 'The data could not be loaded.' if not given. */
  errorMessage?: string | undefined;
  onRetry?: (() => void) | undefined;
  sortable: boolean;
  filterable: boolean;
  onSort: (column: string) => void;
  onFilter: (column: string, value: string) => void;
  selectionMode: SelectionMode;
  selection: Selection;
  /** Ids of "the page" the header checkbox selects (every row when windowed) and their selection state. */
  pageIds: readonly string[];
  pageState: 'all' | 'some' | 'none';
  onToggleRow: (id: string) => void;
  onTogglePage: (ids: readonly string[], selected: boolean) => void;
  getRowLabel: (row: T) => string;
  renderExpanded?: ((row: T) => ReactNode) | undefined;
  /** Only the rows in view (plus a few) are rendered, windowed by @tanstack/react-virtual. */
  virtualize: boolean;
  rowHeight: number;
  maxHeight: number;
}

const INTERACTIVE_TEXT = 'input:not([type="checkbox"]):not([type="radio"]), textarea, select, [contenteditable="true"]';

/** A native <table role="grid"> with roving focus between cells (ARIA grid pattern). */
export function GridTable<T>(props: GridTableProps<T>) {
  const { t } = useTranslation('kit');
  const { rows, state, selection, selectionMode, pageIds, pageState, rowHeight } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const sideways = useSideways(scroller);
  const tableRef = useRef<HTMLTableElement>(null);
  const head = useRef<HTMLTableSectionElement>(null);
  const [headHeight, setHeadHeight] = useState(0);
  // The body starts below the sticky head (header and filter rows), which the virtualizer needs to know.
  useLayoutEffect(() => {
    const el = head.current;
    if (!props.virtualize || !el) return;
    const measure = () => setHeadHeight(el.offsetHeight);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [props.virtualize]);
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLTableRowElement>({
    ...gridVirtualizerOptions({ rowCount: rows.length, rowHeight, headHeight, viewportHeight: props.maxHeight, enabled: props.virtualize }),
    getScrollElement: () => scroller.current,
    // Re-render in React's own time rather than synchronously inside the scroll event: the frame that paints the
    // scroll then does not also carry the rows' render and commit (overscan covers the frame in between).
    useFlushSync: false,
  });
  const range: WindowRange = props.virtualize
    ? windowFromItems(virtualizer.getVirtualItems(), rows.length, rowHeight)
    : { start: 0, end: rows.length, padTop: 0, padBottom: 0 };
  // The table model gets the rendered rows only: a scroll builds row objects for the window, never for every row.
  const body = useMemo(() => (props.virtualize ? rows.slice(range.start, range.end) : rows), [props.virtualize, rows, range.start, range.end]);
  const table = useKitTable({ rows: body, columns: props.columns, state, visible: props.visible, getRowId: props.getRowId });
  const bodyRows = table.getRowModel().rows;
  const dataColumns = table.getVisibleLeafColumns();
  const byId = new Map(props.columns.map((c) => [c.id, c]));
  const expandable = props.renderExpanded !== undefined && !props.virtualize;
  const leading = (selectionMode === 'none' ? 0 : 1) + (expandable ? 1 : 0);
  const colCount = leading + dataColumns.length;
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [active, setActive] = useState<CellPosition>({ row: 0, col: 0 });
  const pendingFocus = useRef(false);
  // Keyboard moves to a row outside the window scroll it into view (below the sticky head); then it is rendered and focused.
  const revealRow = (row: number) => {
    if (props.virtualize) virtualizer.scrollToIndex(row, { align: 'auto' });
  };

  // Keep the active cell inside the grid when rows or columns change.
  const activeRow = Math.min(active.row, rows.length);
  const activeCol = Math.min(active.col, colCount - 1);

  const virtualize = props.virtualize;
  useEffect(() => {
    const table = tableRef.current;
    const focused = document.activeElement;
    // Windowed rows are reused for other rows as the window moves: while a cell has the focus, it follows the active
    // cell onto its row's new element (focused may now show another row).
    const cellFocused = virtualize && table !== null && focused instanceof HTMLElement && table.contains(focused) && focused.dataset.cell !== undefined;
    if (!pendingFocus.current && !cellFocused) return;
    const cell = table?.querySelector<HTMLElement>(`[data-cell="${activeRow}:${activeCol}"]`);
    // A windowed grid has already scrolled the row into view below the sticky head (revealRow); the browser's own
    // focus scroll would ignore that head and could leave the cell under it.
    if (cell && cell !== focused) cell.focus(pendingFocus.current && !virtualize ? undefined : { preventScroll: true });
    if (cell) pendingFocus.current = false;
  }, [virtualize, activeRow, activeCol, range.start, range.end]);

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const target = event.target as HTMLElement;
    if (target.matches(INTERACTIVE_TEXT) || event.defaultPrevented) return;
    // Space or Enter on a focused cell operates its one control (row checkbox, expander, header select-all; Enter
    // follows a link, such as a record's name): the grid's controls sit outside the tab order, so without this a
    // keyboard user could reach the cell but not use it. A cell of several controls (a row's actions) is entered
    // instead: Enter (or F2) moves focus to its first control, and Escape from a control goes back to the cell.
    if ((event.key === ' ' || event.key === 'Enter' || event.key === 'F2') && target.matches('[data-cell]')) {
      const controls = [...target.querySelectorAll<HTMLElement>(CELL_CONTROLS)];
      const action = cellKeyAction(
        event.key,
        controls.map((c) => c.tagName),
      );
      if (action) {
        event.preventDefault();
        if (action === 'operate') controls[0]?.click();
        else controls[0]?.focus();
      }
      return;
    }
    const ownCell = target.matches('[data-cell]') ? null : target.closest<HTMLElement>('[data-cell]');
    if (event.key === 'Escape' && ownCell) {
      event.preventDefault();
      ownCell.focus();
      return;
    }
    const next = moveCell({ row: activeRow, col: activeCol }, event.key, { rowCount: rows.length + 1, colCount, pageRows: 10 }, event.ctrlKey || event.metaKey);
    if (!next) return;
    event.preventDefault();
    pendingFocus.current = true;
    if (next.row > 0) revealRow(next.row - 1);
    setActive(next);
  };

  const cellProps = (row: number, col: number) => ({
    'data-cell': `${row}:${col}`,
    tabIndex: row === activeRow && col === activeCol ? 0 : -1,
    onFocus: () => {
      if (row !== activeRow || col !== activeCol) setActive({ row, col });
    },
  });

  const firstRowIndex = props.firstRowIndex;
  const hasFilterRow = props.filterable && dataColumns.some((c) => c.getCanFilter());
  const offset = range.start;

  const renderRow = (row: Row<T>, index: number) => {
    const rowNumber = index + 1;
    const isSelected = selection.has(row.id);
    const isExpanded = expandable && expanded.has(row.id);
    const rowLabel = props.getRowLabel(row.original);
    let col = 0;
    return (
      // Windowed rows are keyed by their place in the window, not by id: a scroll then updates the rows' text and
      // attributes in place instead of removing and creating rows (no child-list change, far less DOM work). The
      // effect above moves the focus along when the active cell's row moves to another element.
      <Fragment key={props.virtualize ? `slot:${index - range.start}` : `row:${row.id}`}>
        <tr
          className={styles.row}
          aria-rowindex={firstRowIndex + rowNumber + 1}
          {...(selectionMode === 'none' ? {} : { 'aria-selected': isSelected })}
          {...(props.virtualize ? { style: { height: rowHeight } } : {})}
        >
          {selectionMode === 'none' ? null : (
            <td className={styles.cell} {...cellProps(rowNumber, col++)}>
              <input
                type={selectionMode === 'single' ? 'radio' : 'checkbox'}
                tabIndex={-1}
                checked={isSelected}
                onChange={() => props.onToggleRow(row.id)}
                aria-label={t('grid.selectRow', { row: rowLabel })}
              />
            </td>
          )}
          {expandable ? (
            <td className={styles.cell} {...cellProps(rowNumber, col++)}>
              <Button
                excludeFromTabOrder
                aria-expanded={isExpanded}
                aria-label={isExpanded ? t('grid.collapseRow', { row: rowLabel }) : t('grid.expandRow', { row: rowLabel })}
                onPress={() =>
                  setExpanded((current) => {
                    const next = new Set(current);
                    if (!next.delete(row.id)) next.add(row.id);
                    return next;
                  })
                }
              >
                {isExpanded ? '▾' : '▸'}
              </Button>
            </td>
          ) : null}
          {/* Columns and row values directly rather than row.getVisibleCells(): that builds and keeps a cell object per
              row and column, which a windowed list of 100,000 rows piles up while scrolling (garbage-collection pauses). */}
          {dataColumns.map((leaf) => {
            const column = byId.get(leaf.id);
            // The accessor is called afresh: the table caches row values per data set, but accessors may read state
            // that arrives later (e.g. lookup names).
            const content = column?.cell ? column.cell(row.original) : String((column?.accessor ? column.accessor(row.original) : row.getValue(leaf.id)) ?? '');
            return (
              <td key={leaf.id} className={[styles.cell, alignClass(column?.align)].filter(Boolean).join(' ')} {...cellProps(rowNumber, col++)}>
                {content}
              </td>
            );
          })}
        </tr>
        {isExpanded && props.renderExpanded ? (
          <tr>
            <td colSpan={colCount} className={styles.expanded}>
              {props.renderExpanded(row.original)}
            </td>
          </tr>
        ) : null}
      </Fragment>
    );
  };

  let headerCol = 0;
  const status = props.error ? 'error' : props.loading && rows.length === 0 ? 'loading' : rows.length === 0 ? 'empty' : null;
  return (
    // The wrapper shades an edge past which columns are hidden (a phone, a narrow window): the table goes on.
    <div className={edgeStyles.edges} {...edgeAttributes(sideways)}>
      <div ref={scroller} className={styles.scroller} {...(props.virtualize ? { style: { maxHeight: props.maxHeight } } : {})}>
        <table
          ref={tableRef}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a native table with role=grid is the APG data-grid pattern; cells carry roving focus.
          role="grid"
          aria-label={props.label}
          aria-rowcount={(props.virtualize ? rows.length : props.total) + 1}
          aria-colcount={colCount}
          aria-busy={props.loading}
          {...(selectionMode === 'multiple' ? { 'aria-multiselectable': true } : {})}
          className={[styles.table, props.loading && rows.length > 0 ? styles.busy : ''].filter(Boolean).join(' ')}
          onKeyDown={onKeyDown}
        >
          <thead ref={head} className={styles.head}>
            <tr aria-rowindex={1}>
              {selectionMode === 'none' ? null : (
                <th scope="col" className={styles.headerCell} {...cellProps(0, headerCol++)}>
                  {selectionMode === 'multiple' ? (
                    <input
                      type="checkbox"
                      tabIndex={-1}
                      aria-label={t('grid.selectPage')}
                      checked={pageState === 'all' && pageIds.length > 0}
                      ref={(el) => {
                        if (el) el.indeterminate = pageState === 'some';
                      }}
                      onChange={() => props.onTogglePage(pageIds, pageState !== 'all')}
                    />
                  ) : (
                    <span className={visuallyHidden}>{t('grid.selectRow', { row: '' })}</span>
                  )}
                </th>
              )}
              {expandable ? (
                <th scope="col" className={styles.headerCell} {...cellProps(0, headerCol++)}>
                  <span className={visuallyHidden}>{t('grid.details')}</span>
                </th>
              ) : null}
              {dataColumns.map((column) => {
                const def = byId.get(column.id);
                const header = def?.header ?? column.id;
                const sorted = state.sortColumn === column.id ? state.sortOrder : null;
                const canSort = props.sortable && column.getCanSort();
                return (
                  <th
                    key={column.id}
                    scope="col"
                    className={[styles.headerCell, alignClass(def?.align)].filter(Boolean).join(' ')}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : canSort ? 'none' : undefined}
                    {...(def?.width ? { style: { width: def.width } } : {})}
                    {...cellProps(0, headerCol++)}
                    {...(canSort
                      ? {
                          onKeyDown: (e: KeyboardEvent) => {
                            if (e.key === 'Enter' || e.key === ' ') {
                              e.preventDefault();
                              props.onSort(column.id);
                            }
                          },
                        }
                      : {})}
                  >
                    {canSort ? (
                      <button type="button" tabIndex={-1} className={styles.sortButton} onClick={() => props.onSort(column.id)}>
                        {header}
                        <span aria-hidden="true">{sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}</span>
                        <span className={visuallyHidden}>
                          {sorted === 'asc' ? t('grid.sortedAscending') : sorted === 'desc' ? t('grid.sortedDescending') : t('grid.sortBy', { column: header })}
                        </span>
                      </button>
                    ) : (
                      header
                    )}
                  </th>
                );
              })}
            </tr>
            {hasFilterRow ? (
              <tr>
                {Array.from({ length: leading }, (_, i) => (
                  <td key={`lead-${i}`} className={styles.headerCell} />
                ))}
                {dataColumns.map((column) => {
                  const header = byId.get(column.id)?.header ?? column.id;
                  return (
                    <td key={column.id} className={styles.headerCell}>
                      {column.getCanFilter() ? (
                        <DebouncedInput
                          className={styles.filterInput}
                          aria-label={t('grid.filterColumn', { column: header })}
                          value={state.filters[column.id] ?? ''}
                          onCommit={(value) => props.onFilter(column.id, value)}
                        />
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ) : null}
          </thead>
          <tbody>
            {status ? (
              <tr>
                <td colSpan={colCount} className={status === 'error' ? styles.errorMessage : styles.message} role={status === 'error' ? 'alert' : 'status'}>
                  {status === 'error' ? (props.errorMessage ?? t('grid.error')) : t(`grid.${status}`)}
                  {status === 'error' && props.onRetry ? (
                    <>
                      {' '}
                      <Button onPress={props.onRetry}>{t('grid.retry')}</Button>
                    </>
                  ) : null}
                </td>
              </tr>
            ) : (
              <>
                {/* The spacers stay in the DOM (0 px at the ends): rows coming and going would otherwise change the body's child
                  list, which observers of it (react-aria's tab panel looks for tabbable children) pay for on every scroll. */}
                {props.virtualize ? (
                  // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: a spacer standing in for off-screen rows; not a grid row.
                  <tr role="presentation" style={{ height: range.padTop }} />
                ) : null}
                {bodyRows.map((row, i) => renderRow(row, offset + i))}
                {props.virtualize ? (
                  // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: a spacer standing in for off-screen rows; not a grid row.
                  <tr role="presentation" style={{ height: range.padBottom }} />
                ) : null}
              </>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function alignClass(align: GridColumn<unknown>['align']): string {
  return align === 'end' ? styles.cellEnd : align === 'center' ? styles.cellCenter : '';
}
