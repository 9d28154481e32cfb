import { layoutCss, useApi, useHeldRecord, useStaleSave } from '@portal/web';
import { StaleNotice } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { couponPath } from '../../access';
import { CouponsApi } from '../../contract';
import { CouponForm } from '../components/CouponForm';
import { CouponLoadFailure } from '../components/CouponLoadFailure';
import { type CouponFormValues, toCouponPayload } from '../components/couponFormValues';
import * as css from '../components/coupons.css';

export default function CouponEditPage() {
  const { id = '' } = useParams();
  const api = useApi();
  const { t } = useTranslation('coupons');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const key = ['coupons', 'one', id];
  const coupon = useQuery({ queryKey: key, queryFn: () => api.call(CouponsApi.get, { params: { id } }, { notify: false }) });
  // The edit keeps the coupon it started from (values and Version): a refetch meanwhile (on reconnect, once the cached
  // copy is stale) does not start the form over. Only Reload replaces it; Cancel and a save leave the page.
  const held = useHeldRecord(coupon.data, id);
  // The server's words when a save was refused as stale: said with a Reload until the user takes it (which lets go of
  // the held copy once the record is read again).
  const stale = useStaleSave(key, held.release);
  const edited = held.record;
  const save = useMutation({
    mutationFn: (v: CouponFormValues) => {
      const c = edited;
      if (!c) throw new Error('no coupon loaded');
      // A stale save is said by the form's notice alone; other failures are toasted.
      return api.call(CouponsApi.update, { body: { ...toCouponPayload(v), ID: c.ID, Version: c.Version, Status: v.Status } }, { notify: stale.notify });
    },
    onMutate: stale.clear,
    onSuccess: async (c) => {
      await queryClient.invalidateQueries({ queryKey: ['coupons'] });
      navigate(couponPath(c.ID));
    },
    // A stale save keeps the typed values and says so with a Reload (the cached coupon is then read anew).
    onError: stale.onError,
  });
  return (
    <div className={layoutCss.card}>
      <div className={css.stack}>
        {/* A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile). */}
        {(coupon.isPending || (coupon.isError && coupon.isFetching)) && <p aria-busy="true">{t('loading')}</p>}
        {coupon.isError && !coupon.isFetching && <CouponLoadFailure error={coupon.error} onRetry={() => void coupon.refetch()} />}
        {stale.conflict && <StaleNotice message={stale.conflict} onReload={stale.reload} />}
        {edited && (
          <CouponForm
            // Reload takes the coupon as it is now (a new Version): the form starts again from it.
            key={edited.Version}
            initial={edited}
            busy={save.isPending}
            onSave={(v) => save.mutateAsync(v)}
            onCancel={() => navigate(couponPath(id))}
          />
        )}
      </div>
    </div>
  );
}
