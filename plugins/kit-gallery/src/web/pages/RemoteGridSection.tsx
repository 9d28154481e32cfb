import { formatCurrency, formatLocale } from '@portal/core';
import { useApi } from '@portal/web';
import { DataGrid, detailsList, type FetchPage, type GridColumn } from '@portal/web/kit';
import { useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type ExportRequestBody,
  KitGalleryApi,
  ROW_COLUMNS,
  ROW_DEFAULT_PAGE_SIZE,
  ROW_PAGE_SIZES,
  type RowColumn,
  type RowsRequest,
  SAMPLE_ROW_COUNT,
  type SampleRow,
} from '../../contract';
import * as css from './gallery.css';

export const isoToUs = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/** The remote grid: the server sorts, filters and pages 12,000 sample rows; exports stream every filtered row. */
export function RemoteGridSection() {
  const { t } = useTranslation('kit-gallery');
  const api = useApi();
  const headingId = useId();
  const [selected, setSelected] = useState(0);

  const columns = useMemo<GridColumn<SampleRow>[]>(() => {
    const header = (id: RowColumn) => t(`columns.${id}`);
    const base = (id: RowColumn): GridColumn<SampleRow> => ({ id, header: header(id), accessor: (r) => r[id], sortable: true, filterable: true });
    return ROW_COLUMNS.map((id): GridColumn<SampleRow> => {
      switch (id) {
        case 'Id':
          return { ...base(id), hideable: false, align: 'end', width: '6em' };
        case 'Amount':
          return { ...base(id), align: 'end', cell: (r) => formatCurrency(r.Amount) };
        case 'Date':
          return { ...base(id), cell: (r) => isoToUs(r.Date) };
        case 'Status':
          return { ...base(id), cell: (r) => t(`status.${r.Status}`) };
        case 'Category':
          // Hidden at first: the Columns menu shows it.
          return { ...base(id), cell: (r) => t(`category.${r.Category}`), defaultHidden: true };
        default:
          return base(id);
      }
    });
  }, [t]);

  const fetchPage = useCallback<FetchPage<SampleRow>>(
    (r) => {
      const body: RowsRequest = {
        PageIndex: r.pageIndex,
        PageSize: r.pageSize,
        SortColumn: (r.sortColumn as RowColumn | undefined) ?? null,
        SortOrder: r.sortOrder,
        Search: r.search,
        Filters: r.filters,
      };
      // Spec 02 section 7: search requests skip the loading bar (the grid shows its own busy state). A failed page is
      // said in the grid, in the server's words, with its Try again: no toast says it again.
      return api.call(KitGalleryApi.rows, { body }, { skipLoadingBar: true, notify: false });
    },
    [api],
  );

  const renderExpanded = useCallback(
    (row: SampleRow) => (
      <dl className={detailsList} aria-label={t('remote.details', { id: row.Id })}>
        {ROW_COLUMNS.map((id) => (
          <div key={id} style={{ display: 'contents' }}>
            <dt className={css.term}>{t(`columns.${id}`)}</dt>
            <dd className={css.definition}>
              {id === 'Amount'
                ? formatCurrency(row.Amount)
                : id === 'Date'
                  ? isoToUs(row.Date)
                  : id === 'Status'
                    ? t(`status.${row.Status}`)
                    : id === 'Category'
                      ? t(`category.${row.Category}`)
                      : row[id]}
            </dd>
          </div>
        ))}
      </dl>
    ),
    [t],
  );

  const onSelectionChange = useCallback((ids: string[]) => setSelected(ids.length), []);

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className={css.heading}>
        {t('remote.heading')}
      </h2>
      <p className={css.description}>{t('remote.description', { rows: SAMPLE_ROW_COUNT.toLocaleString(formatLocale()) })}</p>
      <DataGrid<SampleRow>
        label={t('remote.label')}
        columns={columns}
        getRowId={(r) => String(r.Id)}
        getRowLabel={(r) => `${r.Id} ${r.Name}`}
        fetchPage={fetchPage}
        queryKey={['kit-gallery', 'rows']}
        stateKey="rows"
        sortable
        filterable
        searchable
        pageSizes={ROW_PAGE_SIZES}
        defaultPageSize={ROW_DEFAULT_PAGE_SIZE}
        defaultSort={{ column: 'Date', order: 'desc' }}
        selectionMode="multiple"
        onSelectionChange={onSelectionChange}
        renderExpanded={renderExpanded}
        exportable
        exportFile={(body) => api.call(KitGalleryApi.exportRows, { body: body as ExportRequestBody }, { notify: false })}
      />
      <p className={css.description} aria-live="polite" data-testid="remote-selected">
        {t('remote.selected', { count: selected })}
      </p>
    </section>
  );
}
