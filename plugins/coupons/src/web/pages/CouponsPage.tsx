import { formatDateTime, formatIsoDayText } from '@portal/core';
import { layoutCss, SeenVersions, showToast, useApi } from '@portal/web';
import { Button, ConfirmDialog, DataGrid, type GridColumn, NativeSelectField, type PageRequest } from '@portal/web/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { COUPON_CREATE_PATH, couponPath } from '../../access';
import { COUPON_DEFAULT_PAGE_SIZE, COUPON_PAGE_SIZES, type Coupon, CouponsApi } from '../../contract';
import { ACTIONS, type Action, applyTakesFocus, clearsSelection } from '../components/bulkActions';
import * as css from '../components/coupons.css';
import { COUPON_SEARCH_MAX_LENGTH, couponSearchBody } from '../components/searchRequest';

const QUERY_KEY = ['coupons', 'grid'] as const;

export default function CouponsPage() {
  const api = useApi();
  const { t } = useTranslation('coupons');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string[]>([]);
  const [action, setAction] = useState<Action | ''>('');
  const [confirming, setConfirming] = useState(false);
  // The grid keeps its selection inside; a new key starts it again with none (page, sort and search stay in the address).
  const [gridKey, setGridKey] = useState(0);
  const applyRef = useRef<HTMLButtonElement>(null);
  const seen = useRef(new SeenVersions<Coupon>((c) => c.ID)).current;
  // The new grid's Apply takes the focus the old one lost. In a frame: the confirm dialog first has to go, and its own
  // return of focus (to the old Apply, now gone) then finds nothing to do.
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      if (applyTakesFocus(gridKey > 0, document.activeElement, document.body)) applyRef.current?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [gridKey]);

  const fetchPage = useCallback(
    async (req: PageRequest) => {
      // A failed page is said in the grid, in the server's words, with its Try again: no toast says it again.
      const page = await api.call(CouponsApi.search, { body: couponSearchBody(req) }, { skipLoadingBar: true, notify: false });
      seen.see(page.Items);
      return page;
    },
    [api, seen],
  );

  const columns = useMemo<GridColumn<Coupon>[]>(
    () => [
      {
        id: 'Code',
        header: t('fields.Code'),
        accessor: (c) => c.Code,
        sortable: true,
        cell: (c) => (
          <Link className={css.link} to={couponPath(c.ID)}>
            {c.Code}
          </Link>
        ),
      },
      { id: 'Product', header: t('fields.Product'), accessor: (c) => t(`product.${c.Product}`), sortable: true },
      { id: 'MembershipType', header: t('fields.MembershipType'), accessor: (c) => t(`membership.${c.MembershipType}`), sortable: true },
      { id: 'DiscountType', header: t('fields.DiscountType'), accessor: (c) => t(`discount.${c.DiscountType}`), sortable: true },
      { id: 'StartDate', header: t('fields.StartDate'), accessor: (c) => c.StartDate, cell: (c) => formatIsoDayText(c.StartDate), sortable: true },
      { id: 'EndDate', header: t('fields.EndDate'), accessor: (c) => c.EndDate ?? '', cell: (c) => formatIsoDayText(c.EndDate), sortable: true },
      { id: 'Status', header: t('fields.Status'), accessor: (c) => t(`status.${c.Status}`), sortable: true },
      { id: 'DateCreated', header: t('fields.DateCreated'), accessor: (c) => c.DateCreated, cell: (c) => formatDateTime(c.DateCreated), sortable: true },
    ],
    [t],
  );

  const run = useMutation({
    mutationFn: ({ a, ids }: { a: Action; ids: string[] }) => {
      const body = seen.refs(ids);
      const endpoint = a === 'activate' ? CouponsApi.activate : a === 'deactivate' ? CouponsApi.deactivate : CouponsApi.remove;
      return api.call(endpoint, { body });
    },
    onSettled: async (_data, error, { a, ids }) => {
      setConfirming(false);
      // Activate and deactivate move each coupon one Version on (the server answers no rows); a delete removes them.
      if (!error && a === 'delete') seen.forget(ids);
      else if (!error) seen.movedOn(ids);
      if (!error && clearsSelection(a)) {
        setSelected([]);
        setGridKey((k) => k + 1);
      }
      await queryClient.invalidateQueries({ queryKey: ['coupons'] });
    },
  });

  /** Spec 02 section 5: an action and at least one coupon, with the messages verbatim. */
  const apply = () => {
    if (!action) return showToast({ kind: 'warning', message: t('messages.selectAction') });
    if (selected.length === 0) return showToast({ kind: 'warning', message: t('messages.selectCoupons') });
    if (action === 'delete') return setConfirming(true);
    run.mutate({ a: action, ids: selected });
  };

  return (
    <div className={layoutCss.card}>
      <div className={css.stack}>
        <div className={css.row}>
          <Button variant="primary" onPress={() => navigate(COUPON_CREATE_PATH)}>
            {t('list.create')}
          </Button>
        </div>
        <DataGrid<Coupon>
          key={gridKey}
          label={t('list.grid')}
          columns={columns}
          getRowId={(c) => String(c.ID)}
          getRowLabel={(c) => c.Code}
          fetchPage={fetchPage}
          queryKey={QUERY_KEY}
          sortable
          searchable
          searchMaxLength={COUPON_SEARCH_MAX_LENGTH}
          pageSizes={COUPON_PAGE_SIZES}
          defaultPageSize={COUPON_DEFAULT_PAGE_SIZE}
          defaultSort={{ column: 'DateCreated', order: 'desc' }}
          selectionMode="multiple"
          onSelectionChange={setSelected}
          stateKey="coupons"
          actions={
            <div className={css.row}>
              <NativeSelectField<Action | ''>
                label={t('list.action')}
                value={action}
                options={[{ value: '', label: t('list.chooseAction') }, ...ACTIONS.map((a) => ({ value: a, label: t(`actions.${a}`) }))]}
                onChange={setAction}
              />
              <Button ref={applyRef} onPress={apply} isPending={run.isPending} pendingLabel={t('list.working')}>
                {t('list.apply')}
              </Button>
            </div>
          }
        />
      </div>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={t('list.deleteTitle')}
        message={t('list.deleteMessage', { count: selected.length })}
        confirmLabel={t('actions.delete')}
        destructive
        onConfirm={() => run.mutateAsync({ a: 'delete', ids: selected }).then(() => undefined)}
      />
    </div>
  );
}
