import { formatCurrency, formatDateTime } from '@portal/core';
import { showToast, useApi } from '@portal/web';
import { Button, ConfirmDialog, DataGrid, type GridColumn, NativeSelectField, type PageRequest, readGridState, saveBlob, useUrlChoice } from '@portal/web/kit';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { SUPPORT_STATUS_PARAM } from '../../access';
import { SupportApi, type SupportMoneyResult, type SupportTransaction } from '../../contract';
import {
  DEFAULT_PENDING_FILTER,
  DEFAULT_TX_FILTER,
  displayStatus,
  newIdempotencyKey,
  PENDING_TX_FILTERS,
  paNumberMatches,
  rowActions,
  SUPPORT_DEFAULT_PAGE_SIZE,
  SUPPORT_PAGE_SIZES,
  SUPPORT_TX_FILTERS,
  type SupportTxFilter,
} from '../../rules';
import { refreshTransactions } from './refreshTransactions';
import * as css from './support.css';
import { exportBody, searchFields } from './transactionSearch';
import { ValueDialog } from './ValueDialog';

/** The grid's defaults; the export reads the grid's state from the address with the same ones. */
const GRID_DEFAULTS = { pageSizes: SUPPORT_PAGE_SIZES, pageSize: SUPPORT_DEFAULT_PAGE_SIZE, sortColumn: 'DateCreated', sortOrder: 'desc' } as const;

interface Props {
  /** 'all': /support-transactions; 'pending': /support-pendingtransactions; 'member': one member's tab. */
  mode: 'all' | 'pending' | 'member';
  memberId?: number;
}

/**
 * Support transactions (spec 02 sections 2, 4 and 8): status filter, search, sizes 10/20/30/50 (20), newest first,
 * expandable rows, row checkboxes with select-all for the page; per row Charge, Refund (with the void offer when the
 * charge has not settled), Decline (pending list) and the PA number; export to Excel.
 */
