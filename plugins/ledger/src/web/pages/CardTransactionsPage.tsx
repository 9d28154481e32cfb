import { layoutCss, useApi } from '@portal/web';
import type { GridColumn, PageRequest } from '@portal/web/kit';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CARD_SORT_COLUMNS, type CardTransaction, LedgerApi } from '../../contract';
import { day, localDefaultRange, money } from '../components/format';
import { RemoteList } from '../components/RemoteList';

type SortColumn = (typeof CARD_SORT_COLUMNS)[number];
const sortOf = (c: string | undefined): SortColumn | undefined => ((CARD_SORT_COLUMNS as readonly string[]).includes(c ?? '') ? (c as SortColumn) : undefined);

/** /careassist/transactions: the card's transactions, every status, newest first. */
export default function CardTransactionsPage() {
  const api = useApi();
  const { t } = useTranslation('ledger');
  const fetch = useCallback(
    (req: PageRequest, range: { From: string; To: string }) =>
      api.call(
        LedgerApi.amethystSearch,
        { body: { PageIndex: req.pageIndex, PageSize: req.pageSize, SortColumn: sortOf(req.sortColumn), SortOrder: req.sortOrder, Query: range } },
        // A failed page is said in the grid, in the server's words, with its Try again: no toast says it again.
        { skipLoadingBar: true, notify: false },
      ),
    [api],
  );
  const columns = useMemo<GridColumn<CardTransaction>[]>(
    () => [
      { id: 'TransactionDate', header: t('fields.TransactionDate'), accessor: (r) => r.TransactionDate, cell: (r) => day(r.TransactionDate), sortable: true },
      { id: 'Description', header: t('fields.Description'), accessor: (r) => r.Description, sortable: true },
      { id: 'Type', header: t('fields.Type'), accessor: (r) => t(`cardType.${r.Type}`), sortable: true },
      { id: 'Amount', header: t('fields.Amount'), accessor: (r) => money(r.Amount), sortable: true, align: 'end' },
      { id: 'Status', header: t('fields.Status'), accessor: (r) => t(`status.${r.status}`), sortable: true },
    ],
    [t],
  );
  return (
    <div className={layoutCss.card}>
      <RemoteList<CardTransaction>
        label={t('title.card')}
        stateKey="ledger-card"
        columns={columns}
        defaultRange={localDefaultRange('ledger')}
        defaultSort={{ column: 'TransactionDate', order: 'desc' }}
        getRowId={(r) => String(r.TransactionID)}
        fetch={fetch}
      />
    </div>
  );
}
