import { formatIsoDayText } from '@portal/core';
import { type ApiCallError, showToast, useApi } from '@portal/web';
import { DataGrid, type GridColumn, type PageRequest } from '@portal/web/kit';
import { type ReactNode, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { type Claim, type ClaimSearchInput, type ClaimSearchResult, type ClaimsApi, PAGE_SIZES, type SortColumn } from '../../contract';
import * as css from './claims.css';
import { claimTypeName, money, statusName } from './format';
import { shownPayee } from './payee';
import { useClaimLookups } from './useClaimLookups';

interface Props {
  label: string;
  /** The bills list or the pending claims list: both take the bills filter. */
  endpoint: typeof ClaimsApi.search | typeof ClaimsApi.searchAmethyst;
  filters: ClaimSearchInput;
  defaultSort: { column: SortColumn; order: 'asc' | 'desc' };
  stateKey: string;
  selectable?: boolean;
  onSelectionChange?: (ids: string[]) => void;
  actions?: ReactNode;
  linkToDetail?: boolean;
  /** Each page of bills the grid fetched (the bills list records the Versions it has shown). */
  onPage?: (rows: readonly Claim[]) => void;
}

/** A remote grid of bills: server-side sort, paging and filters; failures show as a 10 s warning toast. */
export function BillsGrid({ label, endpoint, filters, defaultSort, stateKey, selectable, onSelectionChange, actions, linkToDetail = true, onPage }: Props) {
  const api = useApi();
  const { t } = useTranslation('claims');
  const { statusNames, billTypeNames } = useClaimLookups();

  const fetchPage = useCallback(
    async (req: PageRequest): Promise<ClaimSearchResult> => {
      try {
        const page = await api.call(
          endpoint,
          {
            body: { ...filters, PageIndex: req.pageIndex, PageSize: req.pageSize, SortColumn: req.sortColumn ?? defaultSort.column, SortOrder: req.sortOrder },
          },
          { notify: false, skipLoadingBar: true },
        );
        onPage?.(page.Items);
        return page;
      } catch (e) {
        // Spec 02 section 8: a failed claims search shows the response text as a warning for 10 seconds.
        showToast({ kind: 'warning', message: (e as ApiCallError).message, timeout: 10_000 });
        throw e;
      }
    },
    [api, endpoint, filters, defaultSort.column, onPage],
  );

  const columns = useMemo<GridColumn<Claim>[]>(
    () => [
      {
        id: 'ClaimID',
        header: t('grid.ClaimID'),
        accessor: (c) => c.ClaimID,
        cell: (c) =>
          linkToDetail ? (
            <Link className={css.link} to={`/claims/${c.ClaimID}`} aria-label={t('grid.open', { id: c.ClaimID })}>
              {c.ClaimID}
            </Link>
          ) : (
            c.ClaimID
          ),
        sortable: true,
        hideable: false,
      },
      { id: 'ClaimNumber', header: t('grid.ClaimNumber'), accessor: (c) => c.ClaimNumber, sortable: true },
      { id: 'PayeeName', header: t('grid.PayeeName'), accessor: (c) => shownPayee(t, c), sortable: true },
      { id: 'ClaimStatusID', header: t('grid.ClaimStatusID'), accessor: (c) => statusName(statusNames, c.ClaimStatusID), sortable: true },
      { id: 'BillTypeID', header: t('grid.BillTypeID'), accessor: (c) => billTypeNames.get(c.BillTypeID) ?? String(c.BillTypeID), sortable: true },
      { id: 'ClaimTypeID', header: t('grid.ClaimTypeID'), accessor: (c) => claimTypeName(t, c.ClaimTypeID), sortable: true, defaultHidden: true },
      {
        id: 'ServiceDateFrom',
        header: t('grid.ServiceDateFrom'),
        accessor: (c) => c.ServiceDateFrom,
        cell: (c) => formatIsoDayText(c.ServiceDateFrom),
        sortable: true,
      },
      { id: 'ReceivedDate', header: t('grid.ReceivedDate'), accessor: (c) => c.ReceivedDate, cell: (c) => formatIsoDayText(c.ReceivedDate), sortable: true },
      { id: 'BilledAmount', header: t('grid.BilledAmount'), accessor: (c) => money(c.BilledAmount), sortable: true, align: 'end' },
      {
        id: 'SubmittedUNCAmount',
        header: t('grid.SubmittedUNCAmount'),
        accessor: (c) => money(c.SubmittedUNCAmount),
        sortable: true,
        align: 'end',
        defaultHidden: true,
      },
      { id: 'PaidDate', header: t('grid.PaidDate'), accessor: (c) => c.PaidDate ?? '', cell: (c) => formatIsoDayText(c.PaidDate), sortable: true },
      { id: 'PaidAmount', header: t('grid.PaidAmount'), accessor: (c) => money(c.PaidAmount), sortable: true, align: 'end' },
      { id: 'CheckNumber', header: t('grid.CheckNumber'), accessor: (c) => c.CheckNumber ?? '', sortable: true, defaultHidden: true },
      { id: 'MemberName', header: t('grid.MemberName'), accessor: (c) => c.MemberName, sortable: true, defaultHidden: true },
    ],
    [t, statusNames, billTypeNames, linkToDetail],
  );

  return (
    <DataGrid<Claim>
      label={label}
      columns={columns}
      getRowId={(c) => String(c.ClaimID)}
      getRowLabel={(c) => t('grid.row', { id: c.ClaimID, payee: shownPayee(t, c) })}
      fetchPage={fetchPage}
      queryKey={['claims', endpoint.path, filters]}
      sortable
      pageSizes={PAGE_SIZES}
      defaultPageSize={20}
      defaultSort={defaultSort}
      stateKey={stateKey}
      selectionMode={selectable ? 'multiple' : 'none'}
      onSelectionChange={onSelectionChange}
      actions={actions}
    />
  );
}