export function TransactionsGrid({ mode, memberId }: Props) {
  const api = useApi();
  const { t } = useTranslation('support');
  const queryClient = useQueryClient();
  const filters = mode === 'pending' ? PENDING_TX_FILTERS : SUPPORT_TX_FILTERS;
  // The lists keep their filter in the address (a link opens '/support-transactions?status=Authorized'); a tab does not.
  const [status, setStatus] = useUrlChoice<SupportTxFilter>(
    mode === 'member' ? null : SUPPORT_STATUS_PARAM,
    filters,
    mode === 'pending' ? DEFAULT_PENDING_FILTER : mode === 'member' ? 'All' : DEFAULT_TX_FILTER,
  );
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [voidOffer, setVoidOffer] = useState<SupportTransaction | null>(null);
  const [paFor, setPaFor] = useState<SupportTransaction | null>(null);
  const [captureFor, setCaptureFor] = useState<SupportTransaction | null>(null);
  const [releaseFor, setReleaseFor] = useState<SupportTransaction | null>(null);
  // Every grid keeps its page, sort and search in the address, the member tab's too: the export reads them from there,
  // so the file follows what the grid shows (a page served from the cache included).
  const stateKey = `support-${mode}`;
  const [searchParams] = useSearchParams();
  const queryKey = useMemo(() => ['support', 'transactions', mode, memberId ?? null, status] as const, [mode, memberId, status]);

  // A failed page is said in the grid, in the server's words, with its Try again: no toast says it again (notify: false).
  const fetchPage = useCallback(
    (req: PageRequest) => {
      const { SortColumn, SortOrder, SearchString: search } = searchFields(req);
      const common = { PageIndex: req.pageIndex, PageSize: req.pageSize as 20, SortColumn, SortOrder };
      if (mode === 'pending') {
        return api.call(
          SupportApi.pendingTransactions,
          { query: { ...common, Status: status as (typeof PENDING_TX_FILTERS)[number], SearchString: search } },
          { skipLoadingBar: true, notify: false },
        );
      }
      const body = { ...common, Query: { Status: status, SearchString: search } };
      if (mode === 'member' && memberId !== undefined) {
        return api.call(SupportApi.memberTransactions, { params: { id: memberId }, body }, { skipLoadingBar: true, notify: false });
      }
      return api.call(SupportApi.transactions, { body }, { skipLoadingBar: true, notify: false });
    },
    [api, mode, memberId, status],
  );

  const refresh = () => refreshTransactions(queryClient);
  /** Message shown as success when StatusString is Ok, else as an error (spec 02 section 8); an HTTP error shows its Message itself. */
  const report = (r: SupportMoneyResult) => showToast({ kind: r.StatusString === 'Ok' ? 'success' : 'error', message: r.Message });

  const act = async (row: SupportTransaction, action: 'charge' | 'refund' | 'void' | 'decline') => {
    const id = `${action}:${row.TransactionID}`;
    if (busy) return;
    setBusy(id);
    try {
      if (action === 'decline') {
        await api.call(SupportApi.saveTransaction, { body: { TransactionID: row.TransactionID, Status: 'Declined' } });
      } else {
        // One idempotency key per press: the client's retries of this request reuse it.
        const endpoint = action === 'charge' ? SupportApi.charge : action === 'refund' ? SupportApi.refund : SupportApi.void;
        const r = await api.call(endpoint, { body: { TransactionID: row.TransactionID, IdempotencyKey: newIdempotencyKey(action) } });
        if (r.Unsettled) setVoidOffer(row);
        else report(r);
      }
    } catch {
      // The API client already showed the server's message.
    } finally {
      setBusy(null);
      await refresh();
    }
  };

  const columns = useMemo<GridColumn<SupportTransaction>[]>(
    () => [
      { id: 'TransactionID', header: t('fields.TransactionID'), accessor: (r) => r.TransactionID, sortable: true },
      {
        id: 'DateCreated',
        header: t('fields.DateCreated'),
        accessor: (r) => r.DateCreated,
        cell: (r) => formatDateTime(r.DateCreated),
        sortable: true,
      },
      {
        id: 'MemberName',
        header: t('fields.MemberName'),
        accessor: (r) => `${r.Member.FirstName} ${r.Member.LastName}`,
        sortable: true,
        defaultHidden: mode === 'member',
      },
      { id: 'Amount', header: t('fields.Amount'), accessor: (r) => r.Amount, cell: (r) => formatCurrency(r.Amount), sortable: true, align: 'end' },
      {
        id: 'Status',
        header: t('fields.Status'),
        accessor: (r) => t(`display.${displayStatus(r.Status)}`, { defaultValue: displayStatus(r.Status) }),
        cell: (r) => <span data-status={r.Status}>{t(`display.${displayStatus(r.Status)}`, { defaultValue: displayStatus(r.Status) })}</span>,
        sortable: true,
      },
      { id: 'PANumber', header: t('fields.PANumber'), accessor: (r) => r.PANumber ?? '' },
      {
        id: 'Actions',
        header: t('fields.Actions'),
        hideable: false,
        cell: (r) => {
          const can = rowActions(r.Status, r.Kind);
          const label = `${r.TransactionID}`;
          return (
            <div className={css.actions}>
              {can.charge && (
                <Button
                  size="small"
                  variant="primary"
                  aria-label={`${t('actions.charge')} ${label}`}
                  isPending={busy === `charge:${r.TransactionID}`}
                  pendingLabel={t('actions.working')}
                  onPress={() => void act(r, 'charge')}
                >
                  {t('actions.charge')}
                </Button>
              )}
              {can.refund && (
                <Button
                  size="small"
                  aria-label={`${t('actions.refund')} ${label}`}
                  isPending={busy === `refund:${r.TransactionID}`}
                  pendingLabel={t('actions.working')}
                  onPress={() => void act(r, 'refund')}
                >
                  {t('actions.refund')}
                </Button>
              )}
              {can.capture && (
                <Button size="small" variant="primary" aria-label={`${t('actions.capture')} ${label}`} onPress={() => setCaptureFor(r)}>
                  {t('actions.capture')}
                </Button>
              )}
              {can.release && (
                <Button size="small" aria-label={`${t('actions.release')} ${label}`} onPress={() => setReleaseFor(r)}>
                  {t('actions.release')}
                </Button>
              )}
              {mode === 'pending' && can.decline && (
                <Button
                  size="small"
                  variant="danger"
                  aria-label={`${t('actions.decline')} ${label}`}
                  isPending={busy === `decline:${r.TransactionID}`}
                  pendingLabel={t('actions.working')}
                  onPress={() => void act(r, 'decline')}
                >
                  {t('actions.decline')}
                </Button>
              )}
              <Button size="small" aria-label={`${t('actions.paNumber')} ${label}`} onPress={() => setPaFor(r)}>
                {t('actions.paNumber')}
              </Button>
            </div>
          );
        },
      },
    ],
    [t, busy, mode],
  );

  const [exporting, setExporting] = useState(false);
  const exportExcel = async () => {
    setExporting(true);
    try {
      const grid = readGridState(searchParams, stateKey, { ...GRID_DEFAULTS });
      const { blob, fileName } = await api.call(SupportApi.transactionExcel, {
        body: exportBody(grid, { status, memberId: mode === 'member' ? memberId : undefined, selected }),
      });
      saveBlob(blob, fileName);
      showToast({ kind: 'success', message: t('reports.generated') });
    } catch {
      // shown by the client
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className={css.stack}>
      <DataGrid<SupportTransaction>
        label={t(mode === 'pending' ? 'list.pendingGrid' : mode === 'member' ? 'list.memberGrid' : 'list.grid')}
        columns={columns}
        getRowId={(r) => String(r.TransactionID)}
        getRowLabel={(r) => `${r.TransactionID} ${r.Member.FirstName} ${r.Member.LastName}`}
        fetchPage={fetchPage}
        queryKey={queryKey}
        sortable
        searchable
        pageSizes={SUPPORT_PAGE_SIZES}
        defaultPageSize={SUPPORT_DEFAULT_PAGE_SIZE}
        defaultSort={{ column: GRID_DEFAULTS.sortColumn, order: GRID_DEFAULTS.sortOrder }}
        selectionMode="multiple"
        onSelectionChange={setSelected}
        renderExpanded={(r) => <Details row={r} />}
        stateKey={stateKey}
        actions={
          <div className={css.row}>
            <NativeSelectField
              label={t('status.label')}
              value={status}
              options={filters.map((f) => ({ value: f, label: t(`status.${f}`) }))}
              onChange={setStatus}
            />
            {mode !== 'pending' && (
              <Button onPress={() => void exportExcel()} isPending={exporting} pendingLabel={t('list.exporting')}>
                {t('list.export')}
              </Button>
            )}
            {selected.length > 0 && <span>{t('list.selected', { count: selected.length })}</span>}
          </div>
        }
      />
      <ConfirmDialog
        isOpen={voidOffer !== null}
        onOpenChange={(open) => !open && setVoidOffer(null)}
        title={t('void.title')}
        message={t('void.message')}
        confirmLabel={t('actions.void')}
        destructive
        onConfirm={async () => {
          if (!voidOffer) return;
          const r = await api.call(SupportApi.void, { body: { TransactionID: voidOffer.TransactionID, IdempotencyKey: newIdempotencyKey('void') } });
          report(r);
          setVoidOffer(null);
          await refresh();
        }}
      />
      <ConfirmDialog
        isOpen={releaseFor !== null}
        onOpenChange={(open) => !open && setReleaseFor(null)}
        title={t('capture.releaseTitle')}
        message={t('capture.releaseMessage', { id: releaseFor?.TransactionID ?? '', amount: formatCurrency(releaseFor?.Amount ?? 0) })}
        confirmLabel={t('actions.release')}
        destructive
        onConfirm={async () => {
          if (!releaseFor) return;
          const r = await api.call(SupportApi.void, { body: { TransactionID: releaseFor.TransactionID, IdempotencyKey: newIdempotencyKey('release') } });
          report(r);
          setReleaseFor(null);
          await refresh();
        }}
      />
      {captureFor && (
        <CaptureDialog
          row={captureFor}
          onClose={() => setCaptureFor(null)}
          onDone={async (r) => {
            report(r);
            setCaptureFor(null);
            await refresh();
          }}
        />
      )}
      {paFor && (
        <PaNumberDialog
          row={paFor}
          onClose={() => setPaFor(null)}
          onSaved={async () => {
            setPaFor(null);
            await refresh();
          }}
        />
      )}
    </div>
  );
}

function Details({ row }: { row: SupportTransaction }) {
  const { t } = useTranslation('support');
  const items: [string, string | number | null][] = [
    ['ProviderTransactionID', row.ProviderTransactionID],
    ['AuthProviderTransactionID', row.AuthProviderTransactionID],
    ['CustomerID', row.CustomerID],
    ['PaymentProfileID', row.PaymentProfileID],
    ['NCPDPRequestID', row.NCPDPRequestID],
    ['ClaimID', row.ClaimID],
    ['Description', row.Description],
    ['Message', row.Message],
  ];
  return (
    <dl className={css.dl}>
      {items.map(([k, v]) => (
        <div key={k}>
          <dt className={css.dt}>{t(`fields.${k}`)}</dt>
          <dd className={css.dd}>{v === null || v === '' ? '—' : String(v)}</dd>
        </div>
      ))}
      <div>
        <dt className={css.dt}>{t('fields.MemberName')}</dt>
        <dd className={css.dd}>
          {row.Member.FirstName} {row.Member.LastName} ({row.Member.MemberNumber}, {row.Member.MemberID})
        </dd>
      </div>
    </dl>
  );
}

/** PA-number update (spec 02 section 5): the submitted number compared with the returned PANumber; equal is success. */
function PaNumberDialog({ row, onClose, onSaved }: { row: SupportTransaction; onClose: () => void; onSaved: () => Promise<void> }) {
  const api = useApi();
  const { t } = useTranslation('support');
  return (
    <ValueDialog
      title={t('pa.title', { id: row.TransactionID })}
      label={t('pa.label')}
      initial={row.PANumber ?? ''}
      input={{ maxLength: 40 }}
      submitLabel={t('pa.save')}
      cancelLabel={t('pa.cancel')}
      onClose={onClose}
      onSubmit={async (submitted) => {
        const r = await api.call(SupportApi.addPaNumber, { body: { TransactionID: row.TransactionID, PANumber: submitted, PreviousPANumber: row.PANumber } });
        if (paNumberMatches(submitted, r.PANumber)) showToast({ kind: 'success', message: r.Message });
        else showToast({ kind: 'error', message: t('pa.mismatch') });
        await onSaved();
      }}
    />
  );
}

/**
 * Capture of an authorization (a prepull): the amount, at most the authorized one (all of it by default). The
 * authorization is named by its id, so pressing again after a capture moves nothing; each press carries its own
 * idempotency key, as every money call does.
 */
function CaptureDialog({ row, onClose, onDone }: { row: SupportTransaction; onClose: () => void; onDone: (r: SupportMoneyResult) => Promise<void> }) {
  const api = useApi();
  const { t } = useTranslation('support');
  return (
    <ValueDialog
      title={t('capture.title', { id: row.TransactionID })}
      intro={t('capture.intro', { amount: formatCurrency(row.Amount) })}
      label={t('capture.amount')}
      initial={row.Amount.toFixed(2)}
      input={{ inputMode: 'decimal' }}
      submitLabel={t('capture.submit')}
      cancelLabel={t('capture.cancel')}
      onClose={onClose}
      onSubmit={async (amount) =>
        onDone(await api.call(SupportApi.capture, { body: { TransactionID: row.TransactionID, Amount: amount, IdempotencyKey: newIdempotencyKey('capture') } }))
      }
    />
  );
}
