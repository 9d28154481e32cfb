import { formatDateTime, formatIsoDayText } from '@portal/core';
import { layoutCss, useApi } from '@portal/web';
import { Button } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { COUPONS_PATH, couponEditPath } from '../../access';
import { CouponsApi } from '../../contract';
import { CouponLoadFailure } from '../components/CouponLoadFailure';
import * as css from '../components/coupons.css';

export default function CouponDetailPage() {
  const { id = '' } = useParams();
  const api = useApi();
  const { t } = useTranslation('coupons');
  const navigate = useNavigate();
  const coupon = useQuery({ queryKey: ['coupons', 'one', id], queryFn: () => api.call(CouponsApi.get, { params: { id } }, { notify: false }) });
  const c = coupon.data;
  return (
    <div className={layoutCss.card}>
      <div className={css.stack}>
        <Link className={css.link} to={COUPONS_PATH}>
          {t('detail.back')}
        </Link>
        {/* A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile). */}
        {(coupon.isPending || (coupon.isError && coupon.isFetching)) && <p aria-busy="true">{t('loading')}</p>}
        {coupon.isError && !coupon.isFetching && <CouponLoadFailure error={coupon.error} onRetry={() => void coupon.refetch()} />}
        {c && (
          <>
            <dl className={css.dl} data-testid="coupon-view">
              {(
                [
                  ['ID', String(c.ID)],
                  ['Code', c.Code],
                  ['Product', t(`product.${c.Product}`)],
                  ['MembershipType', t(`membership.${c.MembershipType}`)],
                  ['DiscountType', t(`discount.${c.DiscountType}`)],
                  ['StartDate', formatIsoDayText(c.StartDate)],
                  ['EndDate', c.EndDate ? formatIsoDayText(c.EndDate) : t('detail.none')],
                  ['Status', t(`status.${c.Status}`)],
                  ['DateCreated', formatDateTime(c.DateCreated)],
                  // Members whose membership was given with it: such a coupon cannot be deleted, only deactivated.
                  ['UsedBy', t('detail.usedBy', { count: c.UsedBy })],
                ] as const
              ).map(([k, v]) => (
                <div key={k}>
                  <dt className={css.dt}>{t(`fields.${k}`)}</dt>
                  <dd className={css.dd}>{v}</dd>
                </div>
              ))}
            </dl>
            <div className={css.row}>
              <Button variant="primary" onPress={() => navigate(couponEditPath(c.ID))}>
                {t('detail.edit')}
              </Button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
