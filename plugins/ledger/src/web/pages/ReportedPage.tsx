import { layoutCss, useApi } from '@portal/web';
import type { GridColumn, PageRequest } from '@portal/web/kit';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LEDGER_SORT_COLUMNS, LedgerApi, type LedgerTransaction } from '../../contract';
import { signOf } from '../../rules';
import { day, localDefaultRange, money } from '../components/format';
import { RemoteList } from '../components/RemoteList';

type SortColumn = (typeof LEDGER_SORT_COLUMNS)[number];
const sortOf = (c: string | undefined): SortColumn | undefined =>
  (LEDGER_SORT_COLUMNS as readonly string[]).includes(c ?? '') ? (c as SortColumn) : undefined;

/** /transactions/reported: the ledger's rows already reported to the federal payer. */
export default function ReportedPage() {
  const api = useApi();
  const { t } = useTranslation('ledger');
  const fetch = useCallback(
    (req: PageRequest, range: { From: string; To: string }) =>
      api.call(
        LedgerApi.search,
        {
          body: {
            PageIndex: req.pageIndex,
            PageSize: req.pageSize,
            SortColumn: sortOf(req.sortColumn),
            SortOrder: req.sortOrder,
            Query: { ...range, View: 'reported' },
          },
        },
        // A failed page is said in the grid, in the server's words, with its Try again: no toast says it again.
        { skipLoadingBar: true, notify: false },
      ),
    [api],
  );
  const columns = useMemo<GridColumn<LedgerTransaction>[]>(
    () => [
      { id: 'DateCreated', header: t('fields.DateCreated'), accessor: (r) => r.DateCreated, cell: (r) => day(r.DateCreated), sortable: true },
      { id: 'Code', header: t('fields.Code'), accessor: (r) => r.Code ?? '', sortable: true },
      { id: 'Company', header: t('fields.Company'), accessor: (r) => r.Company ?? '', sortable: true },
      { id: 'Description', header: t('fields.Description'), accessor: (r) => r.Description ?? '', sortable: true },
      { id: 'TransactionTypeID', header: t('fields.TransactionTypeID'), accessor: (r) => t(`types.${r.TransactionTypeID}`), sortable: true },
      { id: 'Amount', header: t('fields.Amount'), accessor: (r) => money(signOf(r.TransactionTypeID) * r.Amount), sortable: true, align: 'end' },
      { id: 'ReportedDate', header: t('fields.ReportedDate'), accessor: (r) => r.ReportedDate ?? '', cell: (r) => day(r.ReportedDate) },
    ],
    [t],
  );
  return (
    <div className={layoutCss.card}>
      <RemoteList<LedgerTransaction>
        label={t('title.reported')}
        stateKey="ledger-reported"
        columns={columns}
        defaultRange={localDefaultRange('ledger')}
        defaultSort={{ column: 'DateCreated', order: 'asc' }}
        getRowId={(r) => String(r.TransactionID)}
        fetch={fetch}
      />
    </div>
  );
}
