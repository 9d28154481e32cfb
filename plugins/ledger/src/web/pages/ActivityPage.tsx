import { formatDateTime } from '@portal/core';
import { layoutCss, useApi } from '@portal/web';
import type { GridColumn, PageRequest } from '@portal/web/kit';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ACTIVITY_SORT_COLUMNS, type ActivitySortColumn, type ActivityTransaction, LedgerApi } from '../../contract';
import { localDefaultRange, money } from '../components/format';
import { RemoteList } from '../components/RemoteList';

/** The grid's sort column as the API names it (spec 02 section 3: type, text); any other (an old link's 'Type') sorts by default. */
const activitySort = (column: string | undefined): ActivitySortColumn | undefined =>
  (ACTIVITY_SORT_COLUMNS as readonly string[]).includes(column ?? '') ? (column as ActivitySortColumn) : undefined;

/** /transactions/activity: account activity, the last 90 days, newest first. */
export default function ActivityPage() {
  const api = useApi();
  const { t } = useTranslation('ledger');
  const fetch = useCallback(
    (req: PageRequest, range: { From: string; To: string }) =>
      api.call(
        LedgerApi.financialsSearch,
        {
          body: {
            PageIndex: req.pageIndex,
            PageSize: req.pageSize,
            SortColumn: activitySort(req.sortColumn),
            SortOrder: req.sortOrder,
            Query: range,
          },
        },
        // A failed page is said in the grid, in the server's words, with its Try again: no toast says it again.
        { skipLoadingBar: true, notify: false },
      ),
    [api],
  );
  const columns = useMemo<GridColumn<ActivityTransaction>[]>(
    () => [
      { id: 'CreatedDate', header: t('fields.CreatedDate'), accessor: (r) => r.CreatedDate, cell: (r) => formatDateTime(r.CreatedDate), sortable: true },
      { id: 'type', header: t('fields.Type'), accessor: (r) => r.type, sortable: true },
      { id: 'text', header: t('fields.Text'), accessor: (r) => r.text, sortable: true },
      { id: 'Amount', header: t('fields.Amount'), accessor: (r) => money(r.Amount), align: 'end' },
    ],
    [t],
  );
  return (
    <div className={layoutCss.card}>
      <RemoteList<ActivityTransaction>
        label={t('title.activity')}
        stateKey="ledger-activity"
        columns={columns}
        defaultRange={localDefaultRange('activity')}
        defaultSort={{ column: 'CreatedDate', order: 'desc' }}
        getRowId={(r) => String(r.TransactionID)}
        fetch={fetch}
      />
    </div>
  );
}
